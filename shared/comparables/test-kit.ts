// Builds subjects and comparable sales for the grid, regression and export tests, shaped as the
// readers in candidates.ts make them from the service's answers: every grid row a cited value, the
// sale cited to the DC OTR tax roll, the building characteristics to the synthetic sample.
import { CitationBook } from '../cited/citation-book.ts';
import { asSynthetic, type CitationFields } from '../cited/citation.ts';
import type { CitedValue, ValueStatus } from '../cited/value.ts';
import { computeGrid } from './adjustments.ts';
import { citeGrid } from './grid-cited.ts';
import comps2016 from './fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import {
  emptyComparablesWorkfile,
  gridRowKeys,
  type ComparableSale,
  type ComparablesAnalysis,
  type ComparablesWorkfile,
  type CompSearchRun,
  type GridRowKey,
  type LonLat,
  type NotUsedEntry,
  type PolygonCoords,
  type SubjectProperty,
} from './model.ts';
import { regressionSupport } from './regression.ts';
import { notUsedEntries } from './screening.ts';

export const OTR_SALE_CITATION: CitationFields = {
  publisher: 'DC Office of Tax and Revenue',
  dataset: 'Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016)',
  asOf: '2017-02-05T00:00:00Z',
  sourceId: 'dc_otr_sale',
  recordRef: null,
  releaseId: 20170205,
  sha256: 'd5a062f0b77938fad3dc3d0b9a781ad3341a1712ecb63e905cdd1385ada955b2',
  officialUrl: 'https://www.taxpayerservicecenter.com/',
  synthetic: false,
  note: null,
};

export const SYNTHETIC_CHARACTERISTICS_CITATION: CitationFields = asSynthetic({
  publisher: 'Plat synthetic sample (not a public record)',
  dataset: 'Building characteristics copied from DC CAMA residential records of the same use code near the lot’s tax square',
  asOf: '2022-11-20T00:00:00Z',
  sourceId: 'plat_synthetic_characteristics',
  recordRef: null,
  releaseId: 20221120,
  sha256: 'd1c0475c45dc534877d0fa39768fd974a5111eb0ea5523373f02e9b25bb58a6f',
  officialUrl: 'https://opendata.dc.gov/',
  synthetic: true,
  note: null,
});

export const CAMA_CITATION: CitationFields = {
  publisher: 'DC Office of the Chief Technology Officer (DC GIS)',
  dataset: 'Computer Assisted Mass Appraisal - Residential',
  asOf: '2022-11-20T00:00:00Z',
  sourceId: 'dc_cama_residential',
  recordRef: null,
  releaseId: 20221120,
  sha256: null,
  officialUrl: 'https://opendata.dc.gov/',
  synthetic: false,
  note: null,
};

/** The DC CAMA scales, low to high (the grid compares their steps). */
const GRADES = ['Low Quality', 'Fair Quality', 'Average', 'Above Average', 'Good Quality', 'Very Good', 'Excellent', 'Superior'];
const CONDITIONS = ['Poor', 'Fair', 'Average', 'Good', 'Very Good', 'Excellent'];

/** A citation book holding the three sources the kit's values cite, as c1, c2 and c3. */
export function testCitations() {
  const book = new CitationBook();
  const ids = [book.cite(OTR_SALE_CITATION), book.cite(SYNTHETIC_CHARACTERISTICS_CITATION), book.cite(CAMA_CITATION)];
  if (ids.join() !== [OTR_ID, SYNTHETIC_ID, CAMA_ID].join()) throw new Error(`the test citations got ids ${ids.join(', ')}`);
  return book;
}

const OTR_ID = 'c1';
const SYNTHETIC_ID = 'c2';
const CAMA_ID = 'c3';

export function citedValue(
  field: string,
  label: string,
  raw: string | number | boolean | null,
  display: string,
  status: ValueStatus,
  citationIds: string[],
  derivedFrom: string | null = null,
): CitedValue {
  return { field, label, raw, display, status, citationIds, derivedFrom, limitation: null, alternatives: [], choice: null };
}

