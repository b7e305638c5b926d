// What the service says about where a value came from, in every generation, on the cases found by
// use (issue #10 §3): a value the service normalised, derived or joined is never cited as a
// publisher's own, and OTR's price 0 reads as OTR says it ("non-market or no price"). Real HTTP,
// the shipped sample.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localOperations } from './index.ts';
import { openSampleStore } from '../sample-store.ts';
import type { SampleStore } from '../sample-store.ts';
import { startTestService, stopTestService } from '../test-harness.ts';
import type { TestService } from '../test-harness.ts';

let store: SampleStore;
let svc: TestService;

beforeAll(async () => {
  store = openSampleStore();
  svc = await startTestService({ operations: localOperations, store, rateLimitPerMinute: 100_000 });
});
afterAll(async () => {
  await stopTestService(svc);
  store.close();
});

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => value as Json;

function entityAt(address: string, prefix: 'prop' | 'addr'): string {
  const found = store.resolveAddress(address).candidates.find((c) => c.prefix === prefix);
  if (!found) throw new Error(`no ${prefix} at ${address}`);
  return found.entity_id;
}

async function v2Entity(ref: string): Promise<{ entity: Json; sources: Json[] }> {
  const res = await svc.call(`/api/v2/entities/${ref}`);
  expect(res.status).toBe(200);
  const body = obj(res.body);
  return { entity: obj(obj(body['data'])['entity']), sources: obj(body['provenance'])['sources'] as Json[] };
}

async function summary(ref: string): Promise<Json> {
  const res = await svc.call(`/api/v4/entities/${ref}/summary`, { idempotencyKey: `summary-${ref}` });
  expect(res.status).toBe(200);
  return obj(obj(res.body)['data']);
}

async function subjectReport(ref: string): Promise<{ item: Json; sources: Json[] }> {
  const res = await svc.call('/api/v3/record-queries', {
    method: 'POST',
    idempotencyKey: `report-${ref}`,
    json: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: ref },
  });
  expect(res.status).toBe(200);
  const data = obj(obj(res.body)['data']);
  return { item: obj((data['items'] as unknown[])[0]), sources: data['sources'] as Json[] };
}

const identifier = (entity: Json, scheme: string) => (entity['identifiers'] as Json[]).find((i) => i['scheme'] === scheme);

describe('an address the service normalised is not the publisher\'s', () => {
  it('Alexandria printed "304 ADAMS AV": that is reported; "304 ADAMS AVE" is derived from it, by the service', async () => {
    const ref = entityAt('304 ADAMS AV', 'prop');
    const { entity } = await v2Entity(ref);
    expect(obj(obj(entity['attributes'])['address'])).toMatchObject({ value: '304 ADAMS AV', status: 'reported', citation: { source_id: 'va_alexandria_parcels' } });
    const normalised = identifier(entity, 'address');
    expect(normalised).toMatchObject({ value: '304 ADAMS AVE', status: 'derived', method: 'address_normalised', citation: { status: 'derived' } });
    expect(String(normalised?.['note'])).toMatch(/Normalised by the service from "304 ADAMS AV"/);
    expect(String(normalised?.['derived_from'])).toMatch(/^rec_/);

    expect(obj((await summary(ref))['address'])).toMatchObject({ value: '304 ADAMS AV', status: 'reported' });
    const { item } = await subjectReport(ref);
    expect(obj(obj(item['sections'])['identity'])['address']).toBe('304 ADAMS AV');
  });

  it('a resolution candidate says which of its identity values the service derived', async () => {
    const res = await svc.call('/api/v2/resolutions', {
      method: 'POST',
      idempotencyKey: 'resolve-304-adams',
      json: { items: [{ client_id: 'a', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '304 adams av' }] }] },
    });
    const candidate = obj((obj((obj(obj(res.body)['data'])['items'] as unknown[])[0])['candidates'] as unknown[])[0]);
    expect(obj(candidate['canonical_identity'])['address']).toBe('304 ADAMS AVE');
    expect(obj(obj(candidate['identity_provenance'])['address'])).toMatchObject({ status: 'derived', method: 'address_normalised' });
  });
});

