import { describe, expect, it } from 'vitest';
import type { LedgerRow, Project } from '../../../shared/ipc.ts';
import { encodeSearchFilter } from '../../../shared/service/index.ts';
import {
  ALL_PROJECTS,
  fileSpendRows,
  ledgerFilterFromForm,
  localDayStart,
  NO_PROJECT,
  operationLabel,
  pageRange,
  projectName,
  chargeMark,
  rowKindLabel,
  statusText,
  statusTone,
  summarizeRequest,
} from './spend-model.ts';

const row = (patch: Partial<LedgerRow>): LedgerRow => ({
  id: 1,
  kind: 'call',
  startedAt: '2024-05-01T12:00:00.000Z',
  finishedAt: '2024-05-01T12:00:01.000Z',
  operation: 'v4.search',
  requestSummary: '{}',
  requestId: 'req_1',
  idempotencyKey: 'plat-abc',
  httpStatus: 200,
  status: 'succeeded',
  expectedCostMicroUsd: 20_000,
  chargedMicroUsd: 20_000,
  unreportedChargeMicroUsd: 0,
  reportedChargeMicroUsd: 20_000,
  chargeCheck: null,
  chargeHeader: null,
  reconciled: true,
  balanceAfterMicroUsd: 24_980_000,
  replayed: false,
  cacheHit: false,
  projectId: null,
  errorCode: null,
  ...patch,
});

describe('ledgerFilterFromForm', () => {
  it('sends whole local days with the end day included', () => {
    const result = ledgerFilterFromForm({ project: ALL_PROJECTS, fromDate: '2024-05-01', toDate: '2024-05-03' });
    expect(result).toEqual({
      ok: true,
      filter: { from: new Date(2024, 4, 1).toISOString(), to: new Date(2024, 4, 4).toISOString() },
    });
  });

  it('tells "no project" apart from "all projects"', () => {
    expect(ledgerFilterFromForm({ project: ALL_PROJECTS, fromDate: '', toDate: '' })).toEqual({ ok: true, filter: {} });
    expect(ledgerFilterFromForm({ project: NO_PROJECT, fromDate: '', toDate: '' })).toEqual({ ok: true, filter: { projectId: null } });
    expect(ledgerFilterFromForm({ project: 'p-1', fromDate: '', toDate: '' })).toEqual({ ok: true, filter: { projectId: 'p-1' } });
  });

  it('refuses an end before the start, naming the field', () => {
    const result = ledgerFilterFromForm({ project: ALL_PROJECTS, fromDate: '2024-05-03', toDate: '2024-05-01' });
    expect(result).toEqual({ ok: false, field: 'toDate', error: 'The end date is before the start date.' });
  });

  it('refuses a date that does not exist instead of rolling it over', () => {
    expect(localDayStart('2024-02-31')).toBeNull();
    expect(ledgerFilterFromForm({ project: ALL_PROJECTS, fromDate: '2024-02-31', toDate: '' })).toMatchObject({ ok: false, field: 'fromDate' });
    expect(localDayStart('2024-02-29')?.getDate()).toBe(29);
  });
});

describe('ledger rows in words', () => {
  it('summarises a v4 search by jurisdiction, kind and filter', () => {
    const filter = encodeSearchFilter({
      conditions: [
        { field: 'OWNERNAME', op: 'eq', value: 'SMITH JOHN' },
        { field: 'SALEPRICE', op: 'gte', value: 100000 },
      ],
    });
    const summary = summarizeRequest(row({ requestSummary: JSON.stringify({ query: { jurisdiction: '11001', kind: 'ownership', filter, limit: 50 } }) }));
    expect(summary.short).toBe('11001 · ownership · OWNERNAME = SMITH JOHN, SALEPRICE ≥ 100000 · limit 50');
    expect(summary.full).toContain('"jurisdiction": "11001"');
  });

  it('summarises other operations by their parameters', () => {
    const summary = summarizeRequest(
      row({ operation: 'v4.summary', requestSummary: JSON.stringify({ path: { q_id: 'parc_1' }, query: { fields: 'year_built' } }) }),
    );
    expect(summary.short).toBe('q_id=parc_1 · fields=year_built');
  });

  it('explains a reconciliation row from its evidence', () => {
    const reconciliation = row({
      kind: 'reconciliation',
      operation: 'reconciliation',
      status: 'recorded',
      chargedMicroUsd: 100_000,
      unreportedChargeMicroUsd: 100_000,
      requestSummary: JSON.stringify({ baselineMicroUsd: 25_000_000, reportedMicroUsd: 0, balanceMicroUsd: 24_900_000, gapMicroUsd: 100_000, calls: [7, 8], ambiguous: false }),
    });
    expect(rowKindLabel(reconciliation)).toBe('Reconciliation');
    expect(summarizeRequest(reconciliation)).toEqual({
      short: 'Unreported $0.10 (calls #7, #8)',
      full: 'The balance fell $0.10 more than the service reported charging for calls #7, #8.',
    });
    const overlapping = { ...reconciliation, requestSummary: JSON.stringify({ gapMicroUsd: 30_000, calls: [1, 2, 3, 4, 5, 6], ambiguous: true }) };
    expect(summarizeRequest(overlapping).short).toBe('Unreported $0.03 (calls #2, #3, #4, #5, #6, …), not attributed');
    expect(summarizeRequest(overlapping).full).toContain('could not be pinned to one of them');
  });

  it('calls a credit row a top-up, never a refund of a charge', () => {
    const credit = row({
      kind: 'credit',
      operation: 'credit',
      status: 'recorded',
      chargedMicroUsd: 0,
      requestSummary: JSON.stringify({ gapMicroUsd: -25_000_000, calls: [3], ambiguous: false }),
    });
    expect(rowKindLabel(credit)).toBe('Credit');
    expect(summarizeRequest(credit).short).toBe('Top-up: balance rose $25.00 (calls #3)');
    expect(summarizeRequest(credit).full).toContain('This is not a refund and does not count as spending.');
    expect(rowKindLabel(row({}))).toBeNull();
  });

  it('says how a call ended', () => {
    expect(statusText(row({}))).toBe('OK 200');
    expect(statusText(row({ status: 'failed', httpStatus: 404, errorCode: 'not_found' }))).toBe('Failed 404 · not_found');
    expect(statusText(row({ status: 'pending', httpStatus: null }))).toBe('Outcome unknown');
  });

  it('names operations and projects', () => {
    expect(operationLabel('v4.summary')).toBe('Entity summary');
    expect(operationLabel('v9.unknown')).toBe('v9.unknown');
    const projects = [{ id: 'p1', name: 'Main St', capMicroUsd: null, archived: false, createdAt: '2024-01-01T00:00:00Z', assignment: null }];
    expect(projectName('p1', projects)).toBe('Main St');
    expect(projectName(null, projects)).toBe('');
    expect(projectName('gone', projects)).toBe('Deleted project');
  });

  it('pages as "Rows a–b of n"', () => {
    expect(pageRange(0, 50, 120)).toBe('Rows 1–50 of 120');
    expect(pageRange(100, 20, 120)).toBe('Rows 101–120 of 120');
    expect(pageRange(0, 0, 0)).toBe('No rows');
  });
});

