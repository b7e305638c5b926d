import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSampleFixture } from '../electron/local-service/sample-fixture.ts';
import { openSampleStore } from '../electron/local-service/sample-store.ts';
import type { SampleStore } from '../electron/local-service/sample-store.ts';
import { buildSampleData, entityId, entityKeys, recordRef, typedCell } from './build-sample-data.ts';
import type { BuildReport } from './build-sample-data.ts';
import { parseSsl } from '../electron/local-service/sample-keys.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

describe('id derivation', () => {
  it('gives each entity key one stable id in the spec format', () => {
    const ssl = parseSsl('0150    0295')!;
    const id = entityId('parc', entityKeys.dcParcel(ssl));
    expect(id).toMatch(new RegExp(`^parc_${UUID}$`));
    expect(entityId('parc', entityKeys.dcParcel(parseSsl('0150 0295')!))).toBe(id);
    // One SSL is a parcel, an account and (for a unit) a unit: different keys, different ids.
    expect(entityId('acct', entityKeys.dcAccount(ssl)).slice(5)).not.toBe(id.slice(5));
  });

  it('keys the BD form of an OTR row to the same parcel as its canonical row, but a property of its own', () => {
    expect(entityKeys.dcParcel(parseSsl('BD0004510022')!)).toBe(entityKeys.dcParcel(parseSsl('0451    0022')!));
    expect(entityKeys.dcProperty('BD0004510022')).not.toBe(entityKeys.dcProperty('0451    0022'));
  });

  it('derives record refs from source and row key', () => {
    const ref = recordRef('dc_otr_sale', '0065    0007');
    expect(ref).toMatch(new RegExp(`^rec_${UUID}$`));
    expect(recordRef('dc_otr_sale', '0065    0007')).toBe(ref);
    expect(recordRef('dc_otr_ownership', '0065    0007')).not.toBe(ref);
  });
});

describe('typedCell', () => {
  it('converts by column type and keeps empty as null', () => {
    expect(typedCell('1361000', 'number', 'x')).toBe(1361000);
    expect(typedCell('0.000000', 'number', 'x')).toBe(0);
    expect(typedCell('-77.04', 'number', 'x')).toBe(-77.04);
    expect(typedCell('', 'number', 'x')).toBeNull();
    expect(typedCell('NA', 'string', 'x')).toBeNull();
    expect(typedCell('0065', 'string', 'x')).toBe('0065');
    expect(typedCell('2013-12-17', 'date', 'x')).toBe('2013-12-17');
    expect(typedCell('2012-01-03T00:00:00.000Z', 'date', 'x')).toBe('2012-01-03T00:00:00.000Z');
  });

  it('refuses a value that does not fit its column', () => {
    expect(() => typedCell('12a', 'number', 'otr row 2 assessment_2016')).toThrow(/otr row 2 assessment_2016/);
    expect(() => typedCell('17/12/2013', 'date', 'x')).toThrow(/ISO date/);
  });
});