export function notInSample(field: string, label: string): CitedValue {
  return { ...citedValue(field, label, null, 'not in the sample', 'unavailable', []), limitation: 'Not in the sample.' };
}

export interface PropertySpec {
  id: string;
  address: string;
  gla?: number | null;
  bedrooms?: number | null;
  fullBaths?: number | null;
  halfBaths?: number;
  yearBuilt?: number | null;
  grade?: string | null;
  condition?: string | null;
  landAreaSqft?: number | null;
  /** Characteristics cited to the synthetic sample (OTR sales) or to DC CAMA (the subject). */
  synthetic?: boolean;
}

export interface SaleSpec extends PropertySpec {
  saleDate: string | null;
  priceDollars: number;
  market?: boolean;
  distanceMiles?: number;
  direction?: string;
}

const count = (value: number | null | undefined, field: string, label: string, status: ValueStatus, ids: string[], unit = ''): CitedValue =>
  value === null || value === undefined ? notInSample(field, label) : citedValue(field, label, value, `${value.toLocaleString('en-US')}${unit}`, status, ids);

function propertyOf(spec: PropertySpec, extra: Partial<Record<GridRowKey, CitedValue>>) {
  const synthetic = spec.synthetic ?? true;
  const status: ValueStatus = synthetic ? 'synthetic' : 'reported';
  const ids = [synthetic ? SYNTHETIC_ID : CAMA_ID];
  const baths = spec.fullBaths === null || spec.fullBaths === undefined ? null : spec.fullBaths + 0.5 * (spec.halfBaths ?? 0);
  const gradeStep = spec.grade ? GRADES.indexOf(spec.grade) : -1;
  const conditionStep = spec.condition ? CONDITIONS.indexOf(spec.condition) : -1;
  const values = Object.fromEntries(gridRowKeys.map((row) => [row, notInSample(row, row)])) as Record<GridRowKey, CitedValue>;
  values.address = citedValue('address', 'Address', spec.address, spec.address, 'reported', [OTR_ID]);
  values.gla = count(spec.gla, 'gla', 'Gross living area', status, ids, ' sq ft');
  values.bedrooms = count(spec.bedrooms, 'bedrooms', 'Bedrooms', status, ids);
  values.baths =
    baths === null ? notInSample('baths', 'Baths') : citedValue('baths', 'Baths', baths, `${spec.fullBaths} full, ${spec.halfBaths ?? 0} half`, status, ids);
  values.actualAge = spec.yearBuilt ? citedValue('actualAge', 'Year built', spec.yearBuilt, String(spec.yearBuilt), status, ids) : notInSample('actualAge', 'Year built');
  values.quality = spec.grade ? citedValue('quality', 'Grade', spec.grade, spec.grade, status, ids) : notInSample('quality', 'Grade');
  values.condition = spec.condition ? citedValue('condition', 'Condition', spec.condition, spec.condition, status, ids) : notInSample('condition', 'Condition');
  values.site = count(spec.landAreaSqft, 'site', 'Site', 'reported', [OTR_ID], ' sq ft');
  Object.assign(values, extra);
  return {
    id: spec.id,
    propertyRef: `prop_${spec.id}`,
    address: spec.address,
    location: { lonLat: [-77.046, 38.912] as [number, number], approximate: true, precision: 'square_centroid' },
    values,
    numbers: {
      gla: spec.gla ?? null,
      bedrooms: spec.bedrooms ?? null,
      baths,
      yearBuilt: spec.yearBuilt ?? null,
      gradeStep: gradeStep >= 0 ? gradeStep : null,
      conditionStep: conditionStep >= 0 ? conditionStep : null,
      landAreaSqft: spec.landAreaSqft ?? null,
    },
    syntheticCharacteristics: synthetic,
    // The kit's areas are gross living areas (a service that publishes GLA).
    areaMeasure: spec.gla === null || spec.gla === undefined ? null : ('gla' as const),
    priorSales: [],
    priorSalesNote: 'The sample holds only the last recorded sale of each lot.',
  };
}

