// Test support (not part of the app): a small subject report as the core builds it, with a reported,
// a derived, a synthetic-with-conflict and an unavailable value, a table, a query log and endnotes.
import type { ReportDocument } from '../../../shared/report/document.ts';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { buildSubjectReport } from '../../../shared/report/build-subject-report.ts';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { comps2016Run } from '../../../shared/comparables/test-kit.ts';
import subjectFixture from '../../../shared/report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import comps2016 from '../../../shared/comparables/fixtures/dc-1708-comps-2016.json' with { type: 'json' };

const value = (overrides: Partial<CitedValue> & Pick<CitedValue, 'field' | 'label' | 'display'>): CitedValue => ({
  raw: overrides.display,
  status: 'reported',
  citationIds: ['otr'],
  derivedFrom: null,
  limitation: null,
  alternatives: [],
  choice: null,
  ...overrides,
});

export function sampleReport(overrides: Partial<ReportDocument> = {}): ReportDocument {
  return {
    kind: 'subject-report',
    version: 1,
    assignmentId: 'p1',
    cover: {
      title: 'Subject report',
      subjectLabel: '1708 21ST ST NW',
      subjectRef: 'prop_0b9e2f1c-5d1e-4c1a-9a51-2f9a3c1b7e10',
      effectiveDate: '2026-05-01',
      assignmentName: 'Dupont row house',
      intendedUse: 'Mortgage lending decision',
      client: 'First Federal <Bank> & Co',
      reference: 'FF-2026-118',
      generatedAt: '2026-05-01T14:03:22.000Z',
      dataAsOf: ['DC OTR tax roll, 2017-02-05'],
    },
    sections: [
      {
        id: 'ownership',
        title: 'Ownership',
        status: 'available',
        limitations: [{ text: 'Data as of 2017-02-05.', citationIds: ['otr'] }],
        values: [value({ field: 'ownership.owner_name', label: 'Owner', display: 'SMITH JOHN' })],
        tables: [],
      },
      {
        id: 'building',
        title: 'Building',
        status: 'partial',
        limitations: [
          { text: 'Building characteristics in the sample are synthetic where CAMA gives none.', citationIds: ['synthetic'] },
          { text: 'Tax bills are not in the sample.', citationIds: [] },
        ],
        values: [
          value({
            field: 'building.year_built',
            label: 'Year built',
            display: '2013',
            citationIds: ['dcra'],
            alternatives: [{ key: 'synthetic:1890', display: '1890', status: 'synthetic', citationIds: ['synthetic'], note: 'Synthetic CAMA stand-in' }],
            choice: { by: 'plat', reason: 'A permit for new construction outranks a synthetic year.', alternativeKey: null, at: null },
          }),
          value({ field: 'building.gross_area', label: 'Gross building area', display: '', raw: null, status: 'unavailable', citationIds: [], limitation: 'DC OTR does not publish building area.' }),
        ],
        tables: [],
      },
      {
        id: 'land',
        title: 'Land',
        status: 'available',
        limitations: [],
        values: [value({ field: 'land.location', label: 'Location', display: '38.91234, -77.04567', status: 'derived', citationIds: ['gis'], derivedFrom: 'DC GIS square centroid of square 0065' })],
        tables: [
          {
            id: 'transfers',
            title: 'Prior sales',
            columns: [
              { key: 'date', label: 'Date' },
              { key: 'price', label: 'Price' },
            ],
            rows: [{ date: value({ field: 'transfer.0.date', label: 'Date', display: '2014-01-22' }), price: value({ field: 'transfer.0.price', label: 'Price', display: '$1,250,000' }) }],
            note: null,
          },
        ],
      },
    ],
    citations: [
      { id: 'otr', number: 1, publisher: 'DC Office of Tax and Revenue', dataset: 'Real property tax roll', asOf: '2017-02-05', sourceId: 'dc_otr_itspe', recordRef: '0065 0007', releaseId: 3, sha256: 'ab'.repeat(32), officialUrl: 'https://otr.cfo.dc.gov/', synthetic: false, note: null },
      { id: 'dcra', number: 2, publisher: 'DC Department of Consumer and Regulatory Affairs', dataset: 'Building permits', asOf: '2016-12-31', sourceId: null, recordRef: 'B1301234', releaseId: null, sha256: null, officialUrl: null, synthetic: false, note: null },
      { id: 'synthetic', number: 3, publisher: 'Plat sample (synthetic)', dataset: 'Synthetic building characteristics', asOf: null, sourceId: null, recordRef: null, releaseId: null, sha256: null, officialUrl: null, synthetic: true, note: null },
      { id: 'gis', number: 4, publisher: 'DC GIS', dataset: 'Square centroids', asOf: '2016-06-01', sourceId: null, recordRef: null, releaseId: null, sha256: null, officialUrl: null, synthetic: false, note: 'Centroid of the square, not of the lot.' },
    ],
    queryLog: [{ operation: 'v3.recordQuery', parameters: 'report_subject_v1 prop_0b9e…', at: '2026-05-01T14:00:00.000Z', chargedMicroUsd: 250_000, cacheHit: false, requestId: 'req_1' }],
    comparables: null,
    titleResearch: null,
    spend: { totalMicroUsd: 250_000, capMicroUsd: 5_000_000 },
    missing: [],
    received: null,
    ...overrides,
  };
}

/** Sales of the embedded service's comparables answer around 1708 21ST ST NW, by their order in it. */
export const COMP_IDS = comps2016.envelope.data.items.map((item) => item.record_ref);

/**
 * The real subject report of 1708 21ST ST NW with a comparables section, as the core builds it: the
 * search sold in 2016 around it, four comps chosen (so the printed grid needs two tables), two rates,
 * one sale set aside by the appraiser, the copied living areas accepted for the whole grid, an indicated value.
 */
export function comparablesReport(patch: Partial<ComparablesWorkfile> = {}): ReportDocument {
  const empty = emptyComparablesWorkfile();
  const workfile: ComparablesWorkfile = {
    ...empty,
    searches: [comps2016Run({ criteria: empty.criteria })],
    chosen: [COMP_IDS[3]!, COMP_IDS[0]!, COMP_IDS[1]!, COMP_IDS[5]!],
    rates: { ...empty.rates, glaPerSqft: 150, timePctPerMonth: 0.25 },
    rateSource: { glaPerSqft: 'appraiser', timePctPerMonth: 'suggestion' },
    notUsed: { [COMP_IDS[7]!]: { reason: 'size', note: 'Much larger than the subject.' } },
    reconciliation: { indicatedValueDollars: 1_300_000, comment: 'Most weight on comp 1, the closest in size.' },
    savedAt: '2026-11-23T22:00:00.000Z',
    syntheticAccepted: [{ row: 'gla', compId: null, reason: 'Living areas checked against the 2016 listings.', at: '2026-11-23T21:50:00.000Z' }],
    ...patch,
  };
  return buildSubjectReport({
    assignment: {
      id: 'p1',
      name: 'Dupont row house',
      capMicroUsd: 5_000_000,
      details: { subjectRef: subjectFixture.subjectRef, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01', intendedUse: 'Lending', client: 'Bank', reference: 'R1', notes: '' },
    },
    subject: subjectFixture.subject,
    summary: subjectFixture.summary,
    choices: [],
    queryLog: [],
    spentMicroUsd: 500_000,
    generatedAt: '2026-11-24T12:00:00.000Z',
    prices: { subjectReportMicroUsd: 0, summaryMicroUsd: 0 },
    comparables: { workfile, pages: [comps2016.envelope] },
  });
}
