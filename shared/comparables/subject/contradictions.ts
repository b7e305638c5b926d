// What the subject's answers say against each other, found and said in words with the records on
// both sides: a new-construction permit after the recorded year built, a remodel (or an effective
// year built) after the assignment's effective date, and stories against a permit's description.
import type { CitationFields } from '../../cited/citation.ts';
import { isNewConstruction, type Candidate, type PermitEvidence } from '../../report/conflicts.ts';
import type { ResolvedCharacteristic, SubjectCharacteristicKey } from './resolve.ts';

export type SubjectContradictionKind = 'permit_after_year_built' | 'after_effective_date' | 'stories_vs_permit';

export interface SubjectContradiction {
  kind: SubjectContradictionKind;
  /** The characteristic it is about. */
  key: SubjectCharacteristicKey;
  text: string;
  /** Both sides: the permit's record and the record it contradicts. */
  citations: CitationFields[];
}

const NUMBER_WORDS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5, SIX: 6 };
const STORIES = /\b(ONE|TWO|THREE|FOUR|FIVE|SIX|[1-6])[- ]?(?:STORY|STORIES|STOREY|STOREYS)\b/i;

/** The number of stories a permit's description states ("THREE STORY", "3-story"), or null. */
export function storiesInDescription(description: string | null): number | null {
  const match = description ? STORIES.exec(description) : null;
  if (!match?.[1]) return null;
  const word = match[1].toUpperCase();
  return NUMBER_WORDS[word] ?? Number(word);
}

/** The stories a new-construction permit describes, as a candidate derived from it (the latest such permit). */
export function storiesFromPermits(permits: readonly PermitEvidence[], rank: number): (Candidate & { raw: number }) | null {
  const permit = permits
    .filter((p) => isNewConstruction(p) && storiesInDescription(p.description) !== null)
    .sort((a, b) => ((a.date ?? '') < (b.date ?? '') ? 1 : -1))[0];
  const stories = permit ? storiesInDescription(permit.description) : null;
  if (!permit || stories === null) return null;
  return {
    key: `permit:${permit.recordNumber}:stories`,
    raw: stories,
    display: String(stories),
    status: 'derived',
    citations: permit.citations,
    derivedFrom: `permit ${permit.recordNumber}${permit.date ? ` issued ${permit.date}` : ''} ("${permit.description}")`,
    note: `The permit for new construction describes a building of ${stories} stories.`,
    rank,
  };
}

const statusWords: Record<string, string> = { reported: 'published', derived: 'derived', synthetic: 'synthetic, copied from another building' };

function describe(candidate: Candidate): string {
  return `${candidate.display} (${statusWords[candidate.status] ?? candidate.status})`;
}

/** Every contradiction the characteristics' candidates and the permits show. */
export function findContradictions(
  characteristics: Record<SubjectCharacteristicKey, ResolvedCharacteristic>,
  permits: readonly PermitEvidence[],
  effectiveDate: string,
): SubjectContradiction[] {
  const found: SubjectContradiction[] = [];
  const candidatesOf = (key: SubjectCharacteristicKey): Candidate[] => {
    const resolution = characteristics[key].resolution;
    return resolution ? [resolution.chosen, ...resolution.alternatives] : [];
  };
  // A permit for new construction after a recorded year built.
  for (const permitCandidate of candidatesOf('yearBuilt').filter((c) => c.key.startsWith('permit:'))) {
    const recorded = candidatesOf('yearBuilt').filter((c) => !c.key.startsWith('permit:') && Number(c.raw) < Number(permitCandidate.raw));
    const permit = permits.find((p) => permitCandidate.key === `permit:${p.recordNumber}`);
    if (!permit || recorded.length === 0) continue;
    found.push({
      kind: 'permit_after_year_built',
      key: 'yearBuilt',
      text: `Permit ${permit.recordNumber}${permit.date ? ` (issued ${permit.date})` : ''} is for new construction${permit.description ? ` ("${permit.description}")` : ''}; the records say built ${recorded.map(describe).join(', ')}: the building standing now dates from ${permitCandidate.raw} or later.`,
      citations: [...permit.citations, ...recorded.flatMap((c) => c.citations)],
    });
  }
  // Stories against a permit's description.
  const permitStories = candidatesOf('stories').find((c) => c.key.startsWith('permit:'));
  const recordedStories = candidatesOf('stories').filter((c) => !c.key.startsWith('permit:') && permitStories && Number(c.raw) !== Number(permitStories.raw));
  if (permitStories && recordedStories.length > 0) {
    found.push({
      kind: 'stories_vs_permit',
      key: 'stories',
      text: `The records say ${recordedStories.map(describe).join(', ')} stories; ${permitStories.derivedFrom ?? 'a permit'} describes ${permitStories.raw}.`,
      citations: [...permitStories.citations, ...recordedStories.flatMap((c) => c.citations)],
    });
  }
  // A remodel or an effective year built after the effective date cannot describe the property as of it.
  const effectiveYear = Number(effectiveDate.slice(0, 4));
  if (Number.isInteger(effectiveYear)) {
    for (const key of ['yearRemodeled', 'effectiveYearBuilt', 'yearBuilt'] as const) {
      for (const candidate of candidatesOf(key)) {
        const year = Number(candidate.raw);
        if (!Number.isInteger(year) || year <= effectiveYear) continue;
        const what = key === 'yearRemodeled' ? 'remodeled' : key === 'effectiveYearBuilt' ? 'an effective year built of' : 'built';
        found.push({
          kind: 'after_effective_date',
          key,
          text: `The records say ${what} ${describe(candidate)}, after the assignment’s effective date ${effectiveDate}: not a fact as of that date.`,
          citations: candidate.citations,
        });
      }
    }
  }
  return found;
}
