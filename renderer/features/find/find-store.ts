// UI state of the find box, outside the component: the same box sits on the Search view and in the
// Ctrl+K palette, and opening a property replaces the view, so coming back must find what was typed
// and the answer already bought.
import { create } from 'zustand';
import type { FindKind, FindReading } from './find-model.ts';

export type AskedFind = Extract<FindReading, { status: 'ready' }>;

interface FindState {
  /** What is in the box, exactly as typed. */
  text: string;
  /** A kind picked by hand for this text (null: the detected one). */
  chosen: FindKind | null;
  /** The find the candidates belong to (null before the first). */
  asked: AskedFind | null;
  /** Whether the Ctrl+K palette is open. */
  paletteOpen: boolean;
  /** The file started for a find ("a new assignment"): the property opened from that find becomes its subject. */
  newFile: { projectId: string; sent: string } | null;
  /** Bumped to ask the box on the Search view to take the focus (Ctrl+K there). */
  focusTick: number;
  setText: (text: string) => void;
  choose: (kind: FindKind | null) => void;
  ask: (reading: AskedFind) => void;
  openPalette: () => void;
  closePalette: () => void;
  focusBox: () => void;
  setNewFile: (newFile: { projectId: string; sent: string } | null) => void;
}

export const useFindStore = create<FindState>((set) => ({
  text: '',
  chosen: null,
  asked: null,
  paletteOpen: false,
  focusTick: 0,
  newFile: null,
  // A kind picked by hand belongs to the text it was picked for: clearing the box forgets it.
  setText: (text) => set((state) => ({ text, chosen: text.trim() === '' ? null : state.chosen })),
  choose: (chosen) => set({ chosen }),
  ask: (asked) => set({ asked }),
  openPalette: () => set({ paletteOpen: true }),
  closePalette: () => set({ paletteOpen: false }),
  focusBox: () => set((state) => ({ focusTick: state.focusTick + 1 })),
  setNewFile: (newFile) => set({ newFile }),
}));
