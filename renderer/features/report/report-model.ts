// What the Report view and the print route show, as pure functions of the report document
// (shared/report/document.ts): endnote markers, status words, the print route's address and the
// printer's running header and page-number footer, and how a verification reads in words. The
// document itself (values, citations, formatting) is built in shared/report and never re-formatted
// here, so the screen and the PDF say the same thing.
import { subjectReportParts, subjectSummaryParts, type ReportDocument } from '../../../shared/report/document.ts';
import { type CitedValue, type ValueStatus } from '../../../shared/cited/value.ts';
import type { ReportVerification } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { formatCount } from '../../../shared/format/number.ts';

export type NumberedCitation = ReportDocument['citations'][number];

// ---------------------------------------------------------------------------------------------
// Citations and markers

/** Endnotes by citation id, for resolving a value's markers. */
export function citationIndex(doc: ReportDocument): Map<string, NumberedCitation> {
  return new Map(doc.citations.map((citation) => [citation.id, citation]));
}

/** A value's endnotes in number order (each marker is its endnote's number); unknown ids are skipped. */
export function markersFor(citationIds: readonly string[], index: Map<string, NumberedCitation>): NumberedCitation[] {
  const seen = new Set<number>();
  const out: NumberedCitation[] = [];
  for (const id of citationIds) {
    const citation = index.get(id);
    if (citation && !seen.has(citation.number)) {
      seen.add(citation.number);
      out.push(citation);
    }
  }
  return out.sort((a, b) => a.number - b.number);
}

// ---------------------------------------------------------------------------------------------
// Statuses

const STATUS_WORDS: Record<ValueStatus, { label: string; description: string }> = {
  reported: { label: 'as published', description: 'As the publisher printed it.' },
  derived: { label: 'derived', description: 'Computed by Plat or the service from the sources named; not as published.' },
  synthetic: { label: 'synthetic', description: 'Made up for Plat’s sample; not a public record.' },
  unavailable: { label: 'unavailable', description: 'No source gives this value.' },
};

export const statusWords = (status: ValueStatus) => STATUS_WORDS[status];

/** Whether a value shows a status flag beside it: everything but a plain published value does. */
export const flagsStatus = (value: Pick<CitedValue, 'status'>): boolean => value.status !== 'reported';

export function sectionStatusText(status: 'available' | 'partial' | 'unavailable'): string {
  if (status === 'available') return 'Complete';
  if (status === 'partial') return 'Partly available';
  return 'Not available';
}

// ---------------------------------------------------------------------------------------------
// Assignments, spend, the query log

export { activeAssignment } from '../../components/ActiveAssignmentGate.tsx';

export function spendLine(spend: { totalMicroUsd: number; capMicroUsd: number | null }): string {
  const spent = formatUsd(spend.totalMicroUsd);
  if (spend.capMicroUsd === null) return `${spent} spent (no cap)`;
  const left = Math.max(0, spend.capMicroUsd - spend.totalMicroUsd);
  return `${spent} spent of a ${formatUsd(spend.capMicroUsd)} cap (${formatUsd(left)} left)`;
}

/** How far into its cap an assignment is, 0..1, or null with no cap. */
export function capFraction(spend: { totalMicroUsd: number; capMicroUsd: number | null }): number | null {
  if (spend.capMicroUsd === null) return null;
  if (spend.capMicroUsd === 0) return 1;
  return Math.min(1, spend.totalMicroUsd / spend.capMicroUsd);
}

export function chargeText(entry: { chargedMicroUsd: number; cacheHit: boolean }): string {
  if (entry.cacheHit) return `${formatUsd(entry.chargedMicroUsd)} (cached)`;
  return formatUsd(entry.chargedMicroUsd);
}

