import { describe, expect, it } from 'vitest';
import { V2PropertySearchSchema, V2ResolutionsRequestSchema, type V2CatalogData } from '../../../shared/service/v2.ts';
import { independentCoverage } from '../../../shared/service/dialect-test-kit.ts';
import { ownerCoverage } from '../../components/owner-lookup.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { detectFindKind, FIND_MAX, readFind, resolutionCandidates, type FindReading } from './find-model.ts';

const ownerAreas = [{ areaUid: 'area_us_dc', name: 'Washington, DC', note: '' }];
const read = (text: string, chosen: Parameters<typeof readFind>[1] = {}) => readFind(text, { ownerAreas, ...chosen });
const ready = (reading: FindReading) => {
  if (reading.status !== 'ready') throw new Error(`expected a reading, got ${JSON.stringify(reading)}`);
  return reading;
};

describe('detectFindKind', () => {
  it.each([
    ['1708 21st St NW', 'address'],
    ['1708 21ST ST NW, Washington DC 20009', 'address'],
    ['304 adams av', 'address'],
    ['0065 0007', 'ssl'],
    ['0065    0007', 'ssl'],
    ['0065-0007', 'ssl'],
    ['0065/0007', 'ssl'],
    ['0242N 2035', 'ssl'],
    ['13195000', 'account_no'],
    ['013 195-000', 'account_no'],
    ['309673', 'mar_id'],
    ['prop_080b9725-3c84-5ba1-ab8d-a3891860e65b', 'entity_ref'],
    ['PROP_080B9725-3C84-5BA1-AB8D-A3891860E65B', 'entity_ref'],
    ['Kuipers', 'owner'],
    ['joel kuipers', 'owner'],
    ["O'Brien & Sons L.L.C.", 'owner'],
  ])('%s is read as %s', (text, kind) => {
    expect(detectFindKind(text)).toBe(kind);
  });
});

