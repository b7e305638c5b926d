// What the Comparables view does to the workfile, as pure functions: choosing, dropping and ordering
// comps (one selection, whoever asks: the map, the candidate list or the grid), rates and where they
// came from, lump sums, weights, reasons for the sales not used, the reconciliation, and the searches
// run. Each takes a workfile and returns a new one, so the store can save whatever it holds and a
// test can check any step without a screen.
import {
  ComparablesWorkfileSchema,
  type AdjustmentRates,
  type CandidateFlag,
  type CompSearchCriteria,
  type CompSearchRun,
  type ComparableWeight,
  type ComparablesWorkfile,
  type GridRowKey,
  type ManualRowKey,
  type NotUsedReason,
  type RateKey,
  type RateSuggestion,
} from '../../../shared/comparables/model.ts';
import { roundRate } from '../../../shared/comparables/rate-text.ts';
import { formatCount } from '../../../shared/format/number.ts';
import { isRecord } from '../../../shared/json-data.ts';
import { formatDay } from '../../../shared/format-date.ts';
import { suggestionMayBeUsed } from '../../../shared/comparables/regression-standing.ts';

/** The URAR grid holds at most this many comps (the workfile's limit). */
export const MAX_COMPS = 20;
/** Searches kept in the workfile; the oldest go first. */
export const MAX_SEARCHES = 50;
/** Pages one search may gather (the run's limit). */
export const MAX_PAGES = 5;

export interface SelectionChange {
  workfile: ComparablesWorkfile;
  /** Why nothing changed, for a person; null when the change was made. */
  problem: string | null;
}

// ---------------------------------------------------------------------------------------------
// Selection

export const isChosen = (workfile: ComparablesWorkfile, id: string): boolean => workfile.chosen.includes(id);

/** The comp's number in the grid (1 = first column), or null when it is not chosen. */
export function compNumber(workfile: ComparablesWorkfile, id: string): number | null {
  const index = workfile.chosen.indexOf(id);
  return index === -1 ? null : index + 1;
}

/** Adds a comp as the last column (already chosen: unchanged). */
export function chooseComp(workfile: ComparablesWorkfile, id: string): SelectionChange {
  if (isChosen(workfile, id)) return { workfile, problem: null };
  if (workfile.chosen.length >= MAX_COMPS) {
    return { workfile, problem: `The grid holds at most ${MAX_COMPS} comps: drop one before choosing another.` };
  }
  return { workfile: { ...workfile, chosen: [...workfile.chosen, id] }, problem: null };
}

/** The appraiser's reason for taking in a sale Plat screened out: required, trimmed, at most 2,000 characters. */
export function checkTakeInReason(text: string): { ok: true; value: string } | { ok: false; error: string } {
  const reason = text.trim();
  if (reason === '') return { ok: false, error: 'Write why you take this sale in: it is printed in the report beside the sale.' };
  if (reason.length > 2_000) return { ok: false, error: `At most 2,000 characters (now ${reason.length}).` };
  return { ok: true, value: reason };
}

/**
 * Takes in a sale Plat screened out, with the appraiser's written reason (kept as `takenIn`, printed
 * in the report), and chooses it as the last column.
 */
export function takeInSale(workfile: ComparablesWorkfile, id: string, reason: string, at: string): SelectionChange {
  const checked = checkTakeInReason(reason);
  if (!checked.ok) return { workfile, problem: checked.error };
  const chosen = chooseComp({ ...workfile, takenIn: { ...(workfile.takenIn ?? {}), [id]: { reason: checked.value, at } } }, id);
  return chosen.problem === null ? chosen : { workfile, problem: chosen.problem };
}

/**
 * Takes a comp out of the grid. Its lump sums, weight and any reason typed for it stay in the
 * workfile: choosing it again brings them back, and nothing the appraiser typed is lost.
 */
export function dropComp(workfile: ComparablesWorkfile, id: string): ComparablesWorkfile {
  if (!isChosen(workfile, id)) return workfile;
  return { ...workfile, chosen: workfile.chosen.filter((chosen) => chosen !== id) };
}

