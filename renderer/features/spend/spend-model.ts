// Pure logic of the Spend view: the ledger filter from what the person typed, and the words each
// ledger row is shown with (operation, request, status, kind).
import type { LedgerFilter, LedgerRow, Project } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { chargeMarkText, isUnreadableAnswer, unreadableAnswerText } from '../../../shared/spend-marks.ts';

// ---------------------------------------------------------------------------------------------
// Filter

/** The project select: every row, rows outside any project, or one project. */
export const ALL_PROJECTS = '';
export const NO_PROJECT = '__none__';

export interface LedgerFilterForm {
  project: string;
  /** `YYYY-MM-DD` from a date input, or '' for open-ended. */
  fromDate: string;
  toDate: string;
}

export const emptyLedgerFilterForm: LedgerFilterForm = { project: ALL_PROJECTS, fromDate: '', toDate: '' };

export type LedgerFilterResult =
  | { ok: true; filter: LedgerFilter }
  | { ok: false; field: 'fromDate' | 'toDate'; error: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a `YYYY-MM-DD` day, or null when the text is not a real date. */
export function localDayStart(text: string): Date | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  // new Date rolls 2024-02-31 over into March: refuse it instead.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/**
 * The IPC filter for the form. Dates are whole local days and both ends are included, so the end is
 * sent as the next day's local midnight (the ledger's `to` is exclusive).
 */
export function ledgerFilterFromForm(form: LedgerFilterForm): LedgerFilterResult {
  const filter: LedgerFilter = {};
  if (form.project === NO_PROJECT) filter.projectId = null;
  else if (form.project !== ALL_PROJECTS) filter.projectId = form.project;

  let from: Date | null = null;
  if (form.fromDate.trim() !== '') {
    from = localDayStart(form.fromDate.trim());
    if (!from) return { ok: false, field: 'fromDate', error: 'Enter the start date as YYYY-MM-DD.' };
    filter.from = from.toISOString();
  }
  if (form.toDate.trim() !== '') {
    const to = localDayStart(form.toDate.trim());
    if (!to) return { ok: false, field: 'toDate', error: 'Enter the end date as YYYY-MM-DD.' };
    if (from && to < from) return { ok: false, field: 'toDate', error: 'The end date is before the start date.' };
    const dayAfter = new Date(to);
    dayAfter.setDate(dayAfter.getDate() + 1);
    filter.to = dayAfter.toISOString();
  }
  return { ok: true, filter };
}

export function isFiltered(form: LedgerFilterForm): boolean {
  return form.project !== ALL_PROJECTS || form.fromDate !== '' || form.toDate !== '';
}

// ---------------------------------------------------------------------------------------------
// Rows

const OPERATION_LABELS: Record<string, string> = {
  'v4.search': 'Record search',
  'v4.catalog': 'Source catalog',
  'v4.connected': 'Connected entities',
  'v4.summary': 'Entity summary',
  'v3.recordQuery': 'Record query',
  'v2.searchProperties': 'Property search',
  'v2.resolveEntities': 'Identifier resolution',
  'v2.getCatalog': 'Catalog facet',
  'v2.getEntity': 'Entity',
  'v2.traverseRelationships': 'Relationships',
  reconciliation: 'Unreported charge',
  credit: 'Credit (top-up)',
};

export function operationLabel(operation: string): string {
  return OPERATION_LABELS[operation] ?? operation;
}

/** What kind of ledger row this is, for the badge and the legend. */
export function rowKindLabel(row: LedgerRow): string | null {
  if (row.kind === 'reconciliation') return 'Reconciliation';
  if (row.kind === 'credit') return 'Credit';
  return null;
}

const MAX_SUMMARY = 140;

