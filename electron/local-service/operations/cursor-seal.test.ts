// Every cursor the embedded service issues is sealed to its request by this process: one with its
// position edited, one made up by someone who knows the format, and one given where no page follows
// are all refused with 400 invalid_cursor, before anything is charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleStore, type SampleRecord, type SampleStore } from '../sample-store.ts';
import { startTestService, stopTestService, type TestCallResult, type TestService } from '../test-harness.ts';
import { localOperations } from './index.ts';
import { idOf } from '../sample-test-kit.ts';
import { cursorSeal, sealMatches } from './cursor-seal.ts';

let store: SampleStore;
let svc: TestService;
let florida: SampleRecord;

beforeAll(async () => {
  store = openSampleStore();
  svc = await startTestService({ operations: localOperations, store, rateLimitPerMinute: 100_000 });
  const record = store.searchRecords({ kind: 'ownership', jurisdiction: '11', filters: [{ field: 'address', op: 'eq', value: '2120 FLORIDA AVE NW' }], limit: 1 }).items[0];
  if (!record) throw new Error('no record at 2120 FLORIDA AVE NW');
  florida = record;
}, 120_000);

afterAll(async () => {
  await stopTestService(svc);
  store.close();
});

type Body = { status: string; data?: Record<string, unknown>; meta?: Record<string, unknown>; error?: { code: string } };
const body = (res: TestCallResult) => res.body as Body;
const nextCursor = (res: TestCallResult): string => {
  const cursor = body(res).data?.['next_cursor'] ?? body(res).meta?.['next_cursor'];
  if (typeof cursor !== 'string') throw new Error(`expected a next page: ${res.text}`);
  return cursor;
};

/** Expects a 400 invalid_cursor and no charge. */
async function expectRefusedFree(call: () => Promise<TestCallResult>): Promise<void> {
  const before = svc.balance();
  const res = await call();
  expect(res.status, res.text).toBe(400);
  expect(body(res).error?.code).toBe('invalid_cursor');
  expect(res.charged ?? 0).toBe(0);
  expect(svc.balance()).toBe(before);
}

/** The same cursor with its position moved: `o<base36>.<seal>` → another base-36 position. */
const movedOffset = (cursor: string) => cursor.replace(/^o([0-9a-z]+)\./, (_all, position: string) => `o${(parseInt(position, 36) + 1).toString(36)}.`);

describe('sealed cursors', () => {
  it('seal their parts apart, and only this process makes them', () => {
    expect(cursorSeal('a|b', 'c')).not.toBe(cursorSeal('a', 'b|c'));
    expect(sealMatches(cursorSeal('x', '1'), 'x', '1')).toBe(true);
    expect(sealMatches(cursorSeal('x', '1'), 'x', '2')).toBe(false);
    expect(sealMatches('', 'x', '1')).toBe(false);
  });

  it('v4 connected: a cursor with its offset moved is refused, free', async () => {
    const search = (cursor?: string) => svc.call(`/api/v4/entities/${encodeURIComponent(idOf(florida, 'parc'))}/connected?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const cursor = nextCursor(await search());
    expect((await search(cursor)).status).toBe(200);
    await expectRefusedFree(() => search(movedOffset(cursor)));
  });

  it('v3 comparables: a cursor with its offset moved is refused, and a cursor on an answer that has no pages, free', async () => {
    const request = { mode: 'report', projection: 'report_comparables_v1', subject_property_ref: idOf(florida, 'prop'), radius_miles: 0.25, limit: 2 };
    const comps = (cursor?: string) => svc.call('/api/v3/record-queries', { json: { ...request, ...(cursor ? { cursor } : {}) } });
    const cursor = nextCursor(await comps());
    expect((await comps(cursor)).status).toBe(200);
    await expectRefusedFree(() => comps(movedOffset(cursor)));
    const subject = { mode: 'report', projection: 'report_subject_v1', subject_property_ref: idOf(florida, 'prop'), cursor };
    await expectRefusedFree(() => svc.call('/api/v3/record-queries', { json: subject }));
  });

  it('v2: a cursor re-encoded with another position, or made up in its format, is refused, free', async () => {
    const catalog = (cursor?: string) => svc.call(`/api/v2/catalog?facet=dictionary&page_size=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const cursor = nextCursor(await catalog());
    expect((await catalog(cursor)).status).toBe(200);
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p: number[] };
    const moved = Buffer.from(JSON.stringify({ ...decoded, p: [decoded.p[0]! + 1] })).toString('base64url');
    await expectRefusedFree(() => catalog(moved));
    // What a cursor held before it was sealed: the scope, positions and a digest anyone can compute.
    const madeUp = Buffer.from(JSON.stringify({ s: 'catalog', p: [10], f: '0123456789abcdef' })).toString('base64url');
    await expectRefusedFree(() => catalog(madeUp));
  });
});