/** Choose when not chosen, drop when chosen: what a click on a point, a row or a column does. */
export function toggleComp(workfile: ComparablesWorkfile, id: string): SelectionChange {
  return isChosen(workfile, id) ? { workfile: dropComp(workfile, id), problem: null } : chooseComp(workfile, id);
}

/** Moves a comp `offset` columns left (negative) or right, within the grid. */
export function moveComp(workfile: ComparablesWorkfile, id: string, offset: number): ComparablesWorkfile {
  const from = workfile.chosen.indexOf(id);
  if (from === -1) return workfile;
  const to = Math.max(0, Math.min(workfile.chosen.length - 1, from + offset));
  if (to === from) return workfile;
  const chosen = [...workfile.chosen];
  chosen.splice(from, 1);
  chosen.splice(to, 0, id);
  return { ...workfile, chosen };
}

// ---------------------------------------------------------------------------------------------
// Rates, lump sums, weights, reasons, reconciliation

export function setRate(workfile: ComparablesWorkfile, key: RateKey, value: number | null, source: 'appraiser' | 'suggestion'): ComparablesWorkfile {
  const rates: AdjustmentRates = { ...workfile.rates, [key]: value };
  const rateSource = { ...workfile.rateSource };
  if (value === null) delete rateSource[key];
  else rateSource[key] = source;
  const next = { ...workfile, rates, rateSource };
  // A reason for using an unsupported suggestion goes with that suggestion: a rate of the appraiser's own needs none.
  if (source === 'suggestion' && value !== null) return next;
  return withoutUnsupportedReason(next, key);
}

function withoutUnsupportedReason(workfile: ComparablesWorkfile, key: RateKey): ComparablesWorkfile {
  if (workfile.unsupportedRateReasons?.[key] === undefined) return workfile;
  const reasons = { ...workfile.unsupportedRateReasons };
  delete reasons[key];
  if (Object.keys(reasons).length > 0) return { ...workfile, unsupportedRateReasons: reasons };
  const { unsupportedRateReasons: _none, ...rest } = workfile;
  return rest;
}


/**
 * Accepts the regression's suggestion for its rate (rounded as the appraiser would type it). A
 * suggestion shown as not supported is not taken without the appraiser's written reason
 * (`takeUnsupportedSuggestion`): the workfile comes back unchanged.
 */
export function acceptSuggestion(workfile: ComparablesWorkfile, suggestion: RateSuggestion): ComparablesWorkfile {
  if (suggestion.value === null || !suggestionMayBeUsed(suggestion, workfile)) return workfile;
  return setRate(workfile, suggestion.rate, roundRate(suggestion.rate, suggestion.value), 'suggestion');
}

/** Uses a suggestion shown as not supported, with the appraiser's reason (printed next to the rate); a blank reason changes nothing. */
export function takeUnsupportedSuggestion(workfile: ComparablesWorkfile, suggestion: RateSuggestion, reason: string, at: string): ComparablesWorkfile {
  const text = reason.trim();
  if (suggestion.value === null || text === '') return workfile;
  const withReason = { ...workfile, unsupportedRateReasons: { ...workfile.unsupportedRateReasons, [suggestion.rate]: { reason: text, at } } };
  return setRate(withReason, suggestion.rate, roundRate(suggestion.rate, suggestion.value), 'suggestion');
}

export function setManualAdjustment(workfile: ComparablesWorkfile, compId: string, row: ManualRowKey, dollars: number | null): ComparablesWorkfile {
  const current = { ...(workfile.manual[compId] ?? {}) };
  if (dollars === null) delete current[row];
  else current[row] = dollars;
  const manual = { ...workfile.manual };
  if (Object.keys(current).length === 0) delete manual[compId];
  else manual[compId] = current;
  return { ...workfile, manual };
}

export function setWeight(workfile: ComparablesWorkfile, compId: string, weight: ComparableWeight): ComparablesWorkfile {
  return { ...workfile, weights: { ...workfile.weights, [compId]: weight } };
}