describe('readFind', () => {
  it('says nothing for an empty box', () => {
    expect(read('   ')).toEqual({ status: 'empty' });
  });

  it('looks an owner up in the jurisdiction a coverage without area ids says publishes owner names', () => {
    const reading = ready(readFind('joel kuipers', { ownerAreas: ownerCoverage(independentCoverage() as V2CatalogData).searchable }));
    expect(reading.area).toEqual({ areaUid: '11001', name: 'District of Columbia' });
    expect(reading.ask.operation).toBe('searchProperties');
  });

  it('sends an address in one form, however it is typed, and takes a typed city as the area', () => {
    const forms = ['1708 21st st nw', '1708 21ST ST NW', '  1708   21st St. NW ', '1708 21st St NW, Washington DC', '1708 21st st nw washington dc 20009'];
    const readings = forms.map((form) => ready(read(form)));
    for (const reading of readings) {
      expect(reading.kind).toBe('address');
      expect(reading.sent).toBe('1708 21ST ST NW');
      expect(reading.ask.operation).toBe('resolveEntities');
    }
    // Without a city, any area; the same request parts for both spellings (one cache key, one charge).
    expect(canonicalJson(readings[0]?.ask.request)).toBe(canonicalJson(readings[1]?.ask.request));
    expect(canonicalJson(readings[0]?.ask.request)).toBe(canonicalJson(readings[2]?.ask.request));
    expect(readings[3]?.area?.areaUid).toBe('area_us_dc');
    expect(readings[3]?.note).toBe('Washington, DC read as the area');
    // Every request is one the shared schema accepts.
    for (const reading of readings) expect(V2ResolutionsRequestSchema.safeParse(reading.ask.request.body).success).toBe(true);
  });

  it('sends every written form of an SSL as the records write it, in DC', () => {
    for (const form of ['0065 0007', '0065    0007', '0065-0007', '0065/0007', '65-7']) {
      const reading = ready(read(form));
      expect(reading.kind).toBe('ssl');
      expect(reading.sent).toBe('0065    0007');
      expect(reading.area?.areaUid).toBe('area_us_dc');
    }
  });

  it('reads 8 digits as an Alexandria account and an owner name as an owner search in the area that publishes names', () => {
    const account = ready(read('013195000'));
    expect(account.kind).toBe('account_no');
    expect(account.sent).toBe('13195000');
    expect(account.area?.areaUid).toBe('area_us_va_alexandria');

    const owner = ready(read('kuipers'));
    expect(owner.kind).toBe('owner');
    expect(owner.ask.operation).toBe('searchProperties');
    expect(owner.area?.areaUid).toBe('area_us_dc');
    expect(V2PropertySearchSchema.safeParse(owner.ask.request.body).success).toBe(true);
    expect(ready(read('müller')).note).toContain('accents ignored: also MULLER, MUELLER');
  });

  it('refuses a placeholder SSL before pricing it', () => {
    const reading = read('0000 0000');
    expect(reading.status).toBe('refused');
    expect(reading.status === 'refused' && reading.problem).toMatch(/placeholder/);
  });

  it('refuses 5,000 characters and non-Latin text with the reason, before pricing', () => {
    const long = read('1'.repeat(5) + ' '.repeat(1) + 'A'.repeat(4994));
    expect(long).toMatchObject({ status: 'refused', kind: null });
    expect(long.status === 'refused' && long.problem).toContain(`5,000 characters; a find takes at most ${FIND_MAX}`);
    const foreign = read('名前');
    expect(foreign.status === 'refused' && foreign.problem).toContain('名 前 are not Latin letters');
    expect(read('1708 21st st nw 名').status).toBe('refused');
  });

  it('takes a kind chosen by hand, and says when the text cannot be one', () => {
    const asOwner = ready(read('1708 21st st nw', { chosen: 'owner' }));
    expect(asOwner.kind).toBe('owner');
    expect(asOwner.detected).toBe(false);
    const asSsl = read('kuipers', { chosen: 'ssl' });
    expect(asSsl).toMatchObject({ status: 'refused', kind: 'ssl', problem: 'Not an SSL: a square and a lot, e.g. 0065 0007.' });
    expect(read('kuipers', { chosen: 'address' })).toMatchObject({ status: 'refused', problem: expect.stringContaining('no house number') });
  });

  it('refuses an owner when no area publishes owner names', () => {
    expect(readFind('kuipers', { ownerAreas: [] })).toMatchObject({ status: 'refused', kind: 'owner' });
    // Coverage not read yet (it may cost, and waits for a click) is not "no area".
    expect(readFind('kuipers')).toMatchObject({ status: 'refused', kind: 'owner', problem: expect.stringContaining('is not known yet') });
  });
});

describe('resolutionCandidates', () => {
  it('reads a candidate’s identity by what each field is, whatever the service calls it', () => {
    const [row] = resolutionCandidates({
      client_id: 'find',
      outcome: 'ok',
      candidates: [{ entity_kind: 'property', entity_ref: 'prop_1', canonical_identity: { PREMISEADD: '1708 21ST ST NW', SSL: '0065    0007', OWNERNAME: 'JOEL KUIPERS' }, property_ref: 'prop_1' }],
    });
    expect(row).toMatchObject({ address: '1708 21ST ST NW', identifier: '0065    0007', owner: 'JOEL KUIPERS' });
  });


  it('lists one row per property with every kind that matched, opening the property', () => {
    const rows = resolutionCandidates({
      client_id: 'find',
      outcome: 'ok',
      candidates: [
        {
          entity_kind: 'property',
          entity_ref: 'prop_1',
          canonical_identity: { address: '1708 21ST ST NW', ssl: '0065    0007' },
          match_basis: 'address_exact',
          property_ref: 'prop_1',
        },
        { entity_kind: 'address', entity_ref: 'addr_1', canonical_identity: { address: '1708 21ST ST NW' }, property_ref: 'prop_1' },
        { entity_kind: 'address', entity_ref: 'addr_2', canonical_identity: { address: '1711 MASSACHUSETTS AVE NW' }, property_count: 300 },
      ],
    });
    expect(rows).toEqual([
      expect.objectContaining({ openId: 'prop_1', kinds: ['property', 'address'], address: '1708 21ST ST NW', identifier: '0065    0007', basis: 'address exact' }),
      expect.objectContaining({ openId: 'addr_2', kinds: ['address'], propertyRef: null }),
    ]);
  });
});
