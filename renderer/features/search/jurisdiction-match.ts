// Finding a jurisdiction by what a person types: a name ("alexandria", "prince george"), a state
// abbreviation ("md"), or a code ("24031"). Names that start with the text come first.
import { jurisdictions, type Jurisdiction } from '../../../shared/jurisdictions.ts';

const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'.]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

export function matchJurisdictions(query: string, list: readonly Jurisdiction[] = jurisdictions): Jurisdiction[] {
  const wanted = fold(query);
  if (wanted === '') return [...list];
  const scored: Array<{ jurisdiction: Jurisdiction; score: number; index: number }> = [];
  list.forEach((jurisdiction, index) => {
    const name = fold(jurisdiction.name);
    const words = wanted.split(' ');
    let score = -1;
    if (jurisdiction.code === wanted) score = 0;
    else if (name.startsWith(wanted)) score = 1;
    else if (fold(jurisdiction.stateAbbreviation) === wanted) score = 2;
    else if (name.split(/[ ,]+/).some((word) => word.startsWith(wanted))) score = 3;
    else if (words.every((word) => name.includes(word) || fold(jurisdiction.stateAbbreviation) === word)) score = 4;
    else if (jurisdiction.code.startsWith(wanted)) score = 5;
    if (score >= 0) scored.push({ jurisdiction, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((entry) => entry.jurisdiction);
}