/** The subject: characteristics cited to DC CAMA unless `synthetic` says otherwise. */
export function subjectProperty(spec: PropertySpec): SubjectProperty {
  return propertyOf({ synthetic: false, ...spec }, {});
}

/** A sale the search returned: price and date cited to the OTR roll, characteristics synthetic by default. */
export function comparableSale(spec: SaleSpec): ComparableSale {
  const market = spec.market ?? spec.priceDollars > 0;
  const price = citedValue('salePrice', 'Sale price', spec.priceDollars, `$${spec.priceDollars.toLocaleString('en-US')}`, 'reported', [OTR_ID]);
  const saleDate = spec.saleDate === null ? notInSample('saleDate', 'Sale date') : citedValue('saleDate', 'Sale date', spec.saleDate, spec.saleDate, 'reported', [OTR_ID]);
  const distance = spec.distanceMiles ?? 0.25;
  const proximity = citedValue('proximity', 'Proximity', distance, `${distance} mi ${spec.direction ?? 'N'}`, 'derived', [OTR_ID], 'Distance between tax-square centroids');
  const perSqft =
    spec.gla && spec.priceDollars > 0
      ? citedValue('pricePerSqft', 'Price per sq ft', Math.round(spec.priceDollars / spec.gla), `$${Math.round(spec.priceDollars / spec.gla)}`, 'derived', [OTR_ID, SYNTHETIC_ID], 'Sale price ÷ living area')
      : notInSample('pricePerSqft', 'Price per sq ft');
  const property = propertyOf(spec, { salePrice: price, saleDate, proximity, pricePerSqft: perSqft });
  return {
    ...property,
    recordRef: `rec_${spec.id}`,
    saleDate: spec.saleDate,
    priceDollars: spec.priceDollars,
    market,
    marketStatus: market ? 'market' : spec.priceDollars > 0 ? 'non_market' : 'no_price',
    distanceMiles: distance,
    direction: spec.direction ?? 'N',
    flags: market ? [] : spec.priceDollars > 0 ? ['non_market'] : ['no_price'],
    screens: market ? [] : [{ flag: spec.priceDollars > 0 ? 'non_market' : 'no_price', reason: 'non_market', note: 'OTR price 0: non-market or no price.' }],
    screenedOut: market ? null : { reason: 'non_market', note: 'OTR price 0: non-market or no price.' },
    relatedLots: [],
    lotsChecked: false,
  };
}

/** A closed square of `half` degrees around a point. */
export const squareAround = ([lon, lat]: LonLat, half: number): PolygonCoords => [
  [
    [lon - half, lat - half],
    [lon + half, lat - half],
    [lon + half, lat + half],
    [lon - half, lat + half],
    [lon - half, lat - half],
  ],
];

/**
 * The sample's sales carry characteristics copied from other houses (synthetic): examples whose
 * arithmetic is about the grid, not about copied values, accept them for the whole grid.
 */
export const ACCEPT_COPIED: NonNullable<ComparablesWorkfile['syntheticAccepted']> = (['gla', 'bedrooms', 'baths', 'actualAge', 'quality', 'condition'] as const).map((row) => ({
  row,
  compId: null,
  reason: 'Checked against the sale listings.',
  at: '2026-11-23T21:50:00.000Z',
}));

/** A workfile with the given rates (the rest null) and anything else the test sets. */
export function workfileWith(patch: Partial<Omit<ComparablesWorkfile, 'rates'>> & { rates?: Partial<ComparablesWorkfile['rates']> }): ComparablesWorkfile {
  const empty = emptyComparablesWorkfile();
  return { ...empty, ...patch, rates: { ...empty.rates, ...patch.rates } };
}

/** The search of dc-1708-comps-2016.json as a workfile keeps it: 0.5 mile around 1708 21ST ST NW, the year before 2017-01-01. */
export function comps2016Run(patch: Partial<CompSearchRun> = {}): CompSearchRun {
  return {
    id: 'run_1',
    criteria: { ...emptyComparablesWorkfile().criteria, monthsBack: 12 },
    effectiveDate: '2017-01-01',
    radiusMiles: 0.5,
    pages: [comps2016.request],
    ranAt: '2026-11-23T21:45:24.090Z',
    dataAsOf: comps2016.envelope.data.snapshot,
    total: 14,
    returned: 14,
    ...patch,
  };
}

