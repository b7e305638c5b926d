import { describe, expect, it } from 'vitest';
import { V2PropertySearchSchema, type V2CatalogData } from '../../shared/service/v2.ts';
import { independentCoverage } from '../../shared/service/dialect-test-kit.ts';
import { embeddedCatalog, independentCatalog, independentSearchEnvelope } from '../../shared/service/record-fields-fixtures.ts';
import type { V4SearchRecord } from '../../shared/service/v4.ts';
import { fixtures, ids } from '../../shared/graph/test-kit.ts';
import {
  areaIdsByJurisdiction,
  describeOwnerQuery,
  holdingsFrom,
  holdingsFromRecords,
  ownerAreaFor,
  ownerCoverage,
  ownerNameProblem,
  ownerRecordSearch,
  ownerSearchBody,
  ownerSpellingNote,
  withAreaIds,
} from './owner-lookup.ts';

const otr = {
  source: 'DC Office of Tax and Revenue',
  dataset: 'Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016)',
  as_of: '2017-02-05T00:00:00Z',
  source_id: 'dc_otr_ownership',
  release_id: '20170205',
  official_url: 'https://www.taxpayerservicecenter.com/',
  synthetic: false,
};
const fact = (value: string | number, sourceId = 'dc_otr_ownership') => ({ value, synthetic: false, citation: { ...otr, source_id: sourceId } });

function property(ref: string, owner: string, address: string, extra: Record<string, unknown> = {}) {
  return {
    entity_ref: ref,
    entity_kind: 'property',
    property_ref: ref,
    facts: {
      owner_name: fact(owner),
      address: fact(address),
      ssl: fact('0449    0040'),
      use_code: fact('11'),
      assessed_value_dollars: fact(545160, 'dc_otr_assessment'),
      last_sale_price_dollars: fact(0, 'dc_otr_sale'),
      last_sale_date: fact('1999-09-03', 'dc_otr_sale'),
      ...extra,
    },
  };
}
const land = (ref: string, kind: 'parcel' | 'unit', propertyRef: string) => ({ entity_ref: ref, entity_kind: kind, property_ref: propertyRef, facts: {} });

describe('ownerNameProblem', () => {
  it('accepts part of a name in any case', () => {
    expect(ownerNameProblem('zion church')).toBeNull();
    expect(ownerNameProblem('  Smith ')).toBeNull();
  });
  it('says what is wrong with an empty, too short or too long name', () => {
    expect(ownerNameProblem('   ')).toMatch(/Type part/);
    expect(ownerNameProblem('r')).toMatch(/at least two letters/);
    expect(ownerNameProblem('& -')).toMatch(/at least two letters/);
    expect(ownerNameProblem('x'.repeat(101))).toMatch(/at most 100/);
  });
  it('accepts accented Latin names and refuses letters the rolls never print', () => {
    expect(ownerNameProblem('MÜLLER')).toBeNull();
    expect(ownerNameProblem('josé')).toBeNull();
    expect(ownerNameProblem('名前')).toMatch(/^The public rolls in Plat’s sample print owner names in Latin letters; type the name as the roll prints it/);
    expect(ownerNameProblem('MÜLLER 名前')).toMatch(/名 前 are not Latin letters/);
    expect(ownerNameProblem('ÜÜÜÜÜÜÜ')).toMatch(/at most 6 of the letters Ä, Ö and Ü/);
    expect(ownerNameProblem('é')).toMatch(/at least two letters/);
  });
});

describe('describeOwnerQuery', () => {
  it('says which spellings an accented name also matches', () => {
    expect(describeOwnerQuery(' MÜLLER ')).toBe('Owner name contains “MÜLLER” (accents ignored: also MULLER, MUELLER)');
    expect(describeOwnerQuery('josé')).toBe('Owner name contains “josé” (accents ignored: also JOSE)');
    expect(describeOwnerQuery('zion church')).toBe('Owner name contains “zion church”');
    expect(ownerSpellingNote('Müller Söhne Bäcker')).toBe(
      'accents ignored: also MULLER SOHNE BACKER, MUELLER SOHNE BACKER, MULLER SOEHNE BACKER, MUELLER SOEHNE BACKER and 4 more spellings',
    );
  });
});

