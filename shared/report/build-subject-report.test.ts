// The subject report document, built from real answers of the embedded service (fixtures written by
// scripts/report-fixtures.ts) and from variants of them that carry what another service, or an
// older Plat, might send: the rules hold on both.
import { describe, expect, it } from 'vitest';
import type { ValueChoice } from '../ipc.ts';
import { buildSubjectReport, type SubjectReportInput } from './build-subject-report.ts';
import { SYNTHETIC_PUBLISHER } from '../cited/citation.ts';
import { ReportDocumentSchema, type ReportDocument } from './document.ts';
import { type CitedValue } from '../cited/value.ts';
import dc1708 from './fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import dcSwann from './fixtures/dc-1425-swann-st-nw.json' with { type: 'json' };
import dcUnit from './fixtures/dc-1711-massachusetts-ave-nw-unit.json' with { type: 'json' };
import vaAdams from './fixtures/va-304-adams-av.json' with { type: 'json' };
import { asIndependentDialect } from './test-kit.ts';
import { citationRows, citationsCsv } from './citation-export.ts';
import { independentSummary } from '../service/dialect-test-kit.ts';

interface Fixture {
  subjectRef: string;
  subject: unknown;
  summary: unknown;
}

const fixtures: Record<string, Fixture> = { dc1708, dcSwann, dcUnit, vaAdams };
const clone = <T>(value: T): T => structuredClone(value);
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests edit answers freely

function input(fixture: Fixture, overrides: Partial<SubjectReportInput> = {}): SubjectReportInput {
  return {
    assignment: {
      id: 'asg_1',
      name: '1708 21st St appraisal',
      capMicroUsd: 2_000_000,
      details: {
        subjectRef: fixture.subjectRef,
        subjectLabel: '',
        effectiveDate: '2024-05-01',
        intendedUse: 'Mortgage lending decision',
        client: 'First Bank',
        reference: 'FB-2024-17',
        notes: '',
      },
    },
    subject: fixture.subject,
    summary: fixture.summary,
    choices: [],
    queryLog: [
      { operation: 'v4.summary', parameters: `q_id=${fixture.subjectRef}`, at: '2024-05-01T10:01:00.000Z', chargedMicroUsd: 100_000, cacheHit: false, requestId: 'r2' },
      { operation: 'v3.recordQuery', parameters: 'report_subject_v1', at: '2024-05-01T10:00:00.000Z', chargedMicroUsd: 250_000, cacheHit: false, requestId: 'r1' },
    ],
    spentMicroUsd: 350_000,
    generatedAt: '2024-05-01T12:00:00.000Z',
    prices: { subjectReportMicroUsd: 250_000, summaryMicroUsd: 100_000 },
    ...overrides,
  };
}

/** Every printed value: section values and table cells. */
function allValues(doc: ReportDocument): CitedValue[] {
  return doc.sections.flatMap((section) => [
    ...section.values,
    ...section.tables.flatMap((table) => table.rows.flatMap((row) => Object.values(row))),
  ]);
}

function value(doc: ReportDocument, field: string): CitedValue {
  const found = allValues(doc).find((v) => v.field === field);
  if (!found) throw new Error(`no value ${field}`);
  return found;
}

const citationsOf = (doc: ReportDocument, ids: readonly string[]) => ids.map((id) => doc.citations.find((c) => c.id === id)!);

const DATE = /\b\d{4}-\d{2}-\d{2}\b/;

const item = (fixture: Fixture): Json => (fixture.subject as Json).data.items[0];

