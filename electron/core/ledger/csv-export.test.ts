// Listing the ledger and exporting it as CSV.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { harness, ok, SUMMARY } from './ledger-test-kit.ts';

describe('list and CSV export', () => {
  function threeCalls() {
    const h = harness();
    const ids: number[] = [];
    for (const [hour, projectId] of [[9, 'proj_a'], [10, 'proj_b'], [11, 'proj_a']] as const) {
      h.setClock(new Date(2024, 4, 10, hour, 0, 0));
      const id = h.begin({ projectId });
      h.ledger.recordAnswer(id, ok(SUMMARY, 25_000_000 - hour * SUMMARY));
      ids.push(id);
    }
    return { h, ids };
  }

  it('lists newest first with project, time range and paging filters', () => {
    const { h, ids } = threeCalls();
    const [first, second, third] = ids;
    expect(h.ledger.list({ limit: 10 }).map((entry) => entry.id)).toEqual([third, second, first]);
    expect(h.ledger.list({ limit: 10, projectId: 'proj_a' }).map((entry) => entry.id)).toEqual([third, first]);
    expect(h.ledger.list({ limit: 10, projectId: null })).toEqual([]);
    expect(
      h.ledger.list({ limit: 10, from: new Date(2024, 4, 10, 10, 0, 0), to: new Date(2024, 4, 10, 11, 0, 0) }).map((entry) => entry.id),
    ).toEqual([second]);
    expect(h.ledger.list({ limit: 1, offset: 1 }).map((entry) => entry.id)).toEqual([second]);
  });

  it('exports RFC 4180 CSV that survives commas, quotes and line breaks', () => {
    const h = harness();
    const summary = { owner: 'SMITH, JOHN "JACK"', note: 'line one\nline two\r\nline three', filter: { price: { gte: 1_250_000 } } };
    const id = h.begin({ requestSummary: summary, expectedCostMicroUsd: 1_250_000_000 });
    h.ledger.recordAnswer(id, ok(1_250_000_000, 0, { httpStatus: 404, errorCode: '=HYPERLINK("x")' }));
    const csv = h.ledger.exportCsv();
    expect(csv.endsWith('\r\n')).toBe(true);
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(1);
    const record = records[0];
    expect(JSON.parse(record?.['request_summary'] ?? '')).toEqual(summary);
    expect(record).toMatchObject({
      id: String(id),
      kind: 'call',
      status: 'failed',
      charged_micro_usd: '1250000000',
      charged_usd: '$1,250.00',
      total_charge_usd: '$1,250.00',
      credit_usd: '$0.00',
      balance_after_usd: '$0.00',
      replayed: 'false',
      started_at: new Date(2024, 4, 10, 12, 0, 0).toISOString(),
      project_id: 'proj_a',
      // A text cell that a spreadsheet would run as a formula is kept as text.
      error_code: `'=HYPERLINK("x")`,
    });
  });

  it('exports only the filtered rows, header included when there are none', () => {
    const { h } = threeCalls();
    const csv = h.ledger.exportCsv({ projectId: 'proj_b' });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.startsWith('id,kind,status,started_at,finished_at,operation,request_summary')).toBe(true);
    expect(h.ledger.exportCsv({ projectId: 'nope' }).trimEnd().split('\r\n')).toHaveLength(1);
  });
});