/** The appraiser's reason a candidate was not used (overrides Plat's screening reason). */
export function setNotUsedReason(workfile: ComparablesWorkfile, id: string, reason: NotUsedReason, note: string): ComparablesWorkfile {
  return { ...workfile, notUsed: { ...workfile.notUsed, [id]: { reason, note: note.slice(0, 2_000) } } };
}

/** Back to Plat's own screening reason. */
export function clearNotUsedReason(workfile: ComparablesWorkfile, id: string): ComparablesWorkfile {
  if (!(id in workfile.notUsed)) return workfile;
  const notUsed = { ...workfile.notUsed };
  delete notUsed[id];
  return { ...workfile, notUsed };
}

/**
 * The appraiser accepts the copied (synthetic) values of a row to drive its adjustments, for one
 * property (a comp, or the subject) or for the whole grid (compId null), with a written reason:
 * an earlier acceptance of the same row and scope is replaced.
 */
export function acceptCopiedValues(workfile: ComparablesWorkfile, act: { row: GridRowKey; compId: string | null; reason: string; at: string }): ComparablesWorkfile {
  const others = (workfile.syntheticAccepted ?? []).filter((old) => !(old.row === act.row && old.compId === act.compId));
  return { ...workfile, syntheticAccepted: [...others, { ...act, reason: act.reason.trim().slice(0, 2_000) }] };
}

/** The reason for accepting copied values, checked: required, at most 2,000 characters. */
export function checkAcceptReason(text: string): { ok: true; value: string } | { ok: false; error: string } {
  const reason = text.trim();
  if (reason === '') return { ok: false, error: 'Say why the copied values can be relied on (a listing, an inspection): the reason is printed in the report.' };
  if (reason.length > 2_000) return { ok: false, error: `Keep the reason under 2,000 characters (it has ${formatCount(reason.length)}).` };
  return { ok: true, value: reason };
}

/** Withdraws an acceptance: the row's copied values for that scope drive nothing again. */
export function withdrawCopiedValues(workfile: ComparablesWorkfile, row: GridRowKey, compId: string | null): ComparablesWorkfile {
  return { ...workfile, syntheticAccepted: (workfile.syntheticAccepted ?? []).filter((old) => !(old.row === row && old.compId === compId)) };
}

export function setReconciliation(workfile: ComparablesWorkfile, patch: Partial<ComparablesWorkfile['reconciliation']>): ComparablesWorkfile {
  return { ...workfile, reconciliation: { ...workfile.reconciliation, ...patch } };
}

export function setCriteria(workfile: ComparablesWorkfile, criteria: CompSearchCriteria): ComparablesWorkfile {
  return { ...workfile, criteria };
}

// ---------------------------------------------------------------------------------------------
// Searches

/** Adds a search as run (the current one from now on), keeping the last MAX_SEARCHES. */
export function recordSearch(workfile: ComparablesWorkfile, run: CompSearchRun): ComparablesWorkfile {
  return { ...workfile, criteria: run.criteria, searches: [...workfile.searches, run].slice(-MAX_SEARCHES) };
}

type PageBought = { total: number | null; returned: number };

/** A run with one more page bought (its body and the counts the page brought); null past MAX_PAGES. */
function withPage(run: CompSearchRun, body: Record<string, unknown>, page: PageBought): CompSearchRun | null {
  if (run.pages.length >= MAX_PAGES) return null;
  return { ...run, pages: [...run.pages, body], total: page.total ?? run.total, returned: run.returned + page.returned };
}

/** The current search with one more page bought. */
export function addPageToCurrentSearch(workfile: ComparablesWorkfile, body: Record<string, unknown>, page: PageBought): ComparablesWorkfile {
  const current = workfile.searches.at(-1);
  const run = current ? withPage(current, body, page) : null;
  return run ? { ...workfile, searches: [...workfile.searches.slice(0, -1), run] } : workfile;
}