describe('every value says where it came from', () => {
  const variants: Record<string, Fixture> = {
    ...fixtures,
    'summary only': { ...dc1708, subject: null },
    'subject only': { ...dc1708, summary: null },
    'nothing bought': { ...dc1708, subject: null, summary: null },
    // The spec's v3 sources carry no record index: the summary's citations place the records it knows.
    'the independent dialect': { ...dc1708, subject: asIndependentDialect(dc1708.subject) },
    'v3 without record_refs': (() => {
      const f = clone(dc1708);
      for (const source of (f.subject as Json).data.sources) delete source.record_refs;
      return f;
    })(),
  };

  for (const [name, fixture] of Object.entries(variants)) {
    it(`${name}: each value is cited or says why it is unavailable, and the document is valid`, () => {
      const doc = buildSubjectReport(input(fixture));
      expect(() => ReportDocumentSchema.parse(doc)).not.toThrow();
      const ids = new Set(doc.citations.map((c) => c.id));
      for (const v of allValues(doc)) {
        if (v.status === 'unavailable') {
          expect(v.citationIds, v.field).toEqual([]);
          expect(v.limitation?.length, `${v.field} says why`).toBeGreaterThan(0);
          expect(v.display).toBe('—');
        } else {
          expect(v.citationIds.length, `${v.field} is cited`).toBeGreaterThan(0);
        }
        if (v.status === 'derived') expect(v.derivedFrom, `${v.field} names what it was derived from`).toBeTruthy();
        for (const id of [...v.citationIds, ...v.alternatives.flatMap((a) => a.citationIds)]) expect(ids.has(id), `${v.field} → ${id}`).toBe(true);
        for (const alternative of v.alternatives) expect(alternative.citationIds.length, `${v.field} alternative`).toBeGreaterThan(0);
      }
      for (const section of doc.sections) {
        if (section.status === 'unavailable') expect(section.limitations.length + section.values.length, section.id).toBeGreaterThan(0);
        for (const limitation of section.limitations) {
          for (const id of limitation.citationIds) expect(ids.has(id), `${section.id}: ${limitation.text} → ${id}`).toBe(true);
          // A date in a limitation is printed like a value's: with a marker resolving to a named publisher.
          if (DATE.test(limitation.text)) {
            expect(limitation.citationIds.length, `${section.id}: “${limitation.text}” is cited`).toBeGreaterThan(0);
            for (const citation of citationsOf(doc, limitation.citationIds)) expect(citation.publisher, limitation.text).toBeTruthy();
          }
        }
      }
    });
  }

  it('cites each limitation to the source it is about: the section’s sources, a source it names, or none', () => {
    const doc = buildSubjectReport(input(dc1708));
    const section = (id: string) => doc.sections.find((s) => s.id === id)!;
    const limitation = (id: string, pattern: RegExp) => {
      const found = section(id).limitations.find((l) => pattern.test(l.text));
      if (!found) throw new Error(`no limitation ${pattern} in ${id}`);
      return { ...found, citations: citationsOf(doc, found.citationIds) };
    };
    // Plat's "Data as of" cites the source whose date it gives: by the one record of it the section
    // cites, the same endnote as the values it dates.
    const assessed = limitation('assessment', /^Data as of 2017-02-05\.$/);
    expect(assessed.citationIds).toEqual(value(doc, 'assessment.total_value_dollars').citationIds);
    expect(assessed.citations).toEqual([expect.objectContaining({ publisher: 'DC Office of Tax and Revenue', sourceId: 'dc_otr_assessment', asOf: '2017-02-05T00:00:00Z' })]);
    expect(limitation('transfer', /^Data as of/).citationIds).toEqual(value(doc, 'transfer.sale_date').citationIds);
    expect(limitation('transfer', /last recorded sale only/).citations.map((c) => c.sourceId)).toEqual(['dc_otr_sale']);
    // A lot with no permit still has the permits dataset's coverage cited, to the dataset as a whole.
    expect(limitation('permits', /issued 2012-01-03 to 2016-01-21/).citations).toEqual([
      expect.objectContaining({ publisher: 'DC Department of Consumer and Regulatory Affairs', sourceId: 'dc_dcra_new_building_permits', recordRef: null, asOf: '2016-01-22T00:00:00Z' }),
    ]);
    expect(limitation('permits', /issued 2012-01-03/).citations[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // So does a lot with permits: the sentence is about the dataset, not one permit.
    const swann = buildSubjectReport(input(dcSwann));
    const scope = swann.sections.find((s) => s.id === 'permits')!.limitations.find((l) => /issued 2012-01-03/.test(l.text))!;
    expect(citationsOf(swann, scope.citationIds).map((c) => [c.sourceId, c.recordRef])).toEqual([['dc_dcra_new_building_permits', null]]);
    // About the synthetic profile: cited to the sample, never a real publisher (also where the sentence names it by id).
    for (const [id, pattern] of [['building', /^SYNTHETIC/], ['identity', /\(plat_synthetic_characteristics\)/]] as const) {
      expect(limitation(id, pattern).citations.map((c) => [c.publisher, c.synthetic])).toEqual([[SYNTHETIC_PUBLISHER, true]]);
    }
    // About no source at all.
    expect(limitation('tax', /not in the sample/).citationIds).toEqual([]);
    const notBought = buildSubjectReport(input(dc1708, { subject: null, summary: null }));
    for (const s of notBought.sections) for (const l of s.limitations) expect(l.citationIds, l.text).toEqual([]);
  });

  it('names the publisher of every money amount, date and owner name of a DC subject', () => {
    const doc = buildSubjectReport(input(dc1708));
    for (const field of ['assessment.total_value_dollars', 'transfer.price_dollars', 'transfer.sale_date', 'ownership.owner_name']) {
      const v = value(doc, field);
      expect(v.status, field).toBe('reported');
      for (const citation of citationsOf(doc, v.citationIds)) {
        expect(citation.publisher, field).toBe('DC Office of Tax and Revenue');
        expect(citation.sha256, field).toMatch(/^[0-9a-f]{64}$/);
        expect(citation.releaseId, field).toBe(20170205);
        expect(citation.recordRef, field).toMatch(/^rec_/);
      }
    }
    expect(value(doc, 'ownership.owner_name').display).toBe('JOEL KUIPERS');
    expect(value(doc, 'assessment.total_value_dollars').display).toBe('$1,302,760');
    expect(value(doc, 'transfer.price_dollars').display).toBe('$1,361,000');
    expect(value(doc, 'transfer.sale_date').display).toBe('2013-12-17');
  });

  it('numbers each distinct citation once, in the order a reader meets it', () => {
    const doc = buildSubjectReport(input(dc1708));
    expect(doc.citations.map((c) => c.number)).toEqual(doc.citations.map((_, i) => i + 1));
    const keys = doc.citations.map(({ id: _id, number: _number, ...rest }) => JSON.stringify(rest));
    expect(new Set(keys).size).toBe(keys.length);
    // A section prints its limitations, then its values and tables.
    const firstUse: string[] = [];
    const use = (ids: readonly string[]) => ids.forEach((id) => firstUse.includes(id) || firstUse.push(id));
    for (const section of doc.sections) {
      for (const limitation of section.limitations) use(limitation.citationIds);
      for (const v of allValues({ ...doc, sections: [section] })) use([...v.citationIds, ...v.alternatives.flatMap((a) => a.citationIds)]);
    }
    expect(doc.citations.map((c) => c.id)).toEqual(firstUse);
    // The first marker printed (after the identity section's first limitation) is endnote 1.
    expect(citationsOf(doc, doc.sections[0]!.limitations[0]!.citationIds)[0]?.number).toBe(1);
  });

  it('gives the cover, the query log in time order and the spend against the cap', () => {
    const doc = buildSubjectReport(input(dc1708));
    expect(doc.cover).toMatchObject({ subjectLabel: '1708 21ST ST NW', effectiveDate: '2024-05-01', client: 'First Bank', reference: 'FB-2024-17' });
    expect(doc.cover.dataAsOf).toContain('DC Office of Tax and Revenue, Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016): as of 2017-02-05');
    expect(doc.queryLog.map((q) => q.requestId)).toEqual(['r1', 'r2']);
    expect(doc.spend).toEqual({ totalMicroUsd: 350_000, capMicroUsd: 2_000_000 });
    expect(doc.missing).toEqual([]);
    expect(doc.sections.map((s) => s.id)).toEqual(['identity', 'ownership', 'assessment', 'tax', 'transfer', 'building', 'land', 'permits']);
  });

  it('is a pure function of its input', () => {
    expect(buildSubjectReport(input(dcSwann))).toEqual(buildSubjectReport(input(clone(dcSwann))));
  });
});

describe('synthetic values are never attributed to a real publisher', () => {
  const syntheticCitationsAreTheSample = (doc: ReportDocument) => {
    let seen = 0;
    for (const v of allValues(doc)) {
      const entries = [{ status: v.status, ids: v.citationIds }, ...v.alternatives.map((a) => ({ status: a.status, ids: a.citationIds }))];
      for (const entry of entries) {
        if (entry.status !== 'synthetic') continue;
        seen++;
        for (const citation of citationsOf(doc, entry.ids)) {
          expect(citation.synthetic, v.field).toBe(true);
          expect(citation.publisher, v.field).toBe(SYNTHETIC_PUBLISHER);
        }
      }
    }
    for (const citation of doc.citations) if (citation.synthetic) expect(citation.publisher).toBe(SYNTHETIC_PUBLISHER);
    return seen;
  };

  it('cites the building profile to the synthetic sample and names the CAMA record it was copied from', () => {
    const doc = buildSubjectReport(input(dc1708));
    expect(syntheticCitationsAreTheSample(doc)).toBeGreaterThan(5);
    const year = value(doc, 'building.year_built');
    expect(year).toMatchObject({ display: '1905', status: 'synthetic' });
    expect(year.derivedFrom).toContain('rec_24d8c0ad-c280-5366-86f2-7717e20e960b');
    expect(doc.sections.find((s) => s.id === 'building')?.status).toBe('partial');
    expect(doc.sections.find((s) => s.id === 'building')?.limitations.map((l) => l.text).join(' ')).toMatch(/SYNTHETIC, not a record of this property/);
  });

  it('keeps a synthetic value under the sample even when the answer puts it under a real publisher', () => {
    const f = clone(dc1708);
    const synthetic = (f.subject as Json).data.sources.find((s: Json) => s.source_id === 'plat_synthetic_characteristics');
    synthetic.publisher = 'DC Office of Tax and Revenue';
    for (const entry of Object.values((f.summary as Json).data) as Json[]) {
      if (entry?.citation?.synthetic) entry.citation.source = 'DC Office of Tax and Revenue';
    }
    // A cell marked synthetic but citing a real OTR record.
    item(f).sections.land.land_area_square_feet.source_refs = item(f).sections.ownership.owner_name.source_refs;
    const doc = buildSubjectReport(input(f));
    expect(syntheticCitationsAreTheSample(doc)).toBeGreaterThan(5);
    const land = value(doc, 'land.land_area_square_feet');
    expect(land.status).toBe('synthetic');
    expect(citationsOf(doc, land.citationIds).every((c) => c.publisher === SYNTHETIC_PUBLISHER && c.note?.includes('not published by DC Office of Tax and Revenue'))).toBe(true);
  });
});

describe('derived values say so and name what they came from', () => {
  it('cites the location to the DC GIS square centroid, not to OTR, as derived', () => {
    const doc = buildSubjectReport(input(dc1708));
    const location = value(doc, 'identity.location');
    expect(location.status).toBe('derived');
    expect(location.derivedFrom).toMatch(/centroid of the tax square/);
    const [citation] = citationsOf(doc, location.citationIds);
    expect(citation?.publisher).toBe('DC Office of the Chief Technology Officer (DC GIS)');
    expect(citation?.dataset).toBe('Square Points (active squares)');
  });

  it('reads the service’s classifications (property type, market or not) as derived, with its basis', () => {
    const doc = buildSubjectReport(input(dc1708));
    expect(value(doc, 'identity.property_type')).toMatchObject({ display: 'record lot', status: 'derived' });
    const acceptance = value(doc, 'transfer.acceptance_code');
    expect(acceptance).toMatchObject({ display: 'market sale', status: 'derived' });
    expect(acceptance.derivedFrom).toMatch(/OTR writes a price of 0/);
  });

  it('shows Alexandria’s address as published ("304 ADAMS AV"), never a normalised form under the City', () => {
    const doc = buildSubjectReport(input(vaAdams));
    const address = value(doc, 'identity.address');
    expect(address).toMatchObject({ display: '304 ADAMS AV', status: 'reported', alternatives: [] });
    expect(citationsOf(doc, address.citationIds).map((c) => c.dataset)).toEqual(['Parcels (Del Ray area)', 'Address Points (ZIP 22301 and 22305)']);

    // A service that answers the normalised form (method `normalised`) gets it shown as derived, beside the published one.
    const f = clone(vaAdams);
    const summaryAddress = (f.summary as Json).data.address;
    summaryAddress.value = '304 ADAMS AVE';
    summaryAddress.citation.method = 'normalised';
    const normalised = buildSubjectReport(input(f));
    const chosen = value(normalised, 'identity.address');
    expect(chosen).toMatchObject({ display: '304 ADAMS AV', status: 'reported' });
    expect(chosen.alternatives).toEqual([expect.objectContaining({ display: '304 ADAMS AVE', status: 'derived' })]);
    expect(chosen.choice?.reason).toMatch(/as published/);

    // And when the normalised form is all the answers give, it is derived, not the City's.
    item(f).sections.identity.address = '304 ADAMS AVE';
    item(f).sections.identity.address_status = 'derived';
    item(f).sections.identity.address_derived_from = 'the published "304 ADAMS AV", street type spelled out by the service';
    const onlyDerived = value(buildSubjectReport(input({ ...f, summary: null })), 'identity.address');
    expect(onlyDerived).toMatchObject({ display: '304 ADAMS AVE', status: 'derived' });
    expect(onlyDerived.derivedFrom).toMatch(/304 ADAMS AV"/);
  });

  it('keeps a building address the service derived from unit addresses derived, whatever status word it uses', () => {
    const f = clone(dcUnit);
    item(f).sections.identity.address = { value: '1711 MASSACHUSETTS AVE NW', status: 'derived', source_refs: item(f).sections.identity.source_refs, derived_from: 'the unit addresses OTR publishes (1711 MASSACHUSETTS AVE NW Unit: 1A …)' };
    const doc = buildSubjectReport(input({ ...f, summary: null }));
    const address = value(doc, 'identity.address');
    expect(address).toMatchObject({ display: '1711 MASSACHUSETTS AVE NW', status: 'derived' });
    expect(address.derivedFrom).toMatch(/unit addresses/);
    // An unknown word is never read as "reported".
    item(f).sections.identity.address.status = 'approximate';
    expect(value(buildSubjectReport(input({ ...f, summary: null })), 'identity.address').status).toBe('derived');
    // With the summary, the unit's own address as OTR published it is preferred, the building's beside it.
    const both = value(buildSubjectReport(input(f)), 'identity.address');
    expect(both).toMatchObject({ display: '1711 MASSACHUSETTS AVE NW Unit: 1A', status: 'reported' });
    expect(both.alternatives).toEqual([expect.objectContaining({ display: '1711 MASSACHUSETTS AVE NW', status: 'derived' })]);
  });

  it('reads the condominium unit’s own address as OTR published it', () => {
    const doc = buildSubjectReport(input(dcUnit));
    expect(value(doc, 'identity.address')).toMatchObject({ display: '1711 MASSACHUSETTS AVE NW Unit: 1A', status: 'reported' });
    expect(value(doc, 'identity.property_type').display).toBe('condominium unit');
    expect(value(doc, 'building.year_built').status).toBe('unavailable');
    expect(value(doc, 'building.year_built').limitation).toMatch(/No building characteristics in the sample for this lot/);
  });
});

describe('a price of 0 reads as the source says', () => {
  it('prints "non-market or no price", never "non-market transfer"', () => {
    const f = clone(dc1708);
    Object.assign(item(f).sections.transfer, { price_dollars: 0, acceptance_code: 'non_market' });
    (f.summary as Json).data.last_sale_price_dollars.value = 0;
    const doc = buildSubjectReport(input(f));
    expect(value(doc, 'transfer.price_dollars').display).toBe('$0 (non-market or no price)');
    expect(value(doc, 'transfer.acceptance_code').display).toBe('non-market or no price');
    for (const v of allValues(doc)) expect(v.display, v.field).not.toMatch(/non-market transfer/i);
  });
});

describe('each kind of value reads one way, as published', () => {
  it('never groups a year (not "Effective year built 1,985") and keeps a price’s published cents ("18402.50" is $18,402.50, not $18,403)', () => {
    const f = clone(dc1708);
    const building = item(f).sections.building;
    const transfer = item(f).sections.transfer;
    Object.assign(building, { effective_year_built: 1985, year_remodeled: '2020' });
    transfer.price_dollars = { value: '18402.50', status: 'reported', source_refs: transfer.source_refs };
    const doc = buildSubjectReport(input({ ...f, summary: null }));
    expect(value(doc, 'building.effective_year_built').display).toBe('1985');
    expect(value(doc, 'building.year_remodeled').display).toBe('2020');
    // The published text is kept as the value; only its display is formatted.
    expect(value(doc, 'transfer.price_dollars')).toMatchObject({ display: '$18,402.50', raw: '18402.50' });
    transfer.price_dollars = 18403;
    expect(value(buildSubjectReport(input({ ...f, summary: null })), 'transfer.price_dollars').display).toBe('$18,403');
  });

  it('compares a year published as text with the permits as the year it is', () => {
    const f = clone(dcSwann);
    item(f).sections.building.year_built = '1890';
    const year = value(buildSubjectReport(input(f)), 'building.year_built');
    expect(year).toMatchObject({ display: '2013 or later', status: 'derived', raw: 2013 });
    expect(year.alternatives).toEqual([expect.objectContaining({ display: '1890', status: 'synthetic' })]);
  });
});

describe('conflicts', () => {
  const swann = () => buildSubjectReport(input(dcSwann));

  it('puts a 2013 new-construction permit beside a synthetic year built of 1890, and says why Plat chose', () => {
    const year = value(swann(), 'building.year_built');
    expect(year).toMatchObject({ display: '2013 or later', status: 'derived', raw: 2013 });
    expect(year.derivedFrom).toMatch(/permit B1210493 issued 2013-03-20/);
    expect(year.alternatives).toEqual([expect.objectContaining({ display: '1890', status: 'synthetic' })]);
    expect(year.choice).toMatchObject({ by: 'plat', alternativeKey: null });
    expect(year.choice?.reason).toMatch(/preferred over a synthetic one/);
  });

  it('lets the appraiser choose another value with a reason, kept and printed', () => {
    const synthetic = value(swann(), 'building.year_built').alternatives[0]!;
    const choice: ValueChoice = { field: 'building.year_built', alternativeKey: synthetic.key, reason: 'Inspected: the 1890 facade was kept', at: '2024-05-02T09:00:00.000Z' };
    const doc = buildSubjectReport(input(dcSwann, { choices: [choice] }));
    const year = value(doc, 'building.year_built');
    expect(year).toMatchObject({ display: '1890', status: 'synthetic', raw: 1890 });
    expect(year.choice).toEqual({ by: 'appraiser', reason: 'Inspected: the 1890 facade was kept', alternativeKey: synthetic.key, at: '2024-05-02T09:00:00.000Z' });
    expect(year.alternatives).toEqual([expect.objectContaining({ key: 'permit:B1210493', display: '2013 or later', status: 'derived' })]);
    // Still cited to the sample: choosing a synthetic value does not make it a public record.
    expect(citationsOf(doc, year.citationIds).every((c) => c.publisher === SYNTHETIC_PUBLISHER)).toBe(true);
  });

  it('keeps Plat’s choice, and says so, when the appraiser’s choice is no longer offered', () => {
    const choice: ValueChoice = { field: 'building.year_built', alternativeKey: 'rec:gone', reason: 'Old reason', at: '2024-05-02T09:00:00.000Z' };
    const year = value(buildSubjectReport(input(dcSwann, { choices: [choice] })), 'building.year_built');
    expect(year.display).toBe('2013 or later');
    expect(year.limitation).toMatch(/no longer give .*Old reason/);
  });

  it('shows the summary’s disagreeing sources side by side, sources that agree as one value', () => {
    const f = clone(dc1708);
    const owner = (f.summary as Json).data.owner_name;
    owner.alternatives = [
      { value: 'Joel  Kuipers', status: 'reported', citation: { ...owner.citation, record_ref: 'rec_other-agreeing' } },
      { value: 'KUIPERS JOEL TRUSTEE', status: 'reported', citation: { ...owner.citation, source_id: 'dc_dcra_new_building_permits', source: 'DC Department of Consumer and Regulatory Affairs', record_ref: 'rec_permit' } },
    ];
    const doc = buildSubjectReport(input(f));
    const v = value(doc, 'ownership.owner_name');
    expect(v.display).toBe('JOEL KUIPERS');
    expect(v.citationIds).toHaveLength(2);
    expect(v.alternatives).toEqual([expect.objectContaining({ display: 'KUIPERS JOEL TRUSTEE', status: 'reported' })]);
    expect(v.choice?.reason).toMatch(/subject's own report \(DC Office of Tax and Revenue\) is preferred/);
    expect(citationsOf(doc, v.alternatives[0]!.citationIds)[0]?.publisher).toBe('DC Department of Consumer and Regulatory Affairs');
  });

  it('does not take an addition to an existing house for new construction', () => {
    const f = clone(dcSwann);
    item(f).sections.permit.records[0].description = 'AN EXISTING 2-FL SFD WITH A TWO-STORY REAR ADDITION';
    const year = value(buildSubjectReport(input(f)), 'building.year_built');
    expect(year).toMatchObject({ display: '1890', status: 'synthetic', alternatives: [], choice: null });
  });
});

describe('what is missing', () => {
  it('lists the two purchases with their prices and the requests that buy them', () => {
    const doc = buildSubjectReport(input(dc1708, { subject: null, summary: null }));
    expect(doc.missing).toEqual([
      {
        ipcOperation: 'queryRecords',
        request: { request: { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: dc1708.subjectRef } } },
        label: `Subject report for ${dc1708.subjectRef}`,
        expectedCostMicroUsd: 250_000,
      },
      {
        ipcOperation: 'getEntitySummary',
        request: { request: { path: { q_id: dc1708.subjectRef } } },
        label: `Summary of ${dc1708.subjectRef} (best values and alternatives)`,
        expectedCostMicroUsd: 100_000,
      },
    ]);
    expect(doc.citations).toEqual([]);
    for (const section of doc.sections.filter((s) => s.id !== 'identity')) expect(section.status, section.id).toBe('unavailable');
    expect(value(doc, 'ownership.owner_name').limitation).toMatch(/Not bought yet/);
  });

  it('fills what the summary alone answers, and asks for the subject report', () => {
    const doc = buildSubjectReport(input(dc1708, { subject: null }));
    expect(doc.missing.map((m) => m.ipcOperation)).toEqual(['queryRecords']);
    expect(value(doc, 'ownership.owner_name')).toMatchObject({ display: 'JOEL KUIPERS', status: 'reported' });
    expect(value(doc, 'assessment.total_value_dollars').display).toBe('$1,302,760');
    expect(value(doc, 'tax.annual_tax_dollars').limitation).toMatch(/Not bought yet/);
  });

  it('reads an error answer as missing, in the service’s words', () => {
    const error = { contract_version: 'svc-v3', request_id: 'r', operation: 'record_query', status: 'error', data: null, error: { code: 'not_found', message: 'No such property', retryable: false }, meta: { served_at: '2024-05-01T00:00:00Z' } };
    const doc = buildSubjectReport(input(dc1708, { subject: error }));
    expect(doc.missing.map((m) => m.ipcOperation)).toEqual(['queryRecords']);
    expect(doc.sections[0]?.limitations[0]).toEqual({ text: 'The service answered the subject report with an error: No such property.', citationIds: [] });
  });

  it('states Alexandria’s unavailable sections plainly, in the service’s words', () => {
    const doc = buildSubjectReport(input(vaAdams));
    const byId = Object.fromEntries(doc.sections.map((s) => [s.id, s]));
    expect(byId.ownership?.status).toBe('unavailable');
    expect(value(doc, 'ownership.owner_name').limitation).toBe('No owners for Alexandria in the sample: the parcel layer publishes none.');
    expect(value(doc, 'transfer.sale_date').limitation).toBe('No sales for Alexandria in the sample.');
    expect(byId.permits).toMatchObject({ status: 'unavailable', limitations: [{ text: 'No permits for Alexandria in the sample.', citationIds: [] }], tables: [] });
    expect(value(doc, 'identity.location').derivedFrom).toMatch(/address point/);
  });
});

describe('a summary of another service (its fields under data.fields, other names)', () => {
  it('gives the identity and location from it, each cited, instead of “Unavailable”', () => {
    const doc = buildSubjectReport(input({ ...dc1708, subject: null, summary: independentSummary() }));
    const address = value(doc, 'identity.address');
    expect(address).toMatchObject({ display: '1708 21ST ST NW', status: 'reported' });
    expect(citationsOf(doc, address.citationIds)).toEqual([expect.objectContaining({ publisher: 'DC Office of Tax and Revenue', sourceId: 'dc_otr_ownership' })]);
    const location = value(doc, 'identity.location');
    expect(location).toMatchObject({ display: '38.912800, -77.046800', status: 'derived' });
    expect(citationsOf(doc, location.citationIds).map((c) => c.publisher)).toEqual(['DC Office of the Chief Technology Officer']);
    // `assessed_value` and `last_sale_price` are Plat's `…_dollars` fields.
    expect(value(doc, 'assessment.total_value_dollars')).toMatchObject({ raw: 1361000, status: 'reported' });
    expect(value(doc, 'transfer.price_dollars')).toMatchObject({ raw: 1361000 });
    expect(value(doc, 'ownership.owner_name')).toMatchObject({ display: 'JOEL KUIPERS' });
    expect(value(doc, 'building.effective_year_built')).toMatchObject({ raw: '1985', display: '1985', status: 'reported' });
    expect(() => ReportDocumentSchema.parse(doc)).not.toThrow();
  });

  it('says which summary entry it could not read instead of dropping it silently', () => {
    const doc = buildSubjectReport(input({ ...dc1708, subject: null, summary: independentSummary({ roof: { material: 'slate' } }) }));
    const identity = doc.sections.find((section) => section.id === 'identity');
    expect(identity?.limitations.map((limitation) => limitation.text)).toContain(
      'The summary’s entry “roof” is not recognised by Plat: not used in this report; the property’s page shows it as published.',
    );
  });
});

describe("a v3 answer of another service: refs `<source_id>@<release_id>`, sources without record_refs", () => {
  const independent = (fixture: Fixture = dc1708): Fixture => ({ ...fixture, subject: asIndependentDialect(fixture.subject), summary: null });
  const OTR = 'DC Office of Tax and Revenue';

  it('names the publisher, dataset and date of every endnote, and so of every row of the evidence', () => {
    for (const fixture of Object.values(fixtures)) {
      const doc = buildSubjectReport(input(independent(fixture)));
      expect(doc.citations.length, fixture.subjectRef).toBeGreaterThan(0);
      for (const citation of doc.citations) {
        expect(citation.publisher, `${fixture.subjectRef} [${citation.number}] ${citation.sourceId}`).not.toBeNull();
        expect(citation.asOf, `${fixture.subjectRef} [${citation.number}]`).not.toBeNull();
      }
      const csv = citationsCsv(citationRows(doc));
      expect(csv).not.toMatch(/Source not named in the answer|undated/);
    }
    const doc = buildSubjectReport(input(independent()));
    const owner = value(doc, 'ownership.owner_name');
    expect(owner).toMatchObject({ display: 'JOEL KUIPERS', status: 'reported' });
    expect(citationsOf(doc, owner.citationIds)).toEqual([
      expect.objectContaining({ publisher: OTR, dataset: 'Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016)', asOf: '2017-02-05T00:00:00Z', sourceId: 'dc_otr_ownership', releaseId: 20170205, note: null }),
    ]);
    // The synthetic sample is still the sample, never OTR.
    expect(citationsOf(doc, value(doc, 'land.land_area_square_feet').citationIds).map((c) => c.publisher)).toEqual([SYNTHETIC_PUBLISHER]);
  });

  it('cites a ref naming another release to the source entry, and says so in the endnote', () => {
    const f = independent();
    (item(f).sections.ownership.owner_name as Json).source_refs = ['dc_otr_ownership@20160101'];
    const doc = buildSubjectReport(input(f));
    const [citation] = citationsOf(doc, value(doc, 'ownership.owner_name').citationIds);
    expect(citation).toMatchObject({ publisher: OTR, releaseId: 20170205 });
    expect(citation?.note).toMatch(/cites release 20160101 of dc_otr_ownership/);
  });

  it('puts the sources of the answers held on the cover, never "no sources bought"', () => {
    const doc = buildSubjectReport(input(independent()));
    expect(doc.cover.dataAsOf).toContain(`${OTR}, Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016): as of 2017-02-05`);
    expect(doc.cover.dataAsOf).toContain('DC Department of Consumer and Regulatory Affairs, Building Permits 2012-2016 (construction, new building): as of 2016-01-22');
    // A source whose publisher the answer does not name is still listed, by its id.
    const f = independent();
    for (const source of (f.subject as Json).data.sources) delete source.publisher;
    expect(buildSubjectReport(input(f)).cover.dataAsOf).toContain('Source dc_otr_ownership (publisher not named in the answer), Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016): as of 2017-02-05');
  });

  it('shows a sale type and market code published as they are as reported, not derived', () => {
    const doc = buildSubjectReport(input(independent()));
    expect(value(doc, 'transfer.sale_type')).toMatchObject({ raw: 'MARKET', status: 'reported', derivedFrom: null });
    expect(value(doc, 'transfer.acceptance_code')).toMatchObject({ raw: '01', status: 'reported', derivedFrom: null });
    expect(citationsOf(doc, value(doc, 'transfer.acceptance_code').citationIds).map((c) => c.sourceId)).toEqual(['dc_otr_sale']);
  });
});
