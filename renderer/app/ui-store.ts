// UI state only (which view is open, which entity is being looked at). Service data lives in
// TanStack Query, never here.
import { create } from 'zustand';
import type { ViewId } from './views.ts';

interface UiState {
  activeView: ViewId;
  /** Entities opened from anywhere, newest last; the entity page shows the last one. */
  entityTrail: string[];
  openView: (view: ViewId) => void;
  openEntity: (entityId: string) => void;
  /** Back to the previous entity, or out of the entity page. */
  closeEntity: () => void;
  /** The assignment the Assignments view shows (null: the list). */
  openAssignmentId: string | null;
  /** Opens the Assignments view on one assignment (from the Report view, a property page, a verified PDF). */
  openAssignment: (assignmentId: string | null) => void;
}

export const useUiStore = create<UiState>((set) => ({
  activeView: 'search',
  entityTrail: [],
  openView: (view) => set({ activeView: view, entityTrail: [] }),
  openEntity: (entityId) =>
    set((state) => (state.entityTrail.at(-1) === entityId ? state : { entityTrail: [...state.entityTrail, entityId].slice(-20) })),
  closeEntity: () => set((state) => ({ entityTrail: state.entityTrail.slice(0, -1) })),
  openAssignmentId: null,
  openAssignment: (assignmentId) => set({ activeView: 'assignments', entityTrail: [], openAssignmentId: assignmentId }),
}));