describe('ownerSearchBody', () => {
  it('is a valid v2 property search for the owner name, with the properties and their land', () => {
    const body = ownerSearchBody('area_us_dc', '  zion church ');
    const parsed = V2PropertySearchSchema.parse(body);
    expect(body.filters).toEqual([{ field: 'owner_name', op: 'contains', value: 'zion church' }]);
    // The shared schema sends owner names in one form (any case and spacing is one request).
    expect(parsed.filters).toEqual([{ field: 'owner_name', op: 'contains', value: 'ZION CHURCH' }]);
    expect(parsed.entity_kinds).toEqual(['property', 'parcel', 'unit']);
    expect(parsed.projection).toBe('fact_summary');
    expect(parsed.cursor).toBeUndefined();
    expect(V2PropertySearchSchema.parse(ownerSearchBody('area_us_dc', 'x y', 'abc')).cursor).toBe('abc');
  });
});

describe('ownerCoverage', () => {
  it('searches only areas whose records carry owner names, and keeps the notes of the others', () => {
    const coverage = ownerCoverage({
      facet: 'coverage',
      items: [
        { area_uid: 'area_us_dc', name: 'Washington, DC', domain_key: 'ownership', status: 'partial', note: 'OLD CITY II only.' },
        { area_uid: 'area_us_va_alexandria', name: 'Alexandria, VA', domain_key: 'ownership', status: 'none', note: 'No owner names.' },
        { area_uid: null, name: 'Maryland', domain_key: 'ownership', status: 'none', note: 'No Maryland records.' },
      ],
    });
    expect(coverage.searchable).toEqual([{ areaUid: 'area_us_dc', jurisdiction: null, areaGiven: true, name: 'Washington, DC', note: 'OLD CITY II only.' }]);
    expect(coverage.without.map((place) => place.name)).toEqual(['Alexandria, VA', 'Maryland']);
  });

  it('reads rows without area_uid by their jurisdiction and domain (another service): DC publishes owner names', () => {
    const coverage = ownerCoverage(independentCoverage() as V2CatalogData);
    expect(coverage.searchable).toEqual([{ areaUid: '11001', jurisdiction: '11001', areaGiven: false, name: 'District of Columbia', note: '' }]);
    // Rows about other domains are not about owners; Alexandria's ownership row says unavailable.
    expect(coverage.without).toEqual([{ name: 'Alexandria city', note: '' }]);
  });

  it('finds the area an owner opened from a record is searched in, by area id or jurisdiction; one area known by jurisdiction only stands for it', () => {
    const dc = { areaUid: 'area_us_dc', jurisdiction: '11001', areaGiven: true, name: 'Washington, DC', note: '' };
    const va = { areaUid: 'area_us_va_alexandria', jurisdiction: '51510', areaGiven: true, name: 'Alexandria, VA', note: '' };
    expect(ownerAreaFor([dc, va], 'area_us_va_alexandria')).toBe(va);
    expect(ownerAreaFor([dc, va], '11001')).toBe(dc);
    expect(ownerAreaFor([dc, va], null)).toBe(dc);
    expect(ownerAreaFor([dc, va], 'area_us_md')).toBeNull();
    const independent = ownerCoverage(independentCoverage() as V2CatalogData).searchable;
    expect(ownerAreaFor(independent, 'area_us_dc')?.areaUid).toBe('11001');
  });

  it('takes the one area id the jurisdictions facet lists for a jurisdiction, never one of several', () => {
    const ids = areaIdsByJurisdiction({
      facet: 'jurisdictions',
      items: [
        { jurisdiction: '11001', area_uids: ['area_us_dc'] },
        { jurisdiction: '51', area_uids: ['area_us_va_alexandria', 'area_us_va_arlington'] },
        { fips: '24031', areas: [{ area_id: 'area_md_montgomery' }] },
        { jurisdiction: '24033', area_uids: [] },
      ],
    });
    expect([...ids]).toEqual([
      ['11001', 'area_us_dc'],
      ['24031', 'area_md_montgomery'],
    ]);
    const coverage = withAreaIds(ownerCoverage(independentCoverage() as V2CatalogData), ids);
    expect(coverage.searchable).toEqual([{ areaUid: 'area_us_dc', jurisdiction: '11001', areaGiven: true, name: 'District of Columbia', note: '' }]);
  });

  it('reads a row’s parts under other names too: fips, a list of domains, a status of coverage', () => {
    const coverage = ownerCoverage({
      facet: 'coverage',
      items: [
        { fips: 24031, label: 'Montgomery County', domains: ['owner_names', 'sales'], coverage: 'full' },
        { fips: '24033', label: "Prince George's County", domains: ['sales'], coverage: 'full' },
        { fips: '51059', label: 'Fairfax County', domains: ['owner_names'], coverage: 'not available' },
      ],
    });
    expect(coverage.searchable.map((area) => [area.areaUid, area.name])).toEqual([['24031', 'Montgomery County']]);
    expect(coverage.without.map((place) => place.name)).toEqual(['Fairfax County']);
  });
});

