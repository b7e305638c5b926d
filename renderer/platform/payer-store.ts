// Which file pays for a lookup of another property while an assignment is active: the choice the
// person asked Plat to remember ("don't ask again this session"). Kept in memory only, so it lasts
// for this launch of Plat; Settings forgets it.
import { create } from 'zustand';
import type { PayerChoice } from '../../shared/assignments/payer.ts';

interface PayerState {
  remembered: PayerChoice | null;
  remember: (choice: PayerChoice) => void;
  forget: () => void;
}

export const usePayerStore = create<PayerState>((set) => ({
  remembered: null,
  remember: (remembered) => set({ remembered }),
  forget: () => set({ remembered: null }),
}));

/** A name not yet taken by another project: "1717 4th St NW", then "1717 4th St NW (2)"… */
export function freeProjectName(base: string, taken: readonly string[]): string {
  const name = base.trim().slice(0, 110) || 'New assignment';
  const used = new Set(taken.map((entry) => entry.trim().toLowerCase()));
  if (!used.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) if (!used.has(`${name} (${n})`.toLowerCase())) return `${name} (${n})`;
}