/** What the missing sources cost in all; null when a price among them is not known. */
export function missingTotal(doc: Pick<ReportDocument, 'missing'>): number | null {
  let total = 0;
  for (const source of doc.missing) {
    if (source.expectedCostMicroUsd === null) return null;
    total += source.expectedCostMicroUsd;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// The print route and the printer's header and footer

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

// Chromium prints header and footer templates at a zero font size unless told, in their own
// document without the page's styles: everything is inline.
const TEMPLATE_STYLE = 'font-family: system-ui, Arial, sans-serif; font-size: 7.5px; color: #5b6372; width: 100%; margin: 0 14mm; display: flex; justify-content: space-between; gap: 12px;';

/** The running header on every page: the subject and the assignment (the printer's headerTemplate). */
export function printHeaderTemplate(doc: ReportDocument): string {
  const left = `Subject report · ${doc.cover.subjectLabel}`;
  const right = `${doc.cover.assignmentName} · effective ${doc.cover.effectiveDate}`;
  return `<div style="${TEMPLATE_STYLE}"><span>${escapeHtml(left)}</span><span>${escapeHtml(right)}</span></div>`;
}

/** Page numbers and when it was generated (the printer's footerTemplate). */
export function printFooterTemplate(doc: ReportDocument): string {
  const left = `Generated by Plat ${formatDateTime(doc.cover.generatedAt)} · every value cited; endnotes and citations.json attached`;
  return `<div style="${TEMPLATE_STYLE}"><span>${escapeHtml(left)}</span><span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`;
}

// ---------------------------------------------------------------------------------------------
// Verification

export function verificationCounts(result: ReportVerification): Record<'unchanged' | 'changed' | 'not-held' | 'altered', number> {
  const counts = { unchanged: 0, changed: 0, 'not-held': 0, altered: 0 };
  for (const row of result.rows) counts[row.outcome] += 1;
  return counts;
}

/** The verdict in one line, for the heading of the result. */
export function verificationHeadline(result: ReportVerification): { tone: 'ok' | 'warning' | 'error'; text: string } {
  if (result.kind === 'unreadable') return { tone: 'error', text: 'Plat cannot read this file as a PDF.' };
  if (result.kind === 'not-plat') return { tone: 'error', text: 'This PDF was not exported by Plat: it carries no Plat citations to check.' };
  const counts = verificationCounts(result);
  if (result.kind === 'altered') {
    const n = counts.altered;
    if (result.signature?.status === 'broken') return { tone: 'error', text: `This PDF was altered after it was signed${n > 0 ? ` (${n} ${n === 1 ? 'value no longer agrees' : 'values no longer agree'})` : ''}.` };
    return { tone: 'error', text: `This PDF was altered after Plat wrote it${n > 0 ? ` (${n} ${n === 1 ? 'value' : 'values'})` : ''}.` };
  }
  const total = result.rows.length;
  if (counts['not-held'] === total && total > 0) return { tone: 'warning', text: `Plat does not hold this assignment here, so none of its ${total} values can be compared.` };
  const changed = counts.changed;
  if (changed === 0 && counts['not-held'] === 0) return { tone: 'ok', text: `All ${total} values agree with the data Plat holds now.` };
  const parts = [`${counts.unchanged} of ${total} values unchanged`];
  if (changed > 0) parts.push(`${changed} changed`);
  if (counts['not-held'] > 0) parts.push(`${counts['not-held']} no longer held`);
  return { tone: 'warning', text: `${parts.join(', ')}.` };
}

/** Each check Verify makes, named for a person. */
export const CHECK_WORDS: Record<ReportVerification['checks'][number]['check'], string> = {
  signature: 'Signature',
  attachments: 'Attachments',
  csv: 'citations.csv',
  pages: 'Printed pages',
  derived: 'Derived values',
};

export const CHECK_OUTCOME_WORDS: Record<ReportVerification['checks'][number]['outcome'], string> = {
  passed: 'Proved',
  failed: 'Failed',
  'not-checked': 'Not proved',
};

export const OUTCOME_WORDS: Record<ReportVerification['rows'][number]['outcome'], string> = {
  unchanged: 'Unchanged',
  changed: 'Changed',
  'not-held': 'Not held here',
  altered: 'Altered in the PDF',
};

// ---------------------------------------------------------------------------------------------
// The appraiser's choice

/** The reason an appraiser gives for choosing another value: required, and within the contract's limit. */
export function checkChoiceReason(text: string): { ok: true; value: string } | { ok: false; error: string } {
  const reason = text.trim();
  if (reason === '') return { ok: false, error: 'Give the reason for choosing this value: it is kept with the assignment and printed in the report.' };
  if (reason.length > 2_000) return { ok: false, error: `Keep the reason under 2,000 characters (it has ${formatCount(reason.length)}).` };
  return { ok: true, value: reason };
}

// ---------------------------------------------------------------------------------------------
// Re-checking a report's sources

/**
 * The two purchases a subject report is built from (the same requests its `missing` entries name):
 * re-bought fresh to re-check a verified PDF against the service.
 */
export function reportSourceRequests(subjectRef: string) {
  return [
    { operation: 'queryRecords' as const, parts: subjectReportParts(subjectRef) },
    { operation: 'getEntitySummary' as const, parts: subjectSummaryParts(subjectRef) },
  ];
}