describe('a building address OTR never published', () => {
  it('1711 MASSACHUSETTS AVE NW is derived from its units\' addresses, and says so in v2 and v4', async () => {
    const ref = entityAt('1711 MASSACHUSETTS AVE NW', 'addr');
    const { entity } = await v2Entity(ref);
    const address = obj(obj(entity['attributes'])['address']);
    expect(address).toMatchObject({ value: '1711 MASSACHUSETTS AVE NW', status: 'derived', method: 'premise_of_unit_addresses', citation: { source_id: 'dc_otr_ownership' } });
    expect(String(address['note'])).toMatch(/derived by the service from the \d+ unit addresses .* \(e\.g\. "1711 MASSACHUSETTS AVE NW Unit: /);
    // No unit's address stands in for the building's.
    expect((address['alternatives'] as Json[]).some((a) => /Unit/.test(String(a['value'])))).toBe(false);
    expect(identifier(entity, 'address')).toMatchObject({ value: '1711 MASSACHUSETTS AVE NW', status: 'derived', method: 'premise_of_unit_addresses' });

    expect(obj((await summary(ref))['address'])).toMatchObject({ value: '1711 MASSACHUSETTS AVE NW', status: 'derived', citation: { method: 'premise_of_unit_addresses' } });
  });
});

describe('square_lat / square_lon are DC GIS square centroids, not OTR\'s', () => {
  it('a v4 search record names them as derived, cited to the DC GIS square point', async () => {
    const filter = encodeURIComponent(JSON.stringify({ ssl: '0065    0007' }));
    const res = await svc.call(`/api/v4/search?jurisdiction=11001&kind=ownership&filter=${filter}`, { idempotencyKey: 'search-0065-0007' });
    expect(res.status).toBe(200);
    const record = obj((obj(obj(res.body)['data'])['items'] as unknown[])[0]);
    expect(obj(record['citation'])['source_id']).toBe('dc_otr_ownership');
    const derived = obj(obj(record['citation'])['derived_fields']);
    for (const column of ['square_lat', 'square_lon']) {
      expect(obj(derived[column])).toMatchObject({
        status: 'derived',
        method: 'tax_square_centroid',
        citation: { source_id: 'dc_gis_square_points', source: 'DC Office of the Chief Technology Officer (DC GIS)' },
      });
      expect(String(obj(derived[column])['note'])).toMatch(/centroid of tax square 0065 .*approximate/);
    }
    // ssl equals what OTR printed here, so it is not marked.
    expect(derived['ssl']).toBeUndefined();
  });

  it('the v3 subject report and v2 entity mark the location derived and cite the square point', async () => {
    const ref = entityAt('1708 21ST ST NW', 'prop');
    const { item, sources } = await subjectReport(ref);
    const location = obj(item['location']);
    expect(location).toMatchObject({ precision: 'square_centroid', status: 'derived', method: 'tax_square_centroid' });
    const cited = store.getRecord(String((location['source_refs'] as string[])[0]));
    expect(cited?.source_id).toBe('dc_gis_square_points');
    expect(sources.map((s) => s['source_id'])).toContain('dc_gis_square_points');

    const { entity } = await v2Entity(ref);
    expect(obj(entity['location'])).toMatchObject({ status: 'derived', method: 'tax_square_centroid', citation: { source_id: 'dc_gis_square_points' } });
  });

  it('an OTR comparable\'s location is cited to its square point, not to the OTR sale', async () => {
    const ref = entityAt('1708 21ST ST NW', 'prop');
    const res = await svc.call('/api/v3/record-queries', {
      method: 'POST',
      idempotencyKey: 'comparables-1708',
      json: { mode: 'report', projection: 'report_comparables_v1', subject_property_ref: ref, radius_miles: 0.25, filters: { sale: [{ field: 'include_undated', value: 'false' }] }, limit: 5 },
    });
    expect(res.status).toBe(200);
    const items = obj(obj(res.body)['data'])['items'] as Json[];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const location = obj(item['location']);
      expect(location).toMatchObject({ precision: 'square_centroid', status: 'derived' });
      expect(store.getRecord(String((location['source_refs'] as string[])[0]))?.source_id).toBe('dc_gis_square_points');
    }
  });
});

describe('OTR\'s price 0 in OTR\'s words: "non-market or no price"', () => {
  it('v3 transfer says non_market_or_no_price, v2 and v4 notes say "non-market or no price", the catalogs never "non-market transfer" alone', async () => {
    const zero = store.searchRecords({ kind: 'sale', jurisdiction: '11001', filters: [{ field: 'last_sale_price', op: 'eq', value: 0 }], limit: 1 }).items[0];
    const ref = zero?.q_ids.find((id) => id.startsWith('prop_'));
    if (!ref) throw new Error('the sample has a price-0 sale');
    const { item } = await subjectReport(ref);
    const transfer = obj(obj(item['sections'])['transfer']);
    expect(transfer).toMatchObject({ price_dollars: 0, acceptance_code: 'non_market_or_no_price' });
    expect(String(transfer['acceptance_basis'])).toMatch(/non-market or no price/);

    expect(String(obj((await summary(ref))['last_sale_price_dollars'])['note'])).toMatch(/non-market or no price/);
    const { entity } = await v2Entity(ref);
    expect(String(obj(obj(entity['attributes'])['last_sale_price_dollars'])['note'])).toMatch(/non-market or no price/);

    for (const facet of ['coverage', 'dictionary']) {
      const res = await svc.call(`/api/v2/catalog?facet=${facet}&page_size=200`);
      expect(res.text).not.toMatch(/non-market transfer\)|= non-market\)|0 = non-market(?! or)/);
    }
    const catalog = await svc.call('/api/v3/record-queries', { method: 'POST', idempotencyKey: 'catalog', json: { mode: 'catalog', dataset: 'sales' } });
    expect(catalog.text).toMatch(/non-market transfer or no price/);
  });
});
