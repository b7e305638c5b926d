// Ledger rows decoded from SQLite (columns checked, not cast) and the filter shared by list, count and CSV.
import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';
import { addMicroUsd } from '../../../shared/money.ts';
import { ChargeCheckSchema } from '../../../shared/spend-marks.ts';
import type { SpendEntry, SpendEntryKind, SpendEntryStatus, SpendFilter } from './spend-entries.ts';

export type Row = Record<string, SQLOutputValue>;

export function num(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  throw new Error(`ledger: column ${column} is not a number`);
}

export function numOrNull(row: Row, column: string): number | null {
  return row[column] === null || row[column] === undefined ? null : num(row, column);
}

export function str(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new Error(`ledger: column ${column} is not text`);
  return value;
}

export function strOrNull(row: Row, column: string): string | null {
  return row[column] === null || row[column] === undefined ? null : str(row, column);
}

export function entryFrom(row: Row): SpendEntry {
  const charged = numOrNull(row, 'charged_micro_usd');
  const unreported = num(row, 'unreported_charge_micro_usd');
  const overstated = num(row, 'overstated_charge_micro_usd');
  const check = strOrNull(row, 'charge_check');
  return {
    id: num(row, 'id'),
    kind: str(row, 'kind') as SpendEntryKind,
    status: str(row, 'status') as SpendEntryStatus,
    startedAt: str(row, 'started_at'),
    finishedAt: strOrNull(row, 'finished_at'),
    operation: str(row, 'operation'),
    requestSummary: JSON.parse(str(row, 'request_summary')) as unknown,
    requestId: strOrNull(row, 'request_id'),
    idempotencyKey: strOrNull(row, 'idempotency_key'),
    httpStatus: numOrNull(row, 'http_status'),
    attempts: numOrNull(row, 'attempts'),
    expectedCostMicroUsd: num(row, 'expected_cost_micro_usd'),
    priceKnown: row['price_known'] !== 0,
    chargedMicroUsd: charged,
    unreportedChargeMicroUsd: unreported,
    overstatedChargeMicroUsd: overstated,
    totalChargeMicroUsd: addMicroUsd(charged ?? 0, unreported, -overstated),
    chargeCheck: check === null ? null : ChargeCheckSchema.parse(check),
    chargeHeader: strOrNull(row, 'charge_header'),
    creditMicroUsd: num(row, 'credit_micro_usd'),
    balanceAfterMicroUsd: numOrNull(row, 'balance_after_micro_usd'),
    replayed: num(row, 'replayed') === 1,
    cacheHit: num(row, 'cache_hit') === 1,
    cacheServedAt: strOrNull(row, 'cache_served_at'),
    projectId: strOrNull(row, 'project_id'),
    sessionId: str(row, 'session_id'),
    errorCode: strOrNull(row, 'error_code'),
    reconciled: num(row, 'reconciled') === 1,
  };
}

export function filterSql(filter: SpendFilter): { where: string; params: SQLInputValue[] } {
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  if (filter.projectId === null) clauses.push('project_id IS NULL');
  else if (filter.projectId !== undefined) {
    clauses.push('project_id = ?');
    params.push(filter.projectId);
  }
  if (filter.from) {
    clauses.push('started_at >= ?');
    params.push(filter.from.toISOString());
  }
  if (filter.to) {
    clauses.push('started_at < ?');
    params.push(filter.to.toISOString());
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}
