import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { foldToLatin, latinSpellings, MAX_TWO_WAY_LETTERS, nonLatinLetters, twoWayLetterCount } from './latin-fold.ts';

describe('latinSpellings', () => {
  it('writes Ä, Ö and Ü both ways, the dotless one first', () => {
    expect(latinSpellings('Müller')).toEqual(['MULLER', 'MUELLER']);
    expect(latinSpellings('Mu\u0308ller')).toEqual(['MULLER', 'MUELLER']);
    expect(latinSpellings('Görlitz Bär')).toEqual(['GORLITZ BAR', 'GOERLITZ BAR', 'GORLITZ BAER', 'GOERLITZ BAER']);
  });

  it('folds every other accent one way', () => {
    expect(latinSpellings('josé')).toEqual(['JOSE']);
    expect(latinSpellings('Straße')).toEqual(['STRASSE']);
    expect(latinSpellings('Núñez Ærø Łódź')).toEqual(['NUNEZ AERO LODZ']);
    expect(latinSpellings('smith & sons')).toEqual(['SMITH & SONS']);
  });

  it('keeps letters with no Latin spelling as they are', () => {
    expect(latinSpellings('名前')).toEqual(['名前']);
    expect(foldToLatin('Жуков')).toBe('ЖУКОВ');
  });

  it('tries at most 2^MAX_TWO_WAY_LETTERS spellings', () => {
    const many = 'Ü'.repeat(MAX_TWO_WAY_LETTERS + 2);
    expect(twoWayLetterCount(many)).toBe(MAX_TWO_WAY_LETTERS + 2);
    expect(latinSpellings(many)).toHaveLength(2 ** MAX_TWO_WAY_LETTERS);
  });

  it('gives every spelling in plain Latin capitals when the text is Latin', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z äöüÄÖÜéèñçßøæ]{0,12}$/), (text) => {
        for (const spelling of latinSpellings(text)) expect(spelling).toMatch(/^[A-Z ]*$/);
      }),
    );
  });
});

describe('nonLatinLetters', () => {
  it('names the letters a Latin roll cannot hold', () => {
    expect(nonLatinLetters('名前')).toEqual(['名', '前']);
    expect(nonLatinLetters('MÜLLER 名前 名')).toEqual(['名', '前']);
    expect(nonLatinLetters('Müller, José & Sons 2')).toEqual([]);
  });
});
