// UI state of the Owners view, outside the component: opening a holding replaces the view with the
// entity page, and coming back must find the typed name, the area and the pages already bought.
import { create } from 'zustand';

export interface OwnerSearch {
  name: string;
  areaUid: string;
}

interface OwnersUiState {
  /** What is in the name field, exactly as typed. */
  draft: string;
  areaUid: string | null;
  /** The search the results belong to (null before the first). */
  submitted: OwnerSearch | null;
  /** Cursors of the further pages asked for, in order (page 2 onwards). */
  cursors: string[];
  setDraft: (draft: string) => void;
  setArea: (areaUid: string) => void;
  submit: (search: OwnerSearch) => void;
  addPage: (cursor: string) => void;
}

export const useOwnersUi = create<OwnersUiState>((set) => ({
  draft: '',
  areaUid: null,
  submitted: null,
  cursors: [],
  setDraft: (draft) => set({ draft }),
  setArea: (areaUid) => set({ areaUid }),
  submit: (search) => set({ submitted: search, cursors: [] }),
  addPage: (cursor) => set((state) => (state.cursors.includes(cursor) ? state : { cursors: [...state.cursors, cursor] })),
}));