/** The market-sales search with one more page bought. */
export function addPageToMarketSearch(workfile: ComparablesWorkfile, body: Record<string, unknown>, page: PageBought): ComparablesWorkfile {
  const run = workfile.marketSearch ? withPage(workfile.marketSearch, body, page) : null;
  return run ? { ...workfile, marketSearch: run } : workfile;
}

/** What an answer says of itself: how many match (all pages), how many came, and the data's as-of. */
export function answerFacts(envelope: unknown): { total: number | null; returned: number; dataAsOf: string | null; nextCursor: string | null } {
  const data = isRecord(envelope) && isRecord(envelope.data) ? envelope.data : {};
  const meta = isRecord(envelope) && isRecord(envelope.meta) ? envelope.meta : {};
  const items = Array.isArray(data.items) ? data.items : [];
  const total = typeof data.total === 'number' && Number.isInteger(data.total) && data.total >= 0 ? data.total : null;
  const cursor = typeof meta.next_cursor === 'string' ? meta.next_cursor : typeof data.next_cursor === 'string' ? data.next_cursor : null;
  return { total, returned: items.length, dataAsOf: dataAsOfOf(data), nextCursor: cursor };
}

/**
 * The data's as-of as the service states it: its snapshot name (what the candidates' reader reports
 * too), else the newest as-of of the public sources it drew on (the synthetic sample's is not the
 * records' date).
 */
function dataAsOfOf(data: Record<string, unknown>): string | null {
  if (typeof data.snapshot === 'string' && data.snapshot.trim() !== '') return data.snapshot.trim();
  const sources = Array.isArray(data.sources) ? data.sources.filter(isRecord) : [];
  const days = sources
    .filter((source) => source.synthetic !== true && typeof source.as_of === 'string')
    .map((source) => formatDay(source.as_of as string))
    .sort();
  return days.at(-1) ?? null;
}

export function newRunId(now: number = Date.now()): string {
  const random = typeof crypto.randomUUID === 'function' ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `run-${now.toString(36)}-${random}`;
}

/** A search as it was run, to keep in the workfile. */
export function searchRunOf(input: {
  criteria: CompSearchCriteria;
  effectiveDate: string;
  radiusMiles: number;
  body: Record<string, unknown>;
  envelope: unknown;
  ranAt: string;
  id?: string;
}): CompSearchRun {
  const facts = answerFacts(input.envelope);
  return {
    id: input.id ?? newRunId(),
    criteria: input.criteria,
    effectiveDate: input.effectiveDate,
    radiusMiles: input.radiusMiles,
    pages: [input.body],
    ranAt: input.ranAt,
    dataAsOf: facts.dataAsOf,
    total: facts.total ?? facts.returned,
    returned: facts.returned,
  };
}

/** The body of the page after the current search's last one: the first page's body with the cursor. */
export function nextPageBody(run: CompSearchRun, cursor: string): Record<string, unknown> {
  return { ...run.pages[0], cursor };
}

// ---------------------------------------------------------------------------------------------
// Persistence

/**
 * The workfile as the core is sent it: checked against the same schema the core checks, so a
 * problem is found here with its path rather than as a refused save.
 */
export function workfileForSave(workfile: ComparablesWorkfile): ComparablesWorkfile {
  return ComparablesWorkfileSchema.parse(workfile);
}


// ---------------------------------------------------------------------------------------------
// What the appraiser types

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Typed signs and separators people use: "−5,000", "$ -5000", "+12,500", "(5,000)" is not accepted. */
function numberText(text: string): string {
  return text.trim().replace(/[\u2212\u2013]/g, '-').replace(/[$,\s]/g, '');
}

/** A rate: '' → null (no adjustment for the feature); otherwise a number in the rate's range. */
export function parseRateText(key: RateKey, text: string): Parsed<number | null> {
  const cleaned = numberText(text).replace(/%$/, '');
  if (cleaned === '') return { ok: true, value: null };
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) {
    return { ok: false, error: key === 'timePctPerMonth' ? 'Enter a percent per month such as 0.5, or leave it empty.' : 'Enter a dollar amount such as 150, or leave it empty.' };
  }
  const value = Number(cleaned);
  if (Math.abs(value) > 1e7) return { ok: false, error: 'That rate is too large: at most 10,000,000.' };
  if (key === 'timePctPerMonth' && Math.abs(value) > 100) return { ok: false, error: 'A time adjustment is a percent per month: at most 100.' };
  return { ok: true, value };
}