/**
 * The v3 body of a comparables search around `ref` as the tests send it: report_comparables_v1, 0.5
 * mile, sold from 2016-01-01 to `toDate`, use code 24, with or without the undated (DC CAMA) sales;
 * no `limit` is the service's default.
 */
export function comps2016Body(ref: string, options: { toDate: string; includeUndated: boolean; limit?: number }) {
  return {
    mode: 'report',
    projection: 'report_comparables_v1',
    subject_property_ref: ref,
    radius_miles: 0.5,
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    filters: {
      sale: [
        { field: 'from_date', value: '2016-01-01' },
        { field: 'to_date', value: options.toDate },
        { field: 'include_undated', value: String(options.includeUndated) },
      ],
      property: [{ field: 'use_code', value: '24' }],
    },
  };
}

/** The search the kit's analyses say they ran: 0.5 mile around the subject, 2016, its use code. */
export const TEST_RUN: CompSearchRun = comps2016Run({
  pages: [{ mode: 'report', projection: 'report_comparables_v1', radius_miles: 0.5 }],
  dataAsOf: '2017-02-05',
});

/** An analysis as analysis.ts builds it, from a subject, the candidates and the workfile (chosen, rates, weights, not-used reasons). */
export function analysisOf(input: { subject: SubjectProperty | null; candidates: ComparableSale[]; workfile: ComparablesWorkfile; effectiveDate: string }): ComparablesAnalysis {
  const book = testCitations();
  const byId = new Map(input.candidates.map((candidate) => [candidate.id, candidate]));
  const chosen = input.workfile.chosen.flatMap((id) => byId.get(id) ?? []);
  const notUsed: NotUsedEntry[] = notUsedEntries(input.candidates, input.workfile);
  const grid = input.subject
    ? computeGrid({ subject: input.subject, comps: chosen, rates: input.workfile.rates, manual: input.workfile.manual, weights: input.workfile.weights, effectiveDate: input.effectiveDate, syntheticAccepted: input.workfile.syntheticAccepted })
    : { columns: [], adjustedRange: null };
  const cited = input.subject && chosen.length > 0 ? citeGrid({ subject: input.subject, comps: chosen, grid, workfile: input.workfile }, book.cite) : null;
  return {
    run: TEST_RUN,
    set: {
      subject: input.subject,
      candidates: input.candidates,
      total: input.candidates.length,
      truncated: false,
      nextCursor: null,
      dataAsOf: '2017-02-05',
      limitations: [{ text: 'Locations of OTR sales are tax-square centroids (approximate).', citationIds: [OTR_ID] }],
    },
    chosen,
    grid,
    support: regressionSupport(input.candidates, input.effectiveDate, { workfile: input.workfile }),
    notUsed,
    problems: [],
    citations: book.all(),
    cited,
  };
}

/**
 * A worked example for the exports: the subject, twelve market sales of 2016 (enough for the
 * regression) and a non-market transfer, three comps chosen, four rates set, a lump sum, weights,
 * an appraiser's not-used reason and a reconciliation.
 */
