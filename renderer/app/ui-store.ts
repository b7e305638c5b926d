// UI state only (which view is open, which entity is being looked at). Service data lives in
// TanStack Query, never here.
import { create } from 'zustand';
import type { ViewId } from './views.ts';

/** How an owner's page sits in the trail beside entity ids: `owner:<area uid>/<name as published>`. */
const OWNER_ENTRY = /^owner:([^/]*)\/(.+)$/s;

/** The trail entry of an owner's page: the owner name as published, in the area whose records publish it. */
export function ownerTrailEntry(name: string, areaUid: string | null = null): string {
  return `owner:${areaUid ?? ''}/${name.trim()}`;
}

/** The owner a trail entry opens, or null for an entity id. */
export function ownerOfTrailEntry(entry: string): { name: string; areaUid: string | null } | null {
  const match = OWNER_ENTRY.exec(entry);
  return match?.[2] ? { name: match[2], areaUid: match[1] || null } : null;
}

interface UiState {
  activeView: ViewId;
  /**
   * Pages opened from anywhere over the views, newest last; the last one is shown: an entity (its id)
   * or an owner (ownerTrailEntry).
   */
  entityTrail: string[];
  openView: (view: ViewId) => void;
  /**
   * Bumped each time a view is opened by name (shortcut, sidebar, crumb): the frame then puts the
   * focus on the view's heading, so the keyboard starts at the top of the view, not on the body.
   */
  viewOpenedTick: number;
  /** The Settings section to bring into view when Settings opens (its element id); null: the top. */
  settingsSection: string | null;
  /** Opens Settings at one section (e.g. `settings-budgets`, to raise a cap from a refusal). */
  openSettings: (section: string) => void;
  openEntity: (entityId: string) => void;
  /** Opens an owner's page (every holding published under the name) over the current view. */
  openOwner: (name: string, areaUid?: string | null) => void;
  /** Back to the previous entity, or out of the entity page. */
  closeEntity: () => void;
  /** The assignment the Assignments view shows (null: the list). */
  openAssignmentId: string | null;
  /** Opens the Assignments view on one assignment (from the Report view, a property page, a verified PDF). */
  openAssignment: (assignmentId: string | null) => void;
  /** The entity (or `owner:NAME`) the Graph view is drawn from; null: the active assignment's subject. */
  graphRootId: string | null;
  /** Opens the Graph view drawn from this entity id or owner (`owner:NAME`), the focus on the graph. */
  openGraph: (entityId: string) => void;
  /** Set by openGraph: the graph takes the focus once drawn from its new root, then clears it. */
  focusGraph: boolean;
  graphFocused: () => void;
}

export const useUiStore = create<UiState>((set, get) => ({
  activeView: 'search',
  entityTrail: [],
  openView: (view) => set((state) => ({ activeView: view, entityTrail: [], viewOpenedTick: state.viewOpenedTick + 1 })),
  viewOpenedTick: 0,
  settingsSection: null,
  openSettings: (section) => set({ activeView: 'settings', entityTrail: [], settingsSection: section }),
  openEntity: (entityId) =>
    set((state) => (state.entityTrail.at(-1) === entityId ? state : { entityTrail: [...state.entityTrail, entityId].slice(-20) })),
  openOwner: (name, areaUid = null) => get().openEntity(ownerTrailEntry(name, areaUid)),
  closeEntity: () => set((state) => ({ entityTrail: state.entityTrail.slice(0, -1) })),
  openAssignmentId: null,
  openAssignment: (assignmentId) => set({ activeView: 'assignments', entityTrail: [], openAssignmentId: assignmentId }),
  graphRootId: null,
  openGraph: (entityId) => set({ activeView: 'graph', entityTrail: [], graphRootId: entityId, focusGraph: true }),
  focusGraph: false,
  graphFocused: () => set({ focusGraph: false }),
}));
