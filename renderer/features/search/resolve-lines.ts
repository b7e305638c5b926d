// Pure logic of the Resolve tab (v2 resolutions): one pasted line per thing to resolve, the scheme
// each line looks like (editable), a per-line check that says why a line cannot be sent, and the
// wire request for the lines that can.
import {
  V2ResolutionItemSchema,
  resolutionClientId,
  v2IdentifierSchemes,
  type V2Candidate,
  type V2IdentifierScheme,
  type V2ResolutionItemInput,
  type V2ResolutionResult,
} from '../../../shared/service/index.ts';
import type { ResolveRun } from './search-store.ts';

export const MAX_RESOLVE_LINES = 100;

export const schemeLabel: Record<V2IdentifierScheme, string> = {
  address: 'Address',
  ssl: 'SSL (DC)',
  account_no: 'Account no. (Alexandria)',
  mar_id: 'MAR id (DC)',
  entity_ref: 'Entity id',
};

export const identifierSchemes: readonly V2IdentifierScheme[] = v2IdentifierSchemes;

// DC SSLs as people write them: "0150    0295", "0150 0295", "0150-0295", "0150N 0012", "5181N0069",
// the scraper's "BD00150N0295" form, and the "PAR 01500295" / "RES 01500295" / "PI…" parcel forms.
const SSL_FORMS = [
  /^BD0{0,2}\d{4}[A-Z]{0,2}\d{4}$/i,
  /^\d{1,4}[A-Z]{0,4}(?:\s+|\s*-\s*)\d{1,4}$/i,
  /^\d{4}[A-Z]{1,4}\d{4}$/i,
  /^(?:PAR|RES)\s*\d{8}$/i,
  /^PI\d{10}$/i,
];
const ENTITY_REF = /^[a-z]{2,8}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ACCOUNT_NO = /^\d{8}$/;
const MAR_ID = /^\d{1,7}$/;

export const isSsl = (value: string): boolean => SSL_FORMS.some((form) => form.test(value.trim()));

/** The scheme a line most likely is: an entity id, an SSL, an 8-digit account, a shorter MAR id, or an address. */
export function detectScheme(value: string): V2IdentifierScheme {
  const line = value.trim();
  if (ENTITY_REF.test(line)) return 'entity_ref';
  if (isSsl(line)) return 'ssl';
  if (ACCOUNT_NO.test(line)) return 'account_no';
  if (MAR_ID.test(line)) return 'mar_id';
  return 'address';
}

/** Why a value cannot be sent under a scheme, or null when it can. */
export function schemeProblem(scheme: V2IdentifierScheme, value: string): string | null {
  const line = value.trim();
  if (line.length > 512) return 'Longer than 512 characters.';
  switch (scheme) {
    case 'ssl':
      return isSsl(line) ? null : 'Not an SSL: expected a square and a lot, e.g. 0150 0295.';
    case 'account_no':
      return /^\d{1,12}$/.test(line) ? null : 'Not an account number: digits only, e.g. 13195000.';
    case 'mar_id':
      return /^\d{1,10}$/.test(line) ? null : 'Not a MAR id: digits only, e.g. 309673.';
    case 'entity_ref':
      return ENTITY_REF.test(line) ? null : 'Not an entity id: a prefix and a uuid, e.g. prop_0b0c…';
    case 'address':
      if (!/[A-Za-z]/.test(line)) return 'Not an address: it has no street name.';
      if (!/\d/.test(line)) return 'Not an address: it has no house number.';
      return null;
  }
}

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

/** A line as a resolution item; the shared schema has the last word (a line it refuses gets its reason). */
export function resolutionItemOf(line: ResolveLine, areaUid: string): V2ResolutionItemInput | string {
  const item: V2ResolutionItemInput = {
    client_id: line.clientId,
    subject_kind: line.scheme === 'address' ? 'address' : 'identifier',
    identifiers: [{ scheme: line.scheme, value: line.value }],
    include_retired_identifiers: false,
  };
  if (areaUid !== '') item.area_uid = areaUid;
  const checked = V2ResolutionItemSchema.safeParse(item);
  if (!checked.success) return checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  return item;
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

/** Short text for a candidate's identity (`canonical_identity` has no published shape). */
export function identityText(identity: unknown): string {
  if (!identity || typeof identity !== 'object') return '';
  const record = identity as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ['address', 'full_address', 'premise', 'ssl', 'account_no', 'mar_id', 'unit', 'unit_designator', 'owner_name']) {
    const value = record[key];
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') parts.push(String(value).trim());
  }
  if (parts.length === 0) {
    for (const value of Object.values(record)) {
      if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') parts.push(String(value).trim());
      if (parts.length >= 3) break;
    }
  }
  return [...new Set(parts)].join(' · ');
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

/** How many candidates the service has for an item: its `total_candidates`, else as many as came back. */
export function candidateTotal(result: V2ResolutionResult): number {
  const total = result.total_candidates;
  return typeof total === 'number' && Number.isSafeInteger(total) && total >= result.candidates.length ? total : result.candidates.length;
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

/** The reason a service gave for an item's outcome, wherever it put it. */
export function reasonOf(result: V2ResolutionResult): string | null {
  for (const key of ['reason', 'message', 'detail']) {
    const value = result[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  const error = result.error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return null;
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