describe('money a service misreported, and answers it charged but Plat could not read', () => {
  it('never calls a 2xx Plat could not read "OK": it was charged, and its answer could not be read', () => {
    const unreadable = row({ status: 'failed', httpStatus: 200, errorCode: 'malformed_response', chargedMicroUsd: 100_000 });
    expect(statusText(unreadable)).toBe('Charged; the answer could not be read 200');
    expect(statusTone(unreadable)).toBe('failed');
    expect(statusText({ ...unreadable, chargedMicroUsd: 0 })).toBe('The answer could not be read 200');
  });

  it('says what the header said, what the balance fell by and what Plat booked', () => {
    expect(chargeMark(row({}))).toBeNull();
    expect(chargeMark(row({ chargeCheck: 'disagrees', reportedChargeMicroUsd: 500_000, chargedMicroUsd: 100_000 }))).toBe(
      'The service reported $0.50; its balance fell by $0.10: Plat booked $0.10',
    );
    expect(chargeMark(row({ chargeCheck: 'unreadable', reportedChargeMicroUsd: null, chargeHeader: '-100000', chargedMicroUsd: 100_000 }))).toBe(
      'The service reported “-100000” (not an amount); its balance fell by $0.10: Plat booked $0.10',
    );
    expect(chargeMark(row({ chargeCheck: 'failed_call', status: 'failed', httpStatus: 400, reportedChargeMicroUsd: 100_000, chargedMicroUsd: 0 }))).toBe(
      'The service reported $0.10 on a failed call; its balance did not fall: Plat booked $0.00',
    );
    expect(chargeMark(row({ chargeCheck: 'unreadable', reportedChargeMicroUsd: null, chargeHeader: 'lots', chargedMicroUsd: 0, reconciled: false }))).toBe(
      'The service reported “lots” (not an amount); Plat books what its balance shows once it is known',
    );
  });
});

describe('each file’s cost', () => {
  const assignment = { subjectRef: 'prop_1', subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01', intendedUse: '', client: '', reference: '', notes: '' };
  const project = (id: string, name: string, patch: Partial<Project> = {}): Project =>
    ({ id, name, capMicroUsd: null, archived: false, createdAt: '2026-01-01T00:00:00.000Z', assignment: null, ...patch }) as Project;

  it('lists every file with its total, a new file at $0.00, and always “No assignment”', () => {
    const rows = fileSpendRows(
      [
        { projectId: 'p1708', microUsd: 350_000 },
        { projectId: null, microUsd: 10_000 },
      ],
      [project('p1708', '1708 21st St NW', { assignment }), project('pnew', '1717 4TH ST NW')],
    );
    expect(rows.map((r) => [r.name, r.subject, r.microUsd])).toEqual([
      ['1708 21st St NW', '1708 21ST ST NW', 350_000],
      ['1717 4TH ST NW', '', 0],
      ['No assignment', '', 10_000],
    ]);
  });

  it('keeps a file the ledger names that is gone, and an archived file only when it spent', () => {
    const rows = fileSpendRows([{ projectId: 'gone', microUsd: 20_000 }], [project('old', 'Old', { archived: true })]);
    expect(rows.map((r) => [r.name, r.microUsd])).toEqual([
      ['Deleted project', 20_000],
      ['No assignment', 0],
    ]);
  });
});