describe('buildSampleData on the fixture', () => {
  let fromDir: string;
  let outDir: string;
  let report: BuildReport;
  let store: SampleStore;

  beforeAll(() => {
    const root = mkdtempSync(path.join(tmpdir(), 'plat-build-'));
    fromDir = path.join(root, 'data');
    outDir = path.join(root, 'out');
    writeSampleFixture(fromDir);
    report = buildSampleData({ fromDir, outDir });
    store = openSampleStore(report.dbPath);
  });
  afterAll(() => store.close());

  it('makes one record per source row per kind', () => {
    expect(report.recordsBySource).toEqual({
      dc_otr_ownership: 9,
      dc_otr_assessment: 8, // the BD row has no assessment
      dc_otr_sale: 4, // only rows with a recordation date
      dc_dcra_new_building_permits: 5,
      dc_cama_residential: 5,
      dc_gis_square_points: 3,
      va_alexandria_parcels: 5, // a row published twice stays two records
      va_alexandria_address_points: 4,
      plat_synthetic_characteristics: 4,
    });
    // The two permits giving the placeholder SSL 0000 0000 add their addresses, and no parcel.
    expect(report.entitiesByKind).toEqual({ acct: 12, addr: 14, parc: 10, prop: 13, unit: 2 });
  });

  it('writes a manifest with input hashes and counts', () => {
    const manifest = JSON.parse(readFileSync(report.manifestPath, 'utf8')) as {
      schema_version: number; inputs: Array<{ path: string; sha256: string }>; tables: Record<string, number>; records_by_source: Record<string, number>;
    };
    expect(manifest.schema_version).toBe(1);
    expect(manifest.inputs.map((i) => i.path)).toContain('dc/otr_real_property_old_city_ii.csv');
    expect(manifest.inputs.every((i) => /^[0-9a-f]{64}$/.test(i.sha256))).toBe(true);
    expect(manifest.tables).toEqual(report.tables);
    expect(manifest.records_by_source).toEqual(report.recordsBySource);
  });

  it('is deterministic and rerunnable: the same input gives the same bytes', () => {
    const again = buildSampleData({ fromDir, outDir: path.join(outDir, '..', 'again') });
    expect(readFileSync(again.dbPath).equals(readFileSync(report.dbPath))).toBe(true);
    expect(readFileSync(again.manifestPath, 'utf8')).toBe(readFileSync(report.manifestPath, 'utf8'));
    // Building over an existing output replaces it.
    const over = buildSampleData({ fromDir, outDir: path.join(outDir, '..', 'again') });
    expect(over.tables).toEqual(report.tables);
  });

  it('gives the BD and canonical OTR rows of one SSL two properties on one account and parcel', () => {
    const candidates = store.resolveIdentifier('ssl', '0451 0022');
    expect(candidates.filter((c) => c.prefix === 'prop')).toHaveLength(2);
    expect(candidates.filter((c) => c.prefix === 'acct')).toHaveLength(1);
    expect(candidates.filter((c) => c.prefix === 'parc')).toHaveLength(1);
  });

  it('makes condominium lots units, and a possessory interest neither parcel nor unit', () => {
    const unit = store.resolveIdentifier('ssl', '0484    2001');
    expect(unit.map((c) => c.prefix).sort()).toEqual(['acct', 'prop', 'unit']);
    const pi = store.resolveIdentifier('ssl', 'PI0002040015');
    expect(pi.map((c) => c.prefix).sort()).toEqual(['acct', 'prop']);
  });

  it('imputes characteristics from the nearest same-use CAMA records, one per lot, within 1 km', () => {
    const imputed = store.searchRecords({ kind: 'imputed_characteristics', jurisdiction: '11001' }).items;
    const cama = store.searchRecords({ kind: 'residential_characteristics', jurisdiction: '11001' }).items;
    const bySsl = new Map(imputed.map((r) => [r.data['ssl'], r.data]));
    // Square 0065, use 24: lots in SSL order take the CAMA records 70, 74 and 76 m away.
    expect(bySsl.get('0065    0004')).toMatchObject({ use_code: '24', distance_m: 70, rank_in_square: 1, cama_record_ref: cama[1]?.record_ref, GBA: 2526 });
    expect(bySsl.get('0065    0007')).toMatchObject({ distance_m: 74, rank_in_square: 2, cama_record_ref: cama[2]?.record_ref });
    expect(bySsl.get('0065    0008')).toMatchObject({ distance_m: 76, rank_in_square: 3, cama_record_ref: cama[3]?.record_ref });
    // Use 11 takes the one nearby use-11 record; the use-11 record 4 km away is never used.
    expect(bySsl.get('0065    0010')).toMatchObject({ use_code: '11', cama_record_ref: cama[0]?.record_ref });
    expect(imputed.map((r) => r.data['cama_record_ref'])).not.toContain(cama[4]?.record_ref);
    // No CAMA record of use 64 exists, and condominium units are never imputed.
    expect(bySsl.has('0451    0022')).toBe(false);
    expect(bySsl.has('0484    2001')).toBe(false);
    expect(imputed.every((r) => r.citation.synthetic && r.citation.publisher === 'Plat synthetic sample (not a public record)')).toBe(true);
  });

  it('places an Alexandria parcel the publisher left unmatched on its address point by normalised address', () => {
    const [parcel] = store.resolveIdentifier('account_no', '14738505').filter((c) => c.prefix === 'parc');
    const entity = store.getEntity(parcel!.entity_id)!;
    expect(entity.location).toMatchObject({ lat: 38.8163, lon: -77.0612, precision: 'address_point' });
    expect(entity.location?.citation.source_id).toBe('va_alexandria_address_points');
  });

  it('links permits to OTR lots by SSL, and by address only where the permit names no SSL', () => {
    const permits = store.searchRecords({ kind: 'permit', jurisdiction: '11' }).items;
    const bySsl = permits.find((p) => p.data['PERMIT_ID'] === 'B1500001')!;
    const byAddress = permits.find((p) => p.data['PERMIT_ID'] === 'B1500002')!;
    const elsewhere = permits.find((p) => p.data['PERMIT_ID'] === 'B1110917')!;
    const [kuipers] = store.resolveIdentifier('ssl', '0065 0007').filter((c) => c.prefix === 'prop');
    expect(bySsl.q_ids).toContain(kuipers!.entity_id);
    const links = store.relationships(kuipers!.entity_id, { predicates: ['permitted_by'] });
    expect(links).toMatchObject([{ object_ref: bySsl.record_ref, object_type: 'record', method: 'ssl_match', precision: 'exact' }]);
    const [bank] = store.resolveAddress('1716 21ST ST NW').candidates.filter((c) => c.prefix === 'prop');
    expect(store.relationships(bank!.entity_id, { predicates: ['permitted_by'] })).toMatchObject([
      { object_ref: byAddress.record_ref, method: 'address_match', precision: 'approximate', basis: '1716 21ST ST NW' },
    ]);
    expect(byAddress.location).toBeNull(); // the permit layer's 0,0 is no point
    expect(elsewhere.q_ids.some((id) => id.startsWith('prop_'))).toBe(false);
  });

  it('makes no parcel of a placeholder SSL: the permits giving it stay apart, each saying why', () => {
    const placeholder = entityId('parc', entityKeys.dcParcel(parseSsl('0000    0000')!));
    expect(store.getEntity(placeholder)).toBeNull();
    expect(store.resolveIdentifier('ssl', '0000 0000')).toEqual([]);
    const permits = store.searchRecords({ kind: 'permit', jurisdiction: '11' }).items.filter((p) => p.data['SSL'] === '0000    0000');
    expect(permits.map((p) => p.data['PERMIT_ID'])).toEqual(['B1401123', 'B1502153']);
    for (const permit of permits) {
      // About its own address only, never a parcel, unit or lot.
      expect(permit.q_ids.map((id) => id.slice(0, 5))).toEqual(['addr_']);
      expect(permit.limitations).toEqual([
        'Its published SSL "0000 0000" is a placeholder (square and lot 0000), not a valid parcel key: the permit is linked to no parcel, unit or lot by it, and other permits giving it are not thereby about the same land.',
      ]);
    }
    // The two addresses do not meet through it.
    const [trailers, gatehouse] = permits.map((p) => p.q_ids[0]!);
    expect(store.connected(trailers!, { depth: 3 })?.items.map((item) => item.entity_id)).not.toContain(gatehouse);
    // The id such a parcel would have is known, so an answer about it can say why it does not exist.
    expect(store.missingEntityNote(placeholder)).toBe(
      `${placeholder} would be the parcel of SSL 0000 0000, a placeholder (square or lot 0000), not a valid parcel key: the sample makes no parcel of it, and the 2 permits that give it keep only their own addresses.`,
    );
    expect(store.missingEntityNote(entityId('parc', entityKeys.dcParcel(parseSsl('0065 0099')!)))).toBeNull();
    // A permit with a real SSL says nothing of the kind.
    expect(store.searchRecords({ kind: 'permit', jurisdiction: '11' }).items.find((p) => p.data['PERMIT_ID'] === 'B1500001')?.limitations).toEqual([]);
  });

  it('refuses an input whose columns differ from the expected ones', () => {
    const bad = mkdtempSync(path.join(tmpdir(), 'plat-build-bad-'));
    writeSampleFixture(bad);
    writeFileSync(path.join(bad, 'dc/geo/dc_square_centroids.csv'), 'square,lat,lon\n0065,38.9,-77.0\n');
    expect(() => buildSampleData({ fromDir: bad, outDir: path.join(bad, 'out') })).toThrow(/dc_square_centroids\.csv: columns/);
  });
});