describe('holdingsFrom', () => {
  it('makes one holding per property, opening its parcel or unit, with the property’s cited facts', () => {
    const holdings = holdingsFrom([
      property('prop_a', 'GALBRAITH AME ZION CHURCH', '1128 6TH ST NW'),
      land('parc_a', 'parcel', 'prop_a'),
      property('prop_b', 'MT ZION PENTECOSTAL CHURCH', '1241 12TH ST NW', { ssl: fact('0341    0812') }),
      land('unit_b', 'unit', 'prop_b'),
    ]);
    expect(holdings).toHaveLength(2);
    const first = holdings[0];
    expect(first?.openId).toBe('parc_a');
    expect(first?.openKind).toBe('parcel');
    expect(first?.ownerName).toBe('GALBRAITH AME ZION CHURCH');
    expect(first?.identifierScheme).toBe('ssl');
    expect(first?.assessed?.text).toBe('$545,160');
    expect(first?.assessed?.citation.publisher).toBe('DC Office of Tax and Revenue');
    // Ownership, assessment and sale are one publication: one chip.
    expect(first?.citations).toHaveLength(1);
    expect(holdings[1]?.openId).toBe('unit_b');
  });

  it('joins a property and its land that arrived on different pages, and opens a property without land', () => {
    const holdings = holdingsFrom([property('prop_a', 'A', '1 A ST'), property('prop_c', 'C', '3 C ST', { ssl: fact('0555    0001') }), land('parc_a', 'parcel', 'prop_a')]);
    expect(holdings.map((h) => [h.propertyRef, h.openId])).toEqual([
      ['prop_a', 'parc_a'],
      ['prop_c', 'prop_c'],
    ]);
  });

  it('makes one holding of a parcel the roll lists on two rows (shared/graph/holdings.ts), its assessment from the row carrying it', () => {
    const second = property('prop_b', 'GALBRAITH AME ZION CHURCH', '1128 6TH ST NW');
    delete (second.facts as Record<string, unknown>).assessed_value_dollars;
    const holdings = holdingsFrom([second, property('prop_a', 'GALBRAITH AME ZION CHURCH', '1128 6TH ST NW'), land('parc_a', 'parcel', 'prop_a')]);
    expect(holdings).toHaveLength(1);
    expect(holdings[0]).toMatchObject({ propertyRef: 'prop_b', openId: 'parc_a', identifierScheme: 'ssl' });
    expect(holdings[0]?.identifier?.text).toBe('0449 0040');
    expect(holdings[0]?.assessed?.text).toBe('$545,160');
  });

  it('uses the account number where there is no SSL, and says when no owner name was published', () => {
    const [holding] = holdingsFrom([
      { entity_ref: 'prop_v', entity_kind: 'property', property_ref: 'prop_v', facts: { account_no: fact('12345', 'va_alexandria_parcels') } },
    ]);
    expect(holding?.identifierScheme).toBe('account');
    expect(holding?.identifier?.text).toBe('12345');
    expect(holding?.ownerName).toBe('(no owner name published)');
  });
});

