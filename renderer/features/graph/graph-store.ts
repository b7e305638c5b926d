// The Graph view's own state (UI only; answers live in TanStack Query): how the root is traversed,
// what the filters hide, which tab and which node or link is selected, and the expansions asked for
// per root (so going back to a root shows what was expanded there, free, from the held answers).
import { create } from 'zustand';
import type { GraphNodeKind } from '../../../shared/graph/graph-spec.ts';
import { defaultTraversal, uniqueRequests, type GraphRequest, type TraversalSettings } from './graph-model.ts';

export type GraphTab = 'drawing' | 'table' | 'runsheet';
export type GraphSelection = { type: 'node' | 'link'; id: string } | null;

interface GraphUiState {
  settings: TraversalSettings;
  hiddenKinds: GraphNodeKind[];
  hiddenRelations: string[];
  tab: GraphTab;
  selection: GraphSelection;
  /** Requests beyond the root's own (expansions, further pages), per root id, in the order asked. */
  added: Record<string, GraphRequest[]>;
  /** The area owner names are searched in; null: the first the service lists. */
  ownerAreaUid: string | null;
  setSettings: (change: Partial<TraversalSettings>) => void;
  toggleKind: (kind: GraphNodeKind) => void;
  toggleRelation: (predicate: string) => void;
  showAll: () => void;
  setTab: (tab: GraphTab) => void;
  select: (selection: GraphSelection) => void;
  addRequests: (rootId: string, requests: readonly GraphRequest[]) => void;
  setOwnerArea: (areaUid: string) => void;
}

const toggled = <T>(list: readonly T[], value: T): T[] => (list.includes(value) ? list.filter((item) => item !== value) : [...list, value]);

export const useGraphStore = create<GraphUiState>((set) => ({
  settings: defaultTraversal,
  hiddenKinds: [],
  hiddenRelations: [],
  tab: 'drawing',
  selection: null,
  added: {},
  ownerAreaUid: null,
  setSettings: (change) => set((state) => ({ settings: { ...state.settings, ...change } })),
  toggleKind: (kind) => set((state) => ({ hiddenKinds: toggled(state.hiddenKinds, kind) })),
  toggleRelation: (predicate) => set((state) => ({ hiddenRelations: toggled(state.hiddenRelations, predicate) })),
  showAll: () => set({ hiddenKinds: [], hiddenRelations: [] }),
  setTab: (tab) => set({ tab }),
  select: (selection) => set({ selection }),
  addRequests: (rootId, requests) => set((state) => ({ added: { ...state.added, [rootId]: uniqueRequests([...(state.added[rootId] ?? []), ...requests]) } })),
  setOwnerArea: (areaUid) => set({ ownerAreaUid: areaUid }),
}));
