// UI state only (which view is open). Service data lives in TanStack Query, never here.
import { create } from 'zustand';
import type { ViewId } from './views.ts';

interface UiState {
  activeView: ViewId;
  openView: (view: ViewId) => void;
}

export const useUiStore = create<UiState>((set) => ({
  activeView: 'search',
  openView: (view) => set({ activeView: view }),
}));