function flatten(value: unknown, prefix: string, out: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    out.push(`${prefix}=${value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(',')}`);
  } else if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else out.push(`${prefix}=${String(value)}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A v4 search filter's JSON text as `FIELD = value, FIELD ≥ 3`. */
function describeSearchFilter(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const parsed = parseJson(text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  return Object.entries(parsed as Record<string, unknown>)
    .map(([field, value]) => {
      if (field === '$source_id') return `source ${String(value)}`;
      if (value && typeof value === 'object' && 'gte' in value) return `${field} ≥ ${String((value as { gte: unknown }).gte)}`;
      return `${field} = ${String(value)}`;
    })
    .join(', ');
}

const truncate = (text: string): string => (text.length <= MAX_SUMMARY ? text : `${text.slice(0, MAX_SUMMARY - 1)}…`);

/** One line saying what a row asked for (`short`), and the whole request for the tooltip (`full`). */
export function summarizeRequest(row: LedgerRow): { short: string; full: string } {
  const parsed = parseJson(row.requestSummary);
  if (row.kind !== 'call') return adjustmentSummary(row, parsed);
  const parts = (parsed && typeof parsed === 'object' ? parsed : {}) as { path?: unknown; query?: Record<string, unknown>; body?: unknown };
  const pieces: string[] = [];
  if (row.operation === 'v4.search' && parts.query) {
    const { jurisdiction, kind, filter, limit, cursor } = parts.query;
    if (jurisdiction !== undefined) pieces.push(String(jurisdiction));
    if (kind !== undefined) pieces.push(String(kind));
    const described = describeSearchFilter(filter);
    if (described) pieces.push(described);
    if (cursor !== undefined) pieces.push('next page');
    if (limit !== undefined) pieces.push(`limit ${String(limit)}`);
  } else {
    const flat: string[] = [];
    flatten(parts.path, '', flat);
    flatten(parts.query, '', flat);
    flatten(parts.body, '', flat);
    pieces.push(...flat);
  }
  const short = pieces.length > 0 ? pieces.join(' · ') : typeof parsed === 'string' ? parsed : '(no parameters)';
  return { short: truncate(short), full: JSON.stringify(parsed, null, 2) ?? row.requestSummary };
}

/** A reconciliation or credit row in words: a short line for the table, the whole story for the tooltip. */
function adjustmentSummary(row: LedgerRow, evidence: unknown): { short: string; full: string } {
  const e = (evidence && typeof evidence === 'object' ? evidence : {}) as { gapMicroUsd?: unknown; calls?: unknown; ambiguous?: unknown };
  const gap = typeof e.gapMicroUsd === 'number' && Number.isSafeInteger(e.gapMicroUsd) ? e.gapMicroUsd : null;
  const calls = Array.isArray(e.calls) ? e.calls.filter((id): id is number => typeof id === 'number') : [];
  const callText = calls.length > 0 ? `calls ${calls.slice(-5).map((id) => `#${id}`).join(', ')}${calls.length > 5 ? ', …' : ''}` : '';
  if (row.kind === 'credit') {
    const rise = gap !== null ? ` ${formatUsd(-gap)}` : '';
    return {
      short: `Top-up: balance rose${rise}${callText ? ` (${callText})` : ''}`,
      full: `The balance rose${rise} beyond the reported charges${callText ? ` of ${callText}` : ''}: credit was added to the account. This is not a refund and does not count as spending.`,
    };
  }
  const drop = gap !== null ? ` ${formatUsd(gap)}` : '';
  const ambiguous = e.ambiguous === true;
  return {
    short: `Unreported${drop}${callText ? ` (${callText})` : ''}${ambiguous ? ', not attributed' : ''}`,
    full:
      `The balance fell${drop} more than the service reported charging${callText ? ` for ${callText}` : ''}.` +
      (ambiguous ? ' Several charged calls overlapped, so the charge could not be pinned to one of them.' : ''),
  };
}

const STATUS_WORDS: Record<string, string> = {
  pending: 'Outcome unknown',
  succeeded: 'OK',
  failed: 'Failed',
  recovered: 'Recovered',
  recorded: 'Recorded',
};

/**
 * The row's outcome in words: `OK 200`, `Failed 404 · not_found`, `Outcome unknown`, and for a 2xx
 * Plat could not read `Charged; the answer could not be read 200` (never "OK").
 */
export function statusText(row: LedgerRow): string {
  if (isUnreadableAnswer(row)) {
    const words = unreadableAnswerText(row.chargedMicroUsd);
    return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${row.httpStatus ?? ''}`.trimEnd();
  }
  const words = STATUS_WORDS[row.status] ?? row.status;
  const http = row.httpStatus ? ` ${row.httpStatus}` : '';
  const code = row.errorCode ? ` · ${row.errorCode}` : '';
  return `${words}${http}${code}`;
}

/**
 * Why the charge shown is not what the service's header said, in one sentence ("The service reported
 * $0.50; its balance fell by $0.10: Plat booked $0.10"), or null when it is.
 */
export function chargeMark(row: LedgerRow): string | null {
  return chargeMarkText({
    chargeCheck: row.chargeCheck,
    chargeHeader: row.chargeHeader,
    reportedChargeMicroUsd: row.reportedChargeMicroUsd,
    bookedChargeMicroUsd: row.chargedMicroUsd,
    reconciled: row.reconciled,
  });
}

export function statusTone(row: LedgerRow): 'ok' | 'failed' | 'pending' | 'neutral' {
  if (row.status === 'failed') return 'failed';
  if (row.status === 'pending') return 'pending';
  if (row.status === 'succeeded' || row.status === 'recovered') return 'ok';
  return 'neutral';
}

/** `2024-05-01 14:03:22` in local time (shared/format-date.ts); a row's time is when it was written. */
export const formatLocalTime = (iso: string): string => formatDateTime(iso);

export function projectName(projectId: string | null, projects: readonly Project[] | undefined): string {
  if (projectId === null) return '';
  return projects?.find((project) => project.id === projectId)?.name ?? 'Deleted project';
}

/** Paging text: `Rows 51–100 of 240`. */
export function pageRange(offset: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return 'No rows';
  return `Rows ${offset + 1}–${offset + shown} of ${total}`;
}

/** One file's spending: an assignment or project, or "No assignment" (projectId null). */
export interface FileSpendRow {
  projectId: string | null;
  name: string;
  /** The assignment's subject as the person knows it; empty for a plain project and for no assignment. */
  subject: string;
  microUsd: number;
  capMicroUsd: number | null;
  archived: boolean;
}

/**
 * Every file's cost: each project and assignment (those not archived even at $0.00, so a file just
 * started is seen; archived ones when they spent), a file the ledger names that is gone, and always
 * "No assignment".
 */
export function fileSpendRows(byProject: ReadonlyArray<{ projectId: string | null; microUsd: number }> | undefined, projects: readonly Project[] | undefined): FileSpendRow[] {
  const spent = new Map((byProject ?? []).map((entry) => [entry.projectId, entry.microUsd]));
  const rows: FileSpendRow[] = (projects ?? [])
    .filter((project) => !project.archived || spent.has(project.id))
    .map((project) => ({
      projectId: project.id,
      name: project.name,
      subject: project.assignment?.subjectLabel ?? '',
      microUsd: spent.get(project.id) ?? 0,
      capMicroUsd: project.capMicroUsd,
      archived: project.archived,
    }));
  for (const [projectId, microUsd] of spent) {
    if (projectId === null || rows.some((row) => row.projectId === projectId)) continue;
    rows.push({ projectId, name: 'Deleted project', subject: '', microUsd, capMicroUsd: null, archived: false });
  }
  rows.push({ projectId: null, name: 'No assignment', subject: '', microUsd: spent.get(null) ?? 0, capMicroUsd: null, archived: false });
  return rows;
}
