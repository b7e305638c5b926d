// Pure logic of the Resolve tab (v2 resolutions): one pasted line per thing to resolve, the scheme
// each line looks like (editable), a per-line check that says why a line cannot be sent, and the
// wire request for the lines that can.
import { resolutionClientId, type V2Candidate, type V2IdentifierScheme, type V2ResolutionItemInput, type V2ResolutionResult } from '../../../shared/service/index.ts';
import {
  candidateTotal,
  detectScheme,
  identifierSchemes,
  reasonOf,
  resolutionItemFor,
  schemeProblem,
} from '../../components/identifier-resolution.ts';
import type { ResolveRun } from './search-store.ts';

// The scheme rules are shared with the find box (renderer/components/identifier-resolution.ts).
export {
  candidateTotal,
  detectScheme,
  identifierSchemes,
  identityText,
  isSsl,
  reasonOf,
  schemeLabel,
  schemeProblem,
} from '../../components/identifier-resolution.ts';

export const MAX_RESOLVE_LINES = 100;

export interface ResolveLine {
  /** 1-based line number in the pasted text (blank lines count, so numbers match the editor). */
  lineNumber: number;
  /** Echoed by the service: `L<lineNumber>`. */
  clientId: string;
  value: string;
  scheme: V2IdentifierScheme;
  /** True when the scheme was chosen by hand, not detected. */
  schemeChosen: boolean;
  /** Why this line will not be sent (it gets outcome invalid_input), or null. */
  problem: string | null;
}

export const isIdentifierScheme = (value: string): value is V2IdentifierScheme => (identifierSchemes as readonly string[]).includes(value);

/** Non-blank lines with their scheme (a hand-picked one, keyed by the line's text, wins) and problem. */
export function parseResolveLines(text: string, chosenSchemes: Readonly<Record<string, V2IdentifierScheme>> = {}): ResolveLine[] {
  const lines: ResolveLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const value = raw.trim();
    if (value === '') return;
    const chosen = chosenSchemes[value];
    const scheme = chosen ?? detectScheme(value);
    lines.push({
      lineNumber: index + 1,
      clientId: `L${index + 1}`,
      value,
      scheme,
      schemeChosen: chosen !== undefined,
      problem: lines.length >= MAX_RESOLVE_LINES ? `Only ${MAX_RESOLVE_LINES} lines are resolved at a time.` : schemeProblem(scheme, value),
    });
  });
  return lines;
}

/** A line as a resolution item (or the reason it cannot be one). */
export function resolutionItemOf(line: ResolveLine, areaUid: string): V2ResolutionItemInput | string {
  return resolutionItemFor(line.scheme, line.value, line.clientId, areaUid);
}

export interface ResolveBatch {
  /** The wire body, or null when no line can be sent. */
  body: { items: V2ResolutionItemInput[]; candidate_limit: number } | null;
  /** Lines that will not be sent, with the reason (shown as outcome invalid_input). */
  refused: Array<{ line: ResolveLine; reason: string }>;
  sent: ResolveLine[];
}

export function buildResolveBatch(lines: readonly ResolveLine[], areaUid: string, candidateLimit = 10): ResolveBatch {
  const items: V2ResolutionItemInput[] = [];
  const refused: ResolveBatch['refused'] = [];
  const sent: ResolveLine[] = [];
  for (const line of lines) {
    if (line.problem) {
      refused.push({ line, reason: line.problem });
      continue;
    }
    const item = resolutionItemOf(line, areaUid);
    if (typeof item === 'string') refused.push({ line, reason: item });
    else {
      items.push(item);
      sent.push(line);
    }
  }
  return { body: items.length > 0 ? { items, candidate_limit: candidateLimit } : null, refused, sent };
}

/** One row of the results: a candidate of a line, or a line with none. */
export interface OutcomeRow {
  key: string;
  lineNumber: number;
  value: string;
  scheme: V2IdentifierScheme;
  outcome: string;
  reason: string | null;
  candidate: V2Candidate | null;
  candidateIndex: number;
  /** How many candidates the service has for the line (its `total_candidates`), not how many came back. */
  candidateCount: number;
}

/**
 * Whether a run's results still answer the lines on screen: the same lines (number, text, scheme)
 * in the same area. Otherwise they are the earlier text's, and the screen must say so.
 */