describe('owner lookup by v4 ownership records', () => {
  /** The OTR record of 934 N ST NW as an ownership record, in either dialect. */
  function ownershipRecords(dialect: 'embedded' | 'independent'): V4SearchRecord[] {
    const answer = structuredClone(fixtures.sales934.envelope) as unknown as Record<string, unknown>;
    const items = (answer.data as { items: Array<Record<string, unknown>> }).items;
    for (const item of items) Object.assign(item, { kind: 'ownership', source_id: 'dc_otr_ownership' });
    const read = dialect === 'embedded' ? answer : independentSearchEnvelope(answer);
    return (read.data as { items: V4SearchRecord[] }).items;
  }

  it('filters on the owner field the catalog names, in either dialect', () => {
    const filterOf = (search: ReturnType<typeof ownerRecordSearch>) => (search.ok ? search.parts.query.filter : search.problem);
    expect(filterOf(ownerRecordSearch(embeddedCatalog, '11001', ' joel kuipers '))).toBe(JSON.stringify({ owner: 'JOEL KUIPERS' }));
    expect(filterOf(ownerRecordSearch(independentCatalog, '11001', 'joel kuipers'))).toBe(JSON.stringify({ OWNERNAME: 'JOEL KUIPERS' }));
  });

  it('sends nothing when the catalog names no owner field, and says why', () => {
    const catalog = independentCatalog.map((item) => (item.kind === 'ownership' ? { ...item, fields: ['SSL', 'TITULAR'] } : item));
    expect(ownerRecordSearch(catalog, '11001', 'joel kuipers')).toEqual({
      ok: false,
      problem: 'This service’s catalog names no owner name field for ownership records in District of Columbia; Plat cannot search them by owner name.',
    });
  });

  it('reads the owner, address, SSL, assessed value and last sale of each record, in either dialect', () => {
    const shown = (holding: ReturnType<typeof holdingsFromRecords>[number]) => [
      holding.ownerName,
      holding.address?.value,
      holding.identifier?.value,
      holding.assessed?.value,
      holding.lastSalePrice?.value,
      holding.lastSaleDate?.value,
      holding.openId,
      holding.notRecognised,
    ];
    const embedded = holdingsFromRecords(ownershipRecords('embedded'), embeddedCatalog).map(shown);
    expect(embedded).toEqual([['GERRY M COATES', '934 N ST NW', '0368    0909', 2014890, 0, '2014-02-26', ids.parcel934, []]]);
    const independent = holdingsFromRecords(ownershipRecords('independent'), independentCatalog).map(shown);
    expect(independent).toEqual([['GERRY M COATES', '934 N ST NW', '0368    0909', '2014890.00', '0.00', '2014-02-26', ids.parcel934, []]]);
    // No catalog: the record's own names.
    expect(holdingsFromRecords(ownershipRecords('independent')).map(shown)).toEqual(independent);
    expect(holdingsFromRecords(ownershipRecords('independent'))[0]?.owner?.citation).toMatchObject({ publisher: 'DC Office of Tax and Revenue', recordRef: 'rec_5e2f0e19-e6d9-5aac-ae17-dbfee3617167' });
  });

  it('says which values it cannot find, never that the record leaves them blank', () => {
    const catalog = independentCatalog.map((item) => (item.kind === 'ownership' ? { ...item, fields: ['SSL', 'TITULAR', 'PREMISEADD'] } : item));
    const [holding] = holdingsFromRecords(ownershipRecords('independent'), catalog);
    expect(holding?.ownerName).toBe('(owner name not recognised by Plat)');
    expect(holding?.notRecognised).toEqual(expect.arrayContaining(['owner name', 'sale price', 'sale date', 'assessed value']));
  });
});
