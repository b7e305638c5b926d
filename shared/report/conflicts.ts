// Where sources disagree. Every source's value for a field is a candidate; equal values agree (one
// value, every citation), different ones are alternatives shown beside the chosen one. Plat chooses
// by one rule, said in words on the value: a published value before one derived from a record,
// either before a synthetic one (which describes another building), and the subject's own report
// before the summary. An appraiser's choice replaces Plat's and keeps its reason.
import type { AlternativeValue, CitedValue, ValueStatus } from '../cited/value.ts';
import { publisherName, type CitationFields } from '../cited/citation.ts';

export type CandidateStatus = Exclude<ValueStatus, 'unavailable'>;

/** One source's value for a field, before the document numbers its citations. */
export interface Candidate {
  /** Identifies the candidate within its field (the appraiser's choice names it): its record, or its source and value. */
  key: string;
  raw: string | number | boolean | null;
  display: string;
  status: CandidateStatus;
  citations: CitationFields[];
  derivedFrom: string | null;
  /** A caveat in the source's words (a synthetic value's note, an approximate location). */
  note: string | null;
  /** The subject's own report first, then the summary's best value, then its alternatives, then other evidence. */
  rank: number;
}

export interface AppraiserChoice {
  alternativeKey: string;
  reason: string;
  at: string | null;
}

/** The chosen candidate, the others, and why (null when the sources agree). */
export interface Resolution {
  chosen: Candidate;
  alternatives: Candidate[];
  choice: CitedValue['choice'];
  /** A choice the appraiser made that the sources no longer offer, said plainly. */
  staleChoice: string | null;
}

const STATUS_ORDER: Record<CandidateStatus, number> = { reported: 0, derived: 1, synthetic: 2 };

/** What makes two values the same: numbers by value, text ignoring case and spacing. */
export function sameValue(a: Candidate['raw'], b: Candidate['raw']): boolean {
  const norm = (v: Candidate['raw']) => {
    if (typeof v === 'string') {
      const text = v.trim().replace(/\s+/g, ' ').toUpperCase();
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    }
    return v;
  };
  return norm(a) === norm(b);
}

/**
 * Candidates with the same value become one (sources that agree): equal statuses pool their
 * citations; a weaker status agreeing with a stronger one adds nothing (a synthetic or derived copy
 * of a published value is not an alternative, and its citation must not stand under the published one).
 */
export function mergeAgreeing(candidates: readonly Candidate[]): Candidate[] {
  const merged: Candidate[] = [];
  for (const candidate of [...candidates].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.rank - b.rank)) {
    const same = merged.find((m) => sameValue(m.raw, candidate.raw));
    if (!same) {
      merged.push({ ...candidate, citations: [...candidate.citations] });
      continue;
    }
    if (same.status !== candidate.status) continue;
    same.citations.push(...candidate.citations);
    same.rank = Math.min(same.rank, candidate.rank);
    same.derivedFrom ??= candidate.derivedFrom;
    same.note ??= candidate.note;
  }
  return merged;
}

const statusWord: Record<CandidateStatus, string> = {
  reported: 'published',
  derived: 'derived',
  synthetic: 'synthetic',
};

const sourceName = (candidate: Candidate): string => publisherName(candidate.citations[0]?.publisher ?? null);

/** Plat's reason, in words, for preferring `chosen` over the others. */
export function platReason(chosen: Candidate, others: readonly Candidate[]): string {
  const worse = others.filter((other) => STATUS_ORDER[other.status] > STATUS_ORDER[chosen.status]);
  const equal = others.filter((other) => STATUS_ORDER[other.status] === STATUS_ORDER[chosen.status]);
  const parts: string[] = [];
  if (worse.some((other) => other.status === 'synthetic')) {
    parts.push(`A ${statusWord[chosen.status]} value (${sourceName(chosen)}) is preferred over a synthetic one, which the sample copied from another building.`);
  } else if (worse.length > 0) {
    parts.push(`The value as published (${sourceName(chosen)}) is preferred over a form derived from it.`);
  }
  if (equal.length > 0) {
    parts.push(
      chosen.rank === 0
        ? `The sources disagree; the subject's own report (${sourceName(chosen)}) is preferred.`
        : `The sources disagree; ${sourceName(chosen)}'s value is preferred as the summary's best value.`,
    );
  }
  return parts.join(' ');
}

