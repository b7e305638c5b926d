// Owner names typed with accents or in another script, against the real sample (DC's roll prints
// TODD N MULLER and RONALD MUELLER, and MILLERs and TILLERs by the dozen): an accent is matched the
// way a person means it, and no letter is ever dropped into a wider search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleStore, type SampleStore } from '../sample-store.ts';
import { normaliseOwnerName } from '../sample-keys.ts';
import { startTestService, stopTestService, type TestCallResult, type TestService } from '../test-harness.ts';
import { v2Operations } from './v2.ts';

const SEARCH_PRICE = 20_000;

let store: SampleStore;
let svc: TestService;

beforeAll(async () => {
  store = openSampleStore();
  svc = await startTestService({ operations: v2Operations, store, rateLimitPerMinute: 100_000 });
}, 120_000);

afterAll(async () => {
  await stopTestService(svc);
  store.close();
});

type Json = Record<string, unknown>;

const ownerSearch = (op: 'contains' | 'eq', value: string) =>
  svc.call('/api/v2/property-searches', {
    json: { area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op, value }], projection: 'fact_summary', limit: 100 },
  });

/** The normalised owner names of an answer, each once. */
function ownersOf(result: TestCallResult): string[] {
  const items = (result.body as { data: { items: Json[] } }).data.items;
  const names = items.map((item) => String((item['facts'] as Record<string, { value: unknown }>)['owner_name']?.value));
  return [...new Set(names.map(normaliseOwnerName))];
}

describe('owner names with accents', () => {
  it('finds MULLER and MUELLER for MÜLLER, and never MILLER or TILLER, for the price of one page', async () => {
    const before = svc.balance();
    const result = await ownerSearch('contains', 'MÜLLER');
    expect(result.status).toBe(200);
    expect(result.charged).toBe(SEARCH_PRICE);
    expect(svc.balance()).toBe(before - SEARCH_PRICE);
    const owners = ownersOf(result);
    expect(owners).toEqual(expect.arrayContaining(['TODD N MULLER', 'ALEXIA SAGEMULLER', 'RONALD MUELLER', 'JOHANNES MUELLER']));
    expect(owners.every((owner) => /M(U|UE)LLER/.test(owner))).toBe(true);
    // The same answer for the decomposed form (U + combining diaeresis) and lower case.
    expect(ownersOf(await ownerSearch('contains', 'mu\u0308ller'))).toEqual(owners);
  });

  it('reads é as E: josé is JOSE, not JOS (which would find every JOSHUA)', async () => {
    const owners = ownersOf(await ownerSearch('contains', 'josé'));
    expect(owners).toContain('JOSE D PENA');
    expect(owners.every((owner) => owner.includes('JOSE'))).toBe(true);
    expect(owners.some((owner) => owner.startsWith('JOSH'))).toBe(false);
  });

  it('compares a whole name with eq in every spelling', async () => {
    expect(ownersOf(await ownerSearch('eq', 'Todd N Müller'))).toEqual(['TODD N MULLER']);
    expect(ownersOf(await ownerSearch('eq', 'Ronald Müller'))).toEqual(['RONALD MUELLER']);
  });

  it('finds nothing, and charges nothing, for letters the roll never prints', async () => {
    const before = svc.balance();
    for (const value of ['名前', 'MÜLLER 名前', 'Жуков']) {
      const result = await ownerSearch('contains', value);
      expect(result.status, value).toBe(404);
      expect((result.body as { error: { code: string } }).error.code).toBe('not_found');
    }
    expect(svc.balance()).toBe(before);
  });

  it('refuses a value with more letters written two ways than it tries', async () => {
    const result = await ownerSearch('contains', 'ÄÖÜÄÖÜÄ');
    expect(result.status).toBe(400);
    expect((result.body as { error: { code: string } }).error.code).toBe('invalid_filters');
  });
});

describe('the store’s owner look-up', () => {
  it('finds every spelling of an accented name', () => {
    const keys = store.findOwners('Müller', { match: 'partial' }).owners.map((owner) => owner.owner_key);
    expect(keys).toEqual(expect.arrayContaining(['TODD N MULLER', 'RONALD MUELLER', 'MICHAEL G OLIGMUELLER']));
    expect(keys.every((key) => /M(U|UE)LLER/.test(key))).toBe(true);
    expect(store.findOwners('Todd N Müller').owners.map((owner) => owner.owner_key)).toEqual(['TODD N MULLER']);
    expect(store.findOwners('名前', { match: 'partial' }).total).toBe(0);
  });
});