/** A lump-sum adjustment in whole dollars: '' → none; negative when the comp is superior. */
export function parseDollarText(text: string): Parsed<number | null> {
  const cleaned = numberText(text);
  if (cleaned === '') return { ok: true, value: null };
  if (!/^[-+]?\d+(\.\d+)?$/.test(cleaned)) return { ok: false, error: 'Enter whole dollars such as 5000 or -5000.' };
  const value = Math.round(Number(cleaned));
  if (Math.abs(value) > 1e8) return { ok: false, error: 'At most $100,000,000 either way.' };
  return { ok: true, value };
}

/** The indicated value: '' → none yet; whole dollars, not negative. */
export function parseValueText(text: string): Parsed<number | null> {
  const parsed = parseDollarText(text);
  if (!parsed.ok) return { ok: false, error: 'Enter the indicated value in whole dollars, such as 1250000.' };
  if (parsed.value !== null && parsed.value < 0) return { ok: false, error: 'The indicated value cannot be negative.' };
  if (parsed.value !== null && parsed.value > 1e10) return { ok: false, error: 'That value is too large.' };
  return parsed;
}

/** A criteria number as typed: null while it is not a number (the field says so; nothing is stored). */
export function parseCriteriaNumber(text: string): number | null {
  const cleaned = numberText(text);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

// ---------------------------------------------------------------------------------------------
// How things read


/** The text a rate's field starts with (what the appraiser would type). */
export function rateInputText(value: number | null): string {
  return value === null ? '' : String(value);
}

/** Short words for a candidate's flags in the list (the full label is the badge's title). */
export const flagShortLabels: Record<CandidateFlag, string> = {
  duplicate_record: 'Duplicate',
  multi_parcel: 'Multi-parcel',
  non_market: 'Not arm’s length',
  no_price: 'No price',
  market_unknown: 'Market?',
  undated: 'No date',
  outside_window: 'Outside dates',
  outside_area_band: 'Size band',
  outside_market_area: 'Outside area',
  other_use_code: 'Other type',
  approximate_location: 'Approx. location',
  synthetic_characteristics: 'Synthetic',
  size_not_compared: 'Size not compared',
  no_living_area: 'No area',
};

/** Flags that say the sale needs a second look (the others describe data quality). */
export { cautionFlags } from '../../../shared/comparables/model.ts';

/** The list's row after a key press: ↑/↓ by one, Home/End to the ends; null for any other key. */
export function rowAfterKey(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  if (key === 'ArrowDown') return Math.min(count - 1, index + 1);
  if (key === 'ArrowUp') return Math.max(0, index - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** File names for the exports: the assignment's name, what it is, and the effective date. */
export function exportFilename(assignmentName: string, what: 'sales comparison (UAD-shaped)' | 'sales comparison grid' | 'regression' | 'market sales', effectiveDate: string, extension: 'json' | 'csv'): string {
  return `${assignmentName} – ${what} – ${effectiveDate}.${extension}`;
}

/** The subject's use code (its property type) from its kept `report_subject_v1` answer, or null. */
export function subjectUseCodeOf(subjectEnvelope: unknown): string | null {
  const data = isRecord(subjectEnvelope) && isRecord(subjectEnvelope.data) ? subjectEnvelope.data : null;
  const item = data && Array.isArray(data.items) && isRecord(data.items[0]) ? data.items[0] : null;
  const identity = item && isRecord(item.sections) && isRecord(item.sections.identity) ? item.sections.identity : null;
  const code = identity?.use_code;
  return typeof code === 'string' && code.trim() !== '' ? code.trim() : typeof code === 'number' ? String(code) : null;
}
