import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleFixture } from './sample-fixture.ts';
import { SAMPLE_ID_NAMESPACE, SYNTHETIC_DATASET_NAME, relationshipRef, uuidV5 } from './sample-keys.ts';
import { SampleStoreError, defaultSampleDbPath, openSampleStore } from './sample-store.ts';
import type { Citation, SampleStore } from './sample-store.ts';
import { SYNTHETIC_PUBLISHER } from './sample-test-kit.ts';

/** A value is cited to the synthetic source exactly when it is synthetic: never a made-up value under a real publisher. */
function expectHonestCitation(citation: Citation, synthetic: boolean): void {
  expect(citation.synthetic).toBe(synthetic);
  expect(citation.publisher === SYNTHETIC_PUBLISHER).toBe(synthetic);
  expect(citation.record_ref).toMatch(/^rec_/);
  expect(citation.dataset).not.toBe('');
  expect(citation.as_of).toMatch(/^\d{4}-\d{2}-\d{2}T/);
}

describe('sample store over the fixture', () => {
  let store: SampleStore;
  const prop = (ssl: string) => store.resolveIdentifier('ssl', ssl).find((c) => c.prefix === 'prop')!.entity_id;
  const acct = (ssl: string) => store.resolveIdentifier('ssl', ssl).find((c) => c.prefix === 'acct')!.entity_id;

  beforeAll(() => {
    store = openSampleStore(buildSampleFixture().dbPath);
  });
  afterAll(() => store.close());

  describe('sources', () => {
    it('lists one source per dataset and kind, by state or county', () => {
      expect(store.listSources()).toHaveLength(9);
      expect(store.listSources({ jurisdiction: '51' }).map((s) => s.source_id)).toEqual(['va_alexandria_parcels', 'va_alexandria_address_points']);
      expect(store.listSources({ jurisdiction: '11' })).toEqual(store.listSources({ jurisdiction: '11001' }));
      expect(store.listSources({ jurisdiction: '24' })).toEqual([]);
      expect(store.kinds('51')).toEqual(['parcel', 'address']);
      for (const s of store.listSources()) {
        expect(s.source_id).toMatch(/^[a-z0-9_]{1,100}$/);
        expect(s.kind).toMatch(/^[a-z_]{1,40}$/);
        expect(s.fields.length).toBeGreaterThan(0);
      }
    });

    it('describes each field with the publisher’s name, a type and an example', () => {
      const otr = store.getSource('dc_otr_sale')!;
      expect(otr).toMatchObject({ publisher: 'DC Office of Tax and Revenue', jurisdiction: '11001', state: '11', as_of: '2017-02-05T00:00:00Z', release_id: 20170205, records: 4, synthetic: false });
      expect(otr.fields.find((f) => f.name === 'last_sale_price')).toMatchObject({ type: 'number', example: 1361000 });
      expect(store.getSource('plat_synthetic_characteristics')).toMatchObject({ synthetic: true, publisher: SYNTHETIC_PUBLISHER });
      expect(store.getSource('nope')).toBeNull();
    });
  });

  describe('searchRecords', () => {
    it('finds by the publisher’s value, ignoring case and spacing', () => {
      const page = store.searchRecords({ kind: 'ownership', jurisdiction: '11', filters: [{ field: 'owner', op: 'eq', value: 'joel kuipers' }] });
      expect(page.items.map((r) => r.data['ssl'])).toEqual(['0065    0007', '0065    0010']);
      const record = page.items[0]!;
      expect(record).toMatchObject({ kind: 'ownership', source_id: 'dc_otr_ownership', jurisdiction: '11001', published_at: '2017-02-05T00:00:00Z' });
      expect(record.data).toMatchObject({ last_sale_price: 1361000, suffix: null, use_code: '24' });
      expect(record.location).toEqual({ lat: 38.912976, lon: -77.047037, precision: 'square_centroid' });
      expect(record.q_ids.map((id) => id.slice(0, 4)).sort()).toEqual(['acct', 'addr', 'parc', 'prop']);
      expectHonestCitation(record.citation, false);
    });

    it('combines equality and gte, numbers and dates', () => {
      const rich = store.searchRecords({ kind: 'sale', jurisdiction: '11001', filters: [{ field: 'last_sale_price', op: 'gte', value: 900000 }] });
      expect(rich.items.map((r) => r.data['last_sale_price'])).toEqual([1361000, 950000]);
      const recentCondo = store.searchRecords({
        kind: 'sale', jurisdiction: '11',
        filters: [{ field: 'last_sale_recordation_date', op: 'gte', value: '2008-01-01' }, { field: 'use_code', op: 'eq', value: 17 }],
      });
      expect(recentCondo.items.map((r) => r.data['ssl'])).toEqual(['0484    2002']);
      expect(store.searchRecords({ kind: 'sale', jurisdiction: '11', filters: [{ field: 'last_sale_price', op: 'gte', value: '1000000' }] }).total).toBe(1);
    });

    it('keeps to the jurisdiction and the source asked for', () => {
      expect(store.searchRecords({ kind: 'ownership', jurisdiction: '51' }).total).toBe(0);
      expect(store.searchRecords({ kind: 'parcel', jurisdiction: '51510' }).total).toBe(5);
      expect(store.searchRecords({ kind: 'ownership', jurisdiction: '11', sourceId: 'dc_otr_sale' }).total).toBe(0);
      expect(store.searchRecords({ kind: 'no_such_kind', jurisdiction: '11' })).toEqual({ items: [], total: 0, nextCursor: null });
    });

    it('pages in a stable order with a cursor, every record once', () => {
      const all = store.searchRecords({ kind: 'ownership', jurisdiction: '11', limit: 100 });
      expect(all.total).toBe(9);
      expect(all.nextCursor).toBeNull();
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = store.searchRecords({ kind: 'ownership', jurisdiction: '11', limit: 2, cursor });
        expect(page.total).toBe(9);
        seen.push(...page.items.map((r) => r.record_ref));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(all.items.map((r) => r.record_ref));
      const filtered = store.searchRecords({ kind: 'ownership', jurisdiction: '11', limit: 1, filters: [{ field: 'owner', op: 'eq', value: 'JOEL KUIPERS' }] });
      const second = store.searchRecords({ kind: 'ownership', jurisdiction: '11', limit: 1, filters: [{ field: 'owner', op: 'eq', value: 'JOEL KUIPERS' }], cursor: filtered.nextCursor });
      expect(second.items[0]?.data['ssl']).toBe('0065    0010');
      expect(second.nextCursor).toBeNull();
    });

    it('rejects unknown fields, bad operators, too many filters and foreign cursors', () => {
      const code = (fn: () => unknown) => {
        try {
          fn();
        } catch (error) {
          return error instanceof SampleStoreError ? error.code : 'other';
        }
        return 'none';
      };
      expect(code(() => store.searchRecords({ kind: 'sale', jurisdiction: '11', filters: [{ field: 'OWNER', op: 'eq', value: 'x' }] }))).toBe('unknown_field');
      expect(code(() => store.searchRecords({ kind: 'sale', jurisdiction: '11', filters: [{ field: 'owner', op: 'gte', value: 'A' }] }))).toBe('invalid_filter');
      expect(code(() => store.searchRecords({ kind: 'sale', jurisdiction: '11', filters: [{ field: 'last_sale_price', op: 'gte', value: 'lots' }] }))).toBe('invalid_filter');
      const six = Array.from({ length: 6 }, () => ({ field: 'owner', op: 'eq' as const, value: 'x' }));
      expect(code(() => store.searchRecords({ kind: 'sale', jurisdiction: '11', filters: six }))).toBe('invalid_filter');
      expect(code(() => store.searchRecords({ kind: 'sale', jurisdiction: '11', cursor: 'abc' }))).toBe('invalid_cursor');
      expect(code(() => store.searchRecords({ kind: 'sale', jurisdiction: '11', limit: 101 }))).toBe('invalid_argument');
    });
  });

  describe('records and entities', () => {
    it('gets records by ref, in the order asked, skipping unknown refs', () => {
      const [a, b] = store.searchRecords({ kind: 'permit', jurisdiction: '11', limit: 2 }).items;
      expect(store.getRecord(a!.record_ref)).toEqual(a);
      expect(store.getRecords([b!.record_ref, 'rec_00000000-0000-5000-8000-000000000000', a!.record_ref]).map((r) => r.record_ref)).toEqual([b!.record_ref, a!.record_ref]);
      expect(store.getRecord('not a ref')).toBeNull();
    });

    it('returns an entity with identifiers, real attributes, its records and a cited location', () => {
      const entity = store.getEntity(prop('0065 0007'))!;
      expect(entity).toMatchObject({ entity_kind: 'property', area_uid: 'area_us_dc', status: 'current', coverage_status: 'available', valid_to: null });
      expect(entity.identifiers).toEqual([{ scheme: 'ssl', value: '0065    0007' }, { scheme: 'address', value: '1708 21ST ST NW' }]);
      expect(entity.attributes).toMatchObject({ owner_name: 'JOEL KUIPERS', assessed_value_dollars: 1302760, assessment_year: 2016, last_sale_price_dollars: 1361000, last_sale_date: '2013-12-17' });
      // Synthetic characteristics are facts with a synthetic citation, never attributes.
      expect(entity.attributes).not.toHaveProperty('year_built');
      expect(entity.sources.map((s) => s.source_id)).toEqual(['dc_otr_ownership', 'dc_otr_assessment', 'dc_otr_sale', 'dc_dcra_new_building_permits', 'plat_synthetic_characteristics']);
      expect(entity.valid_from).toBe('2016-01-22');
      expect(entity.location).toMatchObject({ lat: 38.912976, lon: -77.047037, precision: 'square_centroid' });
      expect(entity.location?.citation.source_id).toBe('dc_gis_square_points');
      expect(store.getEntity('prop_00000000-0000-5000-8000-000000000000')).toBeNull();
      // The right uuid under the wrong prefix is not the entity.
      expect(store.getEntity(entity.entity_id.replace('prop_', 'parc_'))).toBeNull();
    });

    it('lists the records about an entity, by kind', () => {
      const about = store.recordsAbout(prop('0065 0007'));
      expect(about.map((r) => r.kind)).toEqual(['ownership', 'assessment', 'sale', 'permit', 'imputed_characteristics']);
      expect(store.recordsAbout(prop('0065 0007'), { kind: 'sale' })).toHaveLength(1);
    });
  });

  describe('relationships', () => {
    it('links a property to its account, parcel and address, each link explained and cited', () => {
      const links = store.relationships(prop('0065 0007'), { direction: 'out', includeRecordObjects: false });
      expect(links.map((l) => [l.predicate, l.object_ref.slice(0, 4), l.method, l.precision, l.confidence])).toEqual([
        ['located_in', 'parc', 'ssl_match', 'exact', 1],
        ['taxed_in', 'acct', 'same_row', 'exact', 1],
        ['served_by', 'addr', 'same_row', 'exact', 1],
      ]);
      for (const link of links) {
        expect(link.relationship_ref).toBe(relationshipRef(link.subject_ref, link.predicate, link.object_ref));
        expect(link.source_refs.length).toBeGreaterThan(0);
        expect(link.explanation).not.toBe('');
        expect(link.valid_from).toBe('2017-02-05');
      }
    });

    it('answers from either end', () => {
      const account = acct('0065 0007');
      const incoming = store.relationships(account, { direction: 'in', predicates: ['taxed_in'] });
      expect(incoming).toHaveLength(1);
      expect(incoming[0]).toMatchObject({ subject_ref: prop('0065 0007'), direction: 'in' });
    });

    it('links tax accounts whose owner names match after normalisation, as a lead', () => {
      const links = store.relationships(acct('0065 0007'), { predicates: ['same_owner'] });
      expect(links).toHaveLength(1);
      const link = links[0]!;
      expect(link).toMatchObject({ predicate: 'same_owner', method: 'owner_name_match', precision: 'approximate', basis: 'JOEL KUIPERS' });
      expect(link.confidence).toBeLessThan(1);
      expect([link.subject_ref, link.object_ref].sort()).toEqual([acct('0065 0007'), acct('0065 0010')].sort());
      expect(store.getRecords(link.source_refs).map((r) => r.data['owner'])).toEqual(['JOEL KUIPERS', 'Joel  Kuipers']);
      // The same link seen from the other account has the same ref.
      const back = store.relationships(acct('0065 0010'), { predicates: ['same_owner'] })[0]!;
      expect(back.relationship_ref).toBe(link.relationship_ref);
      expect(back.direction).not.toBe(link.direction);
      // An organisation's name is a stronger lead than a person's.
      const acme = store.relationships(acct('0484 2001'), { predicates: ['same_owner'] })[0]!;
      expect(acme.basis).toBe('ACME LLC');
      expect(acme.confidence).toBeGreaterThan(link.confidence);
    });

    it('walks links breadth first, each entity once at its least depth', () => {
      const start = acct('0065 0007');
      const one = store.connected(start, { depth: 1 })!;
      expect(one.items.every((i) => i.depth === 1 && i.via === start)).toBe(true);
      expect(one.items.map((i) => i.relation).sort()).toEqual(['assessed_in', 'same_owner', 'taxed_in']);
      const three = store.connected(start, { depth: 3 })!;
      const ids = three.items.map((i) => i.entity_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).not.toContain(start);
      // Through the other Kuipers account, its property and address are reached.
      expect(ids).toContain(prop('0065 0010'));
      const reached = new Set([start, ...ids]);
      expect(three.items.every((i) => reached.has(i.via))).toBe(true);
      expect(store.connected(start, { depth: 3, predicates: ['taxed_in'] })!.items.map((i) => i.entity_id)).toEqual([prop('0065 0007')]);
      expect(store.connected(start, { depth: 3, maxNodes: 2 })).toMatchObject({ truncated: true, items: { length: 2 } });
      expect(() => store.connected(start, { depth: 4 })).toThrow(SampleStoreError);
      expect(store.connected('acct_00000000-0000-5000-8000-000000000000')).toBeNull();
    });
  });

  describe('traverse', () => {
    it('returns the nodes and every followed edge once, within depth, direction and caps', () => {
      const start = prop('0065 0007');
      const out = store.traverse(start, { depth: 1, direction: 'out' })!;
      expect(out.root_ref).toBe(start);
      expect(out.nodes.map((n) => [n.prefix, n.depth])).toEqual([['prop', 0], ['parc', 1], ['acct', 1], ['addr', 1]]);
      expect(out.edges.every((e) => e.subject_ref === start)).toBe(true);
      const wide = store.traverse(start, { depth: 3 })!;
      const ids = new Set(wide.nodes.map((n) => n.entity_id));
      expect(ids.size).toBe(wide.nodes.length);
      expect(wide.edges.every((e) => ids.has(e.subject_ref) && ids.has(e.object_ref))).toBe(true);
      expect(new Set(wide.edges.map((e) => e.relationship_ref)).size).toBe(wide.edges.length);
      expect(wide.edges.some((e) => e.predicate === 'same_owner')).toBe(true);
      const capped = store.traverse(start, { depth: 3, maxNodes: 3, maxEdges: 2 })!;
      expect(capped.truncated).toBe(true);
      expect(capped.nodes.length).toBeLessThanOrEqual(3);
      expect(capped.edges).toHaveLength(2);
    });
  });

  describe('owners', () => {
    it('finds every holding under an exact normalised name', () => {
      const { owners, total } = store.findOwners('Joel Kuipers');
      expect(total).toBe(1);
      expect(owners[0]).toMatchObject({ owner_key: 'JOEL KUIPERS', match: 'exact', names_as_published: ['JOEL KUIPERS', 'Joel  Kuipers'] });
      expect(owners[0]!.holdings.map((h) => h.ssl)).toEqual(['0065    0007', '0065    0010']);
      for (const h of owners[0]!.holdings) expectHonestCitation(h.citation, false);
    });

    it('finds partial names case-insensitively, exact first', () => {
      expect(store.findOwners('kuip').total).toBe(0);
      expect(store.findOwners('kuip', { match: 'partial' }).owners.map((o) => o.owner_key)).toEqual(['JOEL KUIPERS']);
      const acme = store.findOwners('acme l.l.c.', { match: 'partial' }).owners[0]!;
      expect(acme.holdings.map((h) => h.owner_name)).toEqual(['ACME, L.L.C.', 'Acme LLC']);
      expect(acme.holdings.every((h) => h.land_id?.startsWith('unit_'))).toBe(true);
      expect(store.findOwners('  ').total).toBe(0);
    });
  });

  describe('resolution', () => {
    it('resolves an address with a unit exactly, and to its building as a premise match', () => {
      const result = store.resolveAddress('555 Massachusetts Avenue NW #102');
      expect(result.normalised?.full).toBe('555 MASSACHUSETTS AVE NW UNIT 102');
      expect(result.candidates.map((c) => [c.prefix, c.match])).toEqual([['prop', 'exact'], ['unit', 'exact'], ['addr', 'premise']]);
    });

    it('falls back to partial matches at word starts', () => {
      const partial = store.resolveAddress('21st st');
      expect(partial.candidates.length).toBeGreaterThan(0);
      expect(partial.candidates.every((c) => c.match === 'partial' && c.matched_value.includes(' 21ST ST'))).toBe(true);
      expect(store.resolveAddress('1ST ST').total).toBe(0); // not inside "21ST"
      expect(store.resolveAddress('2109 East Mt Vernon Av', { areaUid: 'area_us_va_alexandria' }).total).toBe(0); // EAST is a street word, not E
      expect(store.resolveAddress('2109 E MT VERNON AV', { areaUid: 'area_us_va_alexandria' }).candidates[0]).toMatchObject({ prefix: 'addr', match: 'exact' });
      expect(store.resolveAddress('2109 E MT VERNON AV', { areaUid: 'area_us_dc' }).total).toBe(0);
    });

    it('resolves SSLs in either form, account numbers and MAR ids', () => {
      const canonical = store.resolveIdentifier('ssl', '0451    0022').map((c) => c.entity_id);
      expect(store.resolveIdentifier('ssl', 'BD0004510022').map((c) => c.entity_id)).toEqual(canonical);
      expect(store.resolveIdentifier('ssl_as_published', 'BD0004510022').map((c) => c.entity_id)).toEqual(canonical);
      expect(store.resolveIdentifier('account_no', '13615500').map((c) => c.prefix)).toEqual(['prop', 'parc', 'acct']);
      expect(store.resolveIdentifier('mar_id', '240001').map((c) => [c.prefix, c.matched_value])).toEqual([['addr', '240001']]);
      expect(store.resolveIdentifier('mar_id', '-100')).toEqual([]);
      expect(() => store.resolveIdentifier('parcel_number', '1')).toThrow(SampleStoreError);
    });
  });

  describe('property search', () => {
    it('filters an area on facts, sorts and pages', () => {
      const all = store.searchProperties({ areaUid: 'area_us_dc', limit: 100 });
      expect(all.total).toBe(9);
      const rich = store.searchProperties({
        areaUid: 'area_us_dc',
        filters: [{ field: 'assessed_value_dollars', op: 'gte', value: 1000000 }, { field: 'address', op: 'contains', value: '21st' }],
        sort: { field: 'assessed_value_dollars', direction: 'desc' },
      });
      expect(rich.items.map((p) => p.attributes.assessed_value_dollars)).toEqual([1540590, 1302760, 1244510]);
      const page2 = store.searchProperties({ areaUid: 'area_us_dc', sort: { field: 'assessed_value_dollars', direction: 'desc' }, offset: 1, limit: 1 });
      expect(page2.items[0]?.attributes.assessed_value_dollars).toBe(1540590);
      expect(store.searchProperties({ areaUid: 'area_us_dc', filters: [{ field: 'imputed_bedrooms', op: 'gte', value: 5 }] }).items.map((p) => p.attributes.ssl)).toEqual(['0065    0008']);
      expect(store.searchProperties({ areaUid: 'area_us_va_alexandria', filters: [{ field: 'land_use', op: 'eq', value: 'detached house' }] }).total).toBe(1);
      expect(store.searchProperties({ areaUid: 'area_us_md', limit: 5 }).total).toBe(0);
      expect(() => store.searchProperties({ areaUid: 'area_us_dc', filters: [{ field: 'price' as 'ssl', op: 'eq', value: 1 }] })).toThrow(SampleStoreError);
    });
  });

  describe('property aggregation', () => {
    it('counts and measures an area’s properties by a fact', () => {
      expect(store.aggregateProperties({ areaUid: 'area_us_dc', groupBy: 'use_code' })).toEqual([
        { group: '24', count: 3, value: null, measured: 0 },
        { group: '17', count: 2, value: null, measured: 0 },
        { group: '64', count: 2, value: null, measured: 0 },
        { group: '11', count: 1, value: null, measured: 0 },
        { group: '49', count: 1, value: null, measured: 0 },
      ]);
      const [median] = store.aggregateProperties({ areaUid: 'area_us_dc', filters: [{ field: 'use_code', op: 'eq', value: '24' }], measure: { op: 'median', field: 'assessed_value_dollars' } });
      expect(median).toEqual({ group: null, count: 3, value: 1302760, measured: 3 });
      expect(() => store.aggregateProperties({ areaUid: 'area_us_dc', measure: { op: 'sum' } })).toThrow(SampleStoreError);
    });
  });

  describe('sales near a point', () => {
    const at = { lat: 38.912976, lon: -77.047037 };

    it('returns dated sales within the radius, nearest first, latest first at one distance', () => {
      const sales = store.salesNear({ ...at, radiusMiles: 0.5 });
      expect(sales.map((s) => s.sale_date)).toEqual(['2016-06-01', '2013-12-17']);
      expect(sales.every((s) => s.kind === 'sale' && s.location.precision === 'square_centroid' && s.property_id?.startsWith('prop_'))).toBe(true);
      expect(store.salesNear({ ...at, radiusMiles: 2 }).map((s) => s.sale_date)).toEqual(['2016-06-01', '2013-12-17', '2010-05-05', '2006-01-20']);
    });

    it('filters on date, price, use and market status', () => {
      expect(store.salesNear({ ...at, radiusMiles: 2, fromDate: '2010-01-01', toDate: '2014-12-31' }).map((s) => s.sale_date)).toEqual(['2013-12-17', '2010-05-05']);
      expect(store.salesNear({ ...at, radiusMiles: 2, marketOnly: true }).every((s) => s.price_dollars > 0)).toBe(true);
      expect(store.salesNear({ ...at, radiusMiles: 2, useCodes: ['17'] }).map((s) => s.use_code)).toEqual(['17', '17']);
      expect(store.salesNear({ ...at, radiusMiles: 2, minPriceDollars: 1000000 })).toHaveLength(1);
    });

    it('adds undated CAMA sales only when asked and no date filter applies', () => {
      const withCama = store.salesNear({ ...at, radiusMiles: 0.5, includeUndated: true });
      const cama = withCama.filter((s) => s.source_id === 'dc_cama_residential');
      expect(cama).toHaveLength(4);
      expect(cama.every((s) => s.sale_date === null && s.property_id === null)).toBe(true);
      expect(cama.find((s) => s.price_dollars === 664150)?.market_sale).toBe(false); // QUALIFIED = U
      expect(withCama.map((s) => s.distance_miles)).toEqual([...withCama.map((s) => s.distance_miles)].sort((a, b) => a - b));
      expect(store.salesNear({ ...at, radiusMiles: 0.5, includeUndated: true, fromDate: '2000-01-01' }).some((s) => s.sale_date === null)).toBe(false);
      for (const s of withCama) expectHonestCitation(s.citation, false);
    });

    it('keeps undated CAMA sales despite date filters when asked to, and still windows the dated ones', () => {
      const windowed = store.salesNear({ ...at, radiusMiles: 2, includeUndated: true, undatedDespiteDates: true, fromDate: '2010-01-01', toDate: '2014-12-31' });
      expect(windowed.filter((s) => s.sale_date === null)).toHaveLength(4);
      expect(windowed.filter((s) => s.sale_date !== null).map((s) => s.sale_date)).toEqual(['2013-12-17', '2010-05-05']);
      // Without includeUndated the flag adds nothing.
      expect(store.salesNear({ ...at, radiusMiles: 2, undatedDespiteDates: true, fromDate: '2010-01-01' }).some((s) => s.sale_date === null)).toBe(false);
    });
  });

  describe('facts', () => {
    it('cites every fact, and labels imputed characteristics synthetic with the CAMA record they came from', () => {
      const facts = store.factsFor(prop('0065 0007'))!;
      for (const fact of facts.facts) expectHonestCitation(fact.citation, fact.synthetic);
      const owner = facts.facts.find((f) => f.field === 'owner_name')!;
      expect(owner).toMatchObject({ value: 'JOEL KUIPERS', source_field: 'owner', synthetic: false, method: 'as_published' });
      expect(owner.citation.source_id).toBe('dc_otr_ownership');
      const gba = facts.facts.find((f) => f.field === 'gross_building_area_sqft')!;
      expect(gba).toMatchObject({ value: 1200, synthetic: true, method: 'nearest_cama_same_usecode' });
      expect(store.getRecord(gba.derived_from!)?.data['GBA']).toBe(1200);
      expect(facts.limitations.join(' ')).toMatch(/synthetic/);
      // The record copied is chosen by rank within the square, not as the nearest to the lot: said so, never "nearest".
      expect(gba.note).toMatch(/number \d+ by distance among the records of its use code, one per lot of the square: not necessarily the record nearest this lot/);
      expect(gba.citation.dataset).toBe(SYNTHETIC_DATASET_NAME);
      expect(facts.limitations.join(' ')).not.toMatch(/nearby|imputed from the nearest/);
      expect(facts.permits).toMatchObject([{ permit_id: 'B1500001', method: 'ssl_match', status: 'PERMIT ISSUED' }]);
    });

    it('says what is missing rather than filling it', () => {
      const unit = store.factsFor(store.resolveIdentifier('ssl', '0484 2001').find((c) => c.prefix === 'unit')!.entity_id)!;
      expect(unit.facts.some((f) => f.synthetic)).toBe(false);
      expect(unit.limitations.join(' ')).toMatch(/condominium/);
      const va = store.factsFor(store.resolveIdentifier('account_no', '13195000')[0]!.entity_id)!;
      // The parcel layer's zip column was matched from the address point upstream: the ZIP is the
      // address point's, cited to it once, never to the parcel layer.
      expect(va.facts.map((f) => f.field)).toEqual(['account_no', 'address', 'land_use', 'zoning', 'address', 'zip']);
      expect(va.facts.find((f) => f.field === 'zip')?.citation.source_id).toBe('va_alexandria_address_points');
      expect(va.limitations.join(' ')).toMatch(/Alexandria/);
      expect(va.location?.precision).toBe('address_point');
      const nonMarket = store.factsFor(prop('0484 2002'))!.facts.find((f) => f.field === 'last_sale_price_dollars')!;
      expect(nonMarket).toMatchObject({ value: 0 });
      expect(nonMarket.note).toMatch(/non-market/);
    });

    it('gives an address entity only address facts', () => {
      const addr = store.resolveAddress('555 MASSACHUSETTS AVE NW').candidates.find((c) => c.prefix === 'addr')!;
      const facts = store.factsFor(addr.entity_id)!;
      expect(new Set(facts.facts.map((f) => f.field))).toEqual(new Set(['address']));
    });
  });
});