/** Orders by Plat's rule and applies the appraiser's choice, if any. */
export function resolveCandidates(candidates: readonly Candidate[], appraiser: AppraiserChoice | null): Resolution {
  const ordered = mergeAgreeing(candidates).sort(
    (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.rank - b.rank,
  );
  const [first, ...rest] = ordered;
  if (!first) throw new Error('resolveCandidates needs at least one candidate');
  if (appraiser) {
    const picked = ordered.find((candidate) => candidate.key === appraiser.alternativeKey);
    if (picked) {
      return {
        chosen: picked,
        alternatives: ordered.filter((candidate) => candidate !== picked),
        choice: { by: 'appraiser', reason: appraiser.reason, alternativeKey: picked.key, at: appraiser.at },
        staleChoice: null,
      };
    }
  }
  const stale = appraiser
    ? `The appraiser chose a value the sources no longer give (${appraiser.alternativeKey}: "${appraiser.reason}"); Plat's choice stands until another is made.`
    : null;
  return {
    chosen: first,
    alternatives: rest,
    choice: rest.length > 0 ? { by: 'plat', reason: platReason(first, rest), alternativeKey: null, at: null } : null,
    staleChoice: stale,
  };
}

/** An alternative as the document shows it, its citations numbered by the caller. */
export function alternativeOf(candidate: Candidate, citationIds: string[]): AlternativeValue {
  // A synthetic value's note already says what it was copied from.
  const from = candidate.derivedFrom && !(candidate.status === 'synthetic' && candidate.note) ? `Derived from ${candidate.derivedFrom}.` : null;
  const note = [from, candidate.note].filter((n): n is string => n !== null);
  return { key: candidate.key, display: candidate.display, status: candidate.status, citationIds, note: note.length > 0 ? note.join(' ') : null };
}

// ---------------------------------------------------------------------------------------------
// A synthetic (or any) year built that a real permit contradicts

/** A permit as evidence about the building. */
export interface PermitEvidence {
  recordNumber: string;
  recordType: string | null;
  description: string | null;
  /** YYYY-MM-DD. */
  date: string | null;
  citations: CitationFields[];
}

// New construction of the building itself (the permits dataset holds only "NEW BUILDING" permits,
// but some of those are additions to an existing house, which say so).
const NEW_CONSTRUCTION = /\bNEW\b[^.]*\bCONSTRUCTION\b|\bCONSTRUCTION\b[^.]*\bNEW\b|\bVACANT LOT\b|\bNEW (SFD|SINGLE[ -]FAMILY|DWELLING|ROW ?HOUSE|HOUSE|HOME|BUILDING)\b/i;
const NOT_THE_BUILDING = /\b(EXISTING|ADDITION|ALTERATION|RENOVATION|REPAIR|REAR|ACCESSORY|GARAGE|CARRIAGE)\b/i;

export function isNewConstruction(permit: Pick<PermitEvidence, 'description' | 'recordType'>): boolean {
  const text = permit.description ?? '';
  return NEW_CONSTRUCTION.test(text) && !NOT_THE_BUILDING.test(text);
}

/**
 * The candidate a new-construction permit gives for the year built, when it contradicts `yearBuilt`
 * (a building permitted as new in 2013 cannot date from 1890); null when no permit does.
 */
export function yearBuiltFromPermits(permits: readonly PermitEvidence[], yearBuilt: number, rank: number): Candidate | null {
  const contradicting = permits
    .filter((permit) => permit.date !== null && isNewConstruction(permit) && Number(permit.date.slice(0, 4)) > yearBuilt)
    .sort((a, b) => (a.date! < b.date! ? -1 : 1));
  const permit = contradicting[0];
  if (!permit || permit.date === null) return null;
  const year = Number(permit.date.slice(0, 4));
  const what = [permit.recordType, permit.description ? `"${permit.description}"` : null].filter(Boolean).join(' ');
  return {
    key: `permit:${permit.recordNumber}`,
    raw: year,
    display: `${year} or later`,
    status: 'derived',
    citations: permit.citations,
    derivedFrom: `permit ${permit.recordNumber} issued ${permit.date}${what ? ` (${what})` : ''}`,
    note: `A permit for new construction was issued in ${year}: the building standing now cannot be older than that.`,
    rank,
  };
}
