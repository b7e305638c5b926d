// A short human caption per entity id ("1626 - 1632 U ST NW"), remembered from whatever screen last
// showed the entity with one, so the entity page and its trail can say more than an id. UI state only:
// the values are display text already shown (and cited) where they were learnt.
import { create } from 'zustand';

interface CaptionState {
  captions: Record<string, string>;
  remember: (entries: Record<string, string>) => void;
}

export const useEntityCaptions = create<CaptionState>((set) => ({
  captions: {},
  remember: (entries) =>
    set((state) => {
      const changed = Object.entries(entries).some(([id, caption]) => caption !== '' && state.captions[id] !== caption);
      if (!changed) return state;
      const captions = { ...state.captions };
      for (const [id, caption] of Object.entries(entries)) if (caption !== '') captions[id] = caption;
      return { captions };
    }),
}));
