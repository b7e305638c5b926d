// UI state of the Owners view, outside the component: opening a holding replaces the view with the
// entity page, and coming back must find the typed name, the area and the search. The pages already
// bought are in the query cache, found again from the search (OwnerPortfolio.tsx).
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
  setDraft: (draft: string) => void;
  setArea: (areaUid: string) => void;
  submit: (search: OwnerSearch) => void;
}

export const useOwnersUi = create<OwnersUiState>((set) => ({
  draft: '',
  areaUid: null,
  submitted: null,
  setDraft: (draft) => set({ draft }),
  setArea: (areaUid) => set({ areaUid }),
  submit: (search) => set({ submitted: search }),
}));