export function runMatchesLines(run: ResolveRun, lines: readonly ResolveLine[], areaUid: string): boolean {
  if (run.areaUid !== areaUid || run.lines.length !== lines.length) return false;
  return run.lines.every((sent, index) => {
    const line = lines[index];
    return line !== undefined && line.lineNumber === sent.lineNumber && line.value === sent.value && line.scheme === sent.scheme;
  });
}

/** The cursor for an item's further candidates, or null when it has no more. */
export function nextCandidateCursor(result: V2ResolutionResult): string | null {
  const cursor = result.next_candidate_cursor;
  return typeof cursor === 'string' && cursor !== '' ? cursor : null;
}

/** Candidates asked for per further page: the most the service gives (the price is per item, not per candidate). */
export const MORE_CANDIDATES_LIMIT = 50;

/** The request for one line's further candidates: that line's item alone, with its cursor. */
export function moreCandidatesBody(
  run: ResolveRun,
  clientId: string,
  cursor: string,
): { items: unknown[]; candidate_limit: number; candidate_cursors: Record<string, string> } | null {
  const item = run.body.items.find((entry) => resolutionClientId(entry) === clientId);
  if (item === undefined) return null;
  return { items: [item], candidate_limit: MORE_CANDIDATES_LIMIT, candidate_cursors: { [clientId]: cursor } };
}

/** Further pages of candidates bought for a line, by client_id, in order. */
export type MoreCandidates = Readonly<Record<string, readonly V2ResolutionResult[]>>;

/** A line whose service answer has more candidates than are shown, and how to ask for them. */
export interface LineWithMore {
  clientId: string;
  lineNumber: number;
  value: string;
  shown: number;
  total: number;
  cursor: string;
}

/** Lines with candidates still to fetch: the cursor is the last page's (the first answer's, or the last further page). */
export function linesWithMore(run: ResolveRun, results: readonly V2ResolutionResult[] | undefined, more: MoreCandidates = {}): LineWithMore[] {
  const out: LineWithMore[] = [];
  for (const line of run.lines) {
    const first = results?.find((item) => item.client_id === line.clientId);
    if (!first) continue;
    const pages = [first, ...(more[line.clientId] ?? [])];
    const last = pages.at(-1) ?? first;
    const cursor = nextCandidateCursor(last);
    if (cursor === null) continue;
    const shown = pages.reduce((sum, page) => sum + page.candidates.length, 0);
    out.push({ clientId: line.clientId, lineNumber: line.lineNumber, value: line.value, shown, total: candidateTotal(first), cursor });
  }
  return out;
}

/**
 * Every line of a run with its outcome: lines Plat did not send are `invalid_input` with the reason;
 * the others take the service's answer for their client_id, one row per candidate (those of further
 * pages bought for the line after its first ones).
 */
export function outcomeRowsOf(run: ResolveRun, results: readonly V2ResolutionResult[] | undefined, more: MoreCandidates = {}): OutcomeRow[] {
  const rows: OutcomeRow[] = [];
  for (const line of run.lines) {
    const base = { lineNumber: line.lineNumber, value: line.value, scheme: line.scheme, candidateIndex: 0 };
    if (line.refusedReason) {
      rows.push({ ...base, key: line.clientId, outcome: 'invalid_input', reason: line.refusedReason, candidate: null, candidateCount: 0 });
      continue;
    }
    const result = results?.find((item) => item.client_id === line.clientId);
    if (!result) {
      rows.push({
        ...base,
        key: line.clientId,
        outcome: results ? 'no_answer' : 'pending',
        reason: results ? 'The service did not answer for this line.' : null,
        candidate: null,
        candidateCount: 0,
      });
      continue;
    }
    if (result.candidates.length === 0) {
      rows.push({ ...base, key: line.clientId, outcome: result.outcome, reason: reasonOf(result), candidate: null, candidateCount: 0 });
      continue;
    }
    const candidates = [...result.candidates, ...(more[line.clientId] ?? []).flatMap((page) => page.candidates)];
    const candidateCount = Math.max(candidateTotal(result), candidates.length);
    candidates.forEach((candidate, index) =>
      rows.push({
        ...base,
        key: `${line.clientId}:${index}`,
        outcome: result.outcome,
        reason: index === 0 ? reasonOf(result) : null,
        candidate,
        candidateIndex: index,
        candidateCount,
      }),
    );
  }
  return rows;
}
