// How accented text meets a register printed in plain Latin capitals (DC's tax roll prints MULLER and
// MUELLER, never MÜLLER). A person who types MÜLLER means either spelling, JOSÉ means JOSE, and a
// letter with no Latin spelling (名, Ж) can never be in such a register. One fold, used by the
// embedded service to match owner names and by the renderer to say exactly what will be matched.

/** Letters written two ways in plain Latin: the dots dropped (MULLER) or spelled out as E (MUELLER). */
const TWO_WAYS: Readonly<Record<string, readonly [string, string]>> = { Ä: ['A', 'AE'], Ö: ['O', 'OE'], Ü: ['U', 'UE'] };

/** Latin letters that do not decompose into a base letter and accents. */
const SPELLED: Readonly<Record<string, string>> = {
  ẞ: 'SS',
  Æ: 'AE',
  Œ: 'OE',
  Ø: 'O',
  Đ: 'D',
  Ð: 'D',
  Þ: 'TH',
  Ł: 'L',
  Ħ: 'H',
  Ŧ: 'T',
  Ŀ: 'L',
  Ŋ: 'N',
  Ĳ: 'IJ',
};

/**
 * The most letters written two ways one text may hold: each doubles the spellings to try (6 → 64).
 * Names have one or two.
 */
export const MAX_TWO_WAY_LETTERS = 6;

/** One piece of folded text: fixed text, or a choice of two spellings. */
export type LatinPart = string | readonly [string, string];

const COMBINING_MARKS = /\p{M}+/gu;

/**
 * Upper case with accents folded (É → E, ß → SS, Æ → AE), each of Ä, Ö, Ü a choice of two
 * spellings. Characters with no Latin spelling are kept as they are (upper-cased), so they match only
 * themselves.
 */
export function latinParts(text: string): LatinPart[] {
  const parts: LatinPart[] = [];
  let fixed = '';
  // NFC first: an Ü typed as U plus a combining diaeresis is the same letter.
  for (const char of text.normalize('NFC').toUpperCase()) {
    const choice = TWO_WAYS[char];
    if (choice) {
      if (fixed !== '') parts.push(fixed);
      fixed = '';
      parts.push(choice);
      continue;
    }
    // Accents first, then a spelling: Ǽ is Æ with an acute, so AE like Æ (folding stays idempotent).
    const base = char.normalize('NFD').replace(COMBINING_MARKS, '').normalize('NFC');
    fixed += SPELLED[char] ?? SPELLED[base] ?? base;
  }
  if (fixed !== '') parts.push(fixed);
  return parts;
}

/** How many letters of the text are written two ways (Ä, Ö, Ü). */
export function twoWayLetterCount(text: string): number {
  return latinParts(text).filter((part) => typeof part !== 'string').length;
}

/**
 * Every plain-Latin spelling of the text, the dotless one first: MÜLLER → MULLER, MUELLER. Letters
 * written two ways after the first MAX_TWO_WAY_LETTERS take their first spelling only.
 */
export function latinSpellings(text: string): string[] {
  let spellings = [''];
  let choices = 0;
  for (const part of latinParts(text)) {
    if (typeof part === 'string') {
      spellings = spellings.map((spelling) => spelling + part);
    } else if (choices++ < MAX_TWO_WAY_LETTERS) {
      spellings = part.flatMap((option) => spellings.map((spelling) => spelling + option));
    } else {
      spellings = spellings.map((spelling) => spelling + part[0]);
    }
  }
  return spellings;
}

/** The text's first plain-Latin spelling (MÜLLER → MULLER): one key form for same-name matching. */
export function foldToLatin(text: string): string {
  return latinSpellings(text)[0] ?? '';
}

/** Letters of the text that have no plain-Latin spelling (名前 → 名, 前), each once. */
export function nonLatinLetters(text: string): string[] {
  const letters = new Set<string>();
  for (const char of foldToLatin(text)) if (/\p{L}/u.test(char) && !/[A-Z]/.test(char)) letters.add(char);
  return [...letters];
}