export function exampleAnalysis(patch: { comp1Address?: string } = {}) {
  const subject = subjectProperty({ id: 'subject', address: '1708 21ST ST NW', gla: 2_400, bedrooms: 4, fullBaths: 3, halfBaths: 1, yearBuilt: 1900, grade: 'Very Good', condition: 'Good', landAreaSqft: 1_980 });
  const sales: Array<[gla: number, bedrooms: number, saleDate: string, price: number, built: number]> = [
    [1_800, 3, '2016-01-15', 1_288_871, 1895],
    [2_100, 3, '2016-02-20', 1_416_236, 1905],
    [2_400, 4, '2016-03-10', 1_585_485, 1900],
    [1_650, 2, '2016-04-05', 1_134_693, 1910],
    [2_900, 5, '2016-05-25', 1_879_478, 1885],
    [2_250, 4, '2016-06-14', 1_560_293, 1912],
    [3_100, 5, '2016-07-01', 1_991_910, 1890],
    [1_950, 3, '2016-08-19', 1_420_629, 1900],
    [2_600, 4, '2016-09-09', 1_716_509, 1905],
    [2_000, 2, '2016-10-28', 1_329_729, 1915],
    [2_750, 4, '2016-11-15', 1_846_412, 1895],
    [3_300, 6, '2016-12-06', 2_155_292, 1890],
  ];
  const candidates = sales.map(([gla, bedrooms, saleDate, priceDollars, yearBuilt], index) =>
    comparableSale({
      id: `sale${index + 1}`,
      address: index === 2 && patch.comp1Address !== undefined ? patch.comp1Address : `${1700 + index * 2} 21ST ST NW`,
      gla,
      bedrooms,
      fullBaths: 3,
      halfBaths: index % 2,
      yearBuilt,
      grade: index % 3 === 0 ? 'Excellent' : 'Very Good',
      condition: 'Good',
      saleDate,
      priceDollars,
      distanceMiles: (10 + index * 3) / 100,
      direction: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'][index % 8] ?? 'N',
      landAreaSqft: 1_500 + index * 100,
    }),
  );
  candidates.push(comparableSale({ id: 'transfer', address: '1735 21ST ST NW', gla: 2_300, bedrooms: 4, saleDate: '2016-07-05', priceDollars: 0 }));
  const workfile = workfileWith({
    chosen: ['sale3', 'sale9', 'sale6'],
    rates: { timePctPerMonth: 0.5, glaPerSqft: 150, perBedroom: 10_000, perYearOfAge: 500 },
    rateSource: { timePctPerMonth: 'appraiser', glaPerSqft: 'suggestion', perBedroom: 'appraiser', perYearOfAge: 'appraiser' },
    manual: { sale9: { site: -15_000 } },
    weights: { sale3: 'most', sale9: 'less', sale6: 'none' },
    notUsed: { sale12: { reason: 'size', note: 'Much larger than the subject.' } },
    reconciliation: { indicatedValueDollars: 1_640_000, comment: 'Most weight to comp 1, the same size and block.' },
    syntheticAccepted: ACCEPT_COPIED,
  });
  return { subject, candidates, workfile, analysis: analysisOf({ subject, candidates, workfile, effectiveDate: '2017-01-01' }) };
}

/**
 * Thirty sales with observed characteristics, priced 200,000 + 150·GLA − 30,000·bedrooms + a fixed
 * noise in a flat market: the regression's GLA rate is supported, its time rate's interval straddles
 * zero and its bedroom rate has the wrong sign (regression guardrails).
 */
export function guardrailSales(): ComparableSale[] {
  return Array.from({ length: 30 }, (_, index) => {
    const gla = 1_500 + ((index * 7) % 19) * 100;
    const bedrooms = 2 + ((index * 3) % 5);
    const saleDate = `2016-${String(1 + (index % 12)).padStart(2, '0')}-${String(5 + (index % 20)).padStart(2, '0')}`;
    const priceDollars = 200_000 + 150 * gla - 30_000 * bedrooms + Math.round(20_000 * Math.sin(index * 12.9898));
    return comparableSale({ id: `t${index + 1}`, address: `${200 + index} T ST NW`, gla, bedrooms, saleDate, priceDollars, yearBuilt: null, fullBaths: null, synthetic: false });
  });
}

/** The appraiser takes in every multi-parcel sale of these candidates, with a reason (to fit the issue's own figures). */
export function multiParcelTakenIn(candidates: readonly ComparableSale[]): NonNullable<ComparablesWorkfile['takenIn']> {
  const reason = 'Each lot is a separate house; the deed price split evenly.';
  return Object.fromEntries(candidates.filter((sale) => sale.flags.includes('multi_parcel')).map((sale) => [sale.id, { reason, at: '2026-11-27T21:50:00Z' }]));
}
