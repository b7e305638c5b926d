// The one selection the map, the candidate list and the grid share: the workfile being edited (chosen
// comps in column order, reasons, rates, lump sums, weights, the reconciliation, the criteria) and the
// candidate the list or grid has in focus (the map highlights it). Every edit is saved to the core a
// moment after the last one (~400 ms) and at once when the view is left, so an edit is never lost
// and a burst of typing is one save.
import { create } from 'zustand';
import type { ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { saveComparables } from '../../platform/comparables-queries.ts';
import { toggleComp, workfileForSave } from './comparables-model.ts';

export const SAVE_DELAY_MS = 400;

export type SaveState = 'saved' | 'pending' | 'saving' | 'failed';

interface ComparablesState {
  assignmentId: string | null;
  workfile: ComparablesWorkfile | null;
  /** The candidate in focus in the list or grid (the map draws it highlighted). */
  highlightedId: string | null;
  /** Edits made since loading, and the last of them the core has confirmed. */
  revision: number;
  savedRevision: number;
  saveState: SaveState;
  saveError: unknown;
  savedAt: string | null;
  /** A sentence about the last selection that could not be made ("at most 20 comps"). */
  notice: string | null;
  /** Takes the core's workfile: for another assignment, or when nothing here is waiting to be saved. */
  load: (assignmentId: string, workfile: ComparablesWorkfile) => void;
  edit: (change: (workfile: ComparablesWorkfile) => ComparablesWorkfile) => void;
  /** Choose or drop: the one operation behind a map point, a list row and a grid column. */
  toggle: (id: string) => void;
  highlight: (id: string | null) => void;
  setNotice: (notice: string | null) => void;
  /** Saves now whatever is waiting (leaving the view, before a search that must find its run saved). */
  flush: () => Promise<void>;
  /** Forgets everything (tests; another data folder). */
  reset: () => void;
}

let timer: ReturnType<typeof setTimeout> | null = null;
let inFlight: Promise<void> | null = null;

const initial = {
  assignmentId: null,
  workfile: null,
  highlightedId: null,
  revision: 0,
  savedRevision: 0,
  saveState: 'saved' as SaveState,
  saveError: null,
  savedAt: null,
  notice: null,
};

export const useComparablesStore = create<ComparablesState>((set, get) => {
  const schedule = () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void save();
    }, SAVE_DELAY_MS);
  };

  const save = async (): Promise<void> => {
    // One save at a time; a save asked for meanwhile follows with the newest workfile.
    if (inFlight) {
      await inFlight;
      if (get().revision === get().savedRevision) return;
    }
    const { assignmentId, workfile, revision } = get();
    if (!assignmentId || !workfile || revision === get().savedRevision) return;
    set({ saveState: 'saving' });
    const attempt = (async () => {
      try {
        const saved = await saveComparables(assignmentId, workfileForSave(workfile));
        if (get().assignmentId !== assignmentId) return;
        set((state) => ({
          savedRevision: Math.max(state.savedRevision, revision),
          saveState: state.revision === revision ? 'saved' : 'pending',
          saveError: null,
          savedAt: saved.workfile.savedAt,
        }));
      } catch (error) {
        if (get().assignmentId === assignmentId) set({ saveState: 'failed', saveError: error });
      }
    })();
    inFlight = attempt;
    try {
      await attempt;
    } finally {
      if (inFlight === attempt) inFlight = null;
    }
    // Edits made while this one was on its way.
    if (get().assignmentId === assignmentId && get().revision > get().savedRevision && get().saveState !== 'failed') schedule();
  };

  return {
    ...initial,
    load: (assignmentId, workfile) => {
      const state = get();
      const waiting = state.revision !== state.savedRevision || state.saveState === 'saving';
      if (state.assignmentId === assignmentId && waiting) return;
      if (state.assignmentId === assignmentId && state.workfile !== null && state.workfile === workfile) return;
      // A copy saved before the one held (the view opened again shows its cached read while the core is
      // asked again): taking it would show the comps and rates as they were, and an edit made then
      // would save over the newer workfile.
      if (state.assignmentId === assignmentId && state.workfile !== null && state.savedAt !== null && (workfile.savedAt === null || workfile.savedAt < state.savedAt)) return;
      set({
        assignmentId,
        workfile,
        savedAt: workfile.savedAt,
        ...(state.assignmentId === assignmentId ? {} : { highlightedId: null, revision: 0, savedRevision: 0, saveState: 'saved' as SaveState, saveError: null, notice: null }),
      });
    },
    edit: (change) => {
      const { workfile } = get();
      if (!workfile) return;
      const next = change(workfile);
      if (next === workfile) return;
      set((state) => ({ workfile: next, revision: state.revision + 1, saveState: 'pending' }));
      schedule();
    },
    toggle: (id) => {
      const { workfile } = get();
      if (!workfile) return;
      const change = toggleComp(workfile, id);
      set({ notice: change.problem });
      if (change.workfile !== workfile) get().edit(() => change.workfile);
    },
    highlight: (id) => {
      if (get().highlightedId !== id) set({ highlightedId: id });
    },
    setNotice: (notice) => set({ notice }),
    flush: async () => {
      if (timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
      await save();
    },
    reset: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      inFlight = null;
      set(initial);
    },
  };
});