// The shipped database: built from the real records by `npm run sample-data`.
describe('the shipped sample database', () => {
  const dbPath = defaultSampleDbPath();
  const manifestPath = path.join(path.dirname(dbPath), 'manifest.json');
  let store: SampleStore;

  beforeAll(() => {
    if (!existsSync(dbPath)) throw new Error(`${dbPath} is missing: run npm run sample-data`);
    store = openSampleStore();
  });
  afterAll(() => store.close());

  it('matches its manifest', () => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { tables: Record<string, number>; records_by_source: Record<string, number> };
    expect(store.info().counts).toEqual(manifest.tables);
    expect(Object.fromEntries(store.listSources().map((s) => [s.source_id, s.records]))).toEqual(manifest.records_by_source);
  });

  it('holds the real OTR roll under stable record refs, cited to OTR', () => {
    // A record's ref is a v5 uuid of its source and row key, so it survives rebuilds.
    const record = store.getRecord(`rec_${uuidV5('record:dc_otr_ownership:0065    0007', SAMPLE_ID_NAMESPACE)}`);
    expect(record?.data).toMatchObject({ owner: 'JOEL KUIPERS', address: '1708 21ST ST NW', last_sale_price: 1361000 });
    expect(record?.citation.publisher).toBe('DC Office of Tax and Revenue');
    expect(store.getSource('dc_otr_ownership')?.records).toBe(18893);
  });

  it('keeps synthetic values under the synthetic source only', () => {
    for (const source of store.listSources()) {
      expect(source.synthetic).toBe(source.publisher === SYNTHETIC_PUBLISHER);
    }
    const sample = store.searchRecords({ kind: 'imputed_characteristics', jurisdiction: '11', limit: 5 }).items;
    for (const record of sample) {
      const property = record.q_ids.find((id) => id.startsWith('prop_'))!;
      for (const fact of store.factsFor(property)!.facts) expectHonestCitation(fact.citation, fact.synthetic);
    }
  });

  it('opens only a database it understands', () => {
    expect(() => openSampleStore(path.join(path.dirname(dbPath), 'missing.db'))).toThrow(/npm run sample-data/);
  });
});
