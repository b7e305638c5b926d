// CSV export of ledger entries (RFC 4180: CRLF line ends, fields with commas, quotes or line breaks quoted, quotes doubled).
import { formatUsd } from '../../../shared/money.ts';
import { csvField } from '../../../shared/csv.ts';
import { chargeMarkText, isUnreadableAnswer, unreadableAnswerText } from '../../../shared/spend-marks.ts';
import type { SpendEntry } from './spend-entries.ts';

const CSV_COLUMNS: ReadonlyArray<readonly [string, (entry: SpendEntry) => string | number | boolean | null]> = [
  ['id', (e) => e.id],
  ['kind', (e) => e.kind],
  ['status', (e) => e.status],
  ['started_at', (e) => e.startedAt],
  ['finished_at', (e) => e.finishedAt],
  ['operation', (e) => e.operation],
  ['request_summary', (e) => JSON.stringify(e.requestSummary)],
  ['request_id', (e) => e.requestId],
  ['idempotency_key', (e) => e.idempotencyKey],
  ['http_status', (e) => e.httpStatus],
  ['attempts', (e) => e.attempts],
  ['expected_cost_micro_usd', (e) => (e.priceKnown ? e.expectedCostMicroUsd : null)],
  ['expected_cost_usd', (e) => (e.priceKnown ? formatUsd(e.expectedCostMicroUsd) : `price not known (counted at up to ${formatUsd(e.expectedCostMicroUsd)} against the caps)`)],
  ['charged_micro_usd', (e) => e.chargedMicroUsd],
  ['charged_usd', (e) => (e.chargedMicroUsd === null ? null : formatUsd(e.chargedMicroUsd))],
  ['unreported_charge_micro_usd', (e) => e.unreportedChargeMicroUsd],
  ['unreported_charge_usd', (e) => formatUsd(e.unreportedChargeMicroUsd)],
  ['total_charge_micro_usd', (e) => e.totalChargeMicroUsd],
  ['total_charge_usd', (e) => formatUsd(e.totalChargeMicroUsd)],
  ['credit_micro_usd', (e) => e.creditMicroUsd],
  ['credit_usd', (e) => formatUsd(e.creditMicroUsd)],
  ['balance_after_micro_usd', (e) => e.balanceAfterMicroUsd],
  ['balance_after_usd', (e) => (e.balanceAfterMicroUsd === null ? null : formatUsd(e.balanceAfterMicroUsd))],
  ['replayed', (e) => e.replayed],
  ['cache_hit', (e) => e.cacheHit],
  ['cache_served_at', (e) => e.cacheServedAt],
  ['project_id', (e) => e.projectId],
  ['session_id', (e) => e.sessionId],
  ['error_code', (e) => e.errorCode],
  // Added columns go last, so a sheet built on the earlier ones keeps reading them.
  // A 2xx Plat could not read is closed `failed`; this says what it was (never "succeeded").
  ['outcome', (e) => (isUnreadableAnswer(e) ? unreadableAnswerText(e.totalChargeMicroUsd) : e.status)],
  // The balance drop is the truth: what the service's charge header said when Plat booked otherwise.
  ['overstated_charge_micro_usd', (e) => e.overstatedChargeMicroUsd],
  ['charge_header', (e) => e.chargeHeader],
  ['charge_check', (e) => e.chargeCheck],
  ['charge_note', (e) => chargeNote(e)],
];

/** The row's mark in words, when the service's charge header was not booked as sent. */
function chargeNote(entry: SpendEntry): string | null {
  return chargeMarkText({
    chargeCheck: entry.chargeCheck,
    chargeHeader: entry.chargeHeader,
    reportedChargeMicroUsd: entry.chargedMicroUsd,
    bookedChargeMicroUsd: entry.totalChargeMicroUsd,
    reconciled: entry.reconciled,
  });
}

/** RFC 4180 CSV of ledger entries, with a header row. */
export function spendEntriesToCsv(entries: readonly SpendEntry[]): string {
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const entry of entries) lines.push(CSV_COLUMNS.map(([, pick]) => csvField(pick(entry))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
