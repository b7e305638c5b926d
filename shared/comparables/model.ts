// The comparable-sales work of an assignment: what the appraiser asked for (criteria, market area),
// what the service returned (candidates, each value cited), what the appraiser did with it (chosen
// comps in column order, reasons for the ones not used, adjustment rates and their support, weights,
// the indicated value). The persisted part (ComparablesWorkfile) is zod-checked at the IPC door and in
// workfile files; everything else is computed from it and the kept answers by pure functions in this
// folder, so the screen, the report, the PDF and the exports all say the same thing.
//
// Money here is property money: whole US dollars (the records publish whole dollars). Service spend
// stays integer micro-USD elsewhere.
import { z } from 'zod';
import { isIsoDate } from '../service/common.ts';
import { CitedValueSchema, type Citation, type CitedValue } from '../cited/value.ts';
import type { Derivation } from '../cited/derivation.ts';
import type { MarketStatus } from './sale-market.ts';

// ---------------------------------------------------------------------------------------------
// Geometry (GeoJSON order: [longitude, latitude])

export type LonLat = [number, number];
const LonLatSchema = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
/** One linear ring, closed (first point repeated last), at least 4 positions. */
const RingSchema = z.array(LonLatSchema).min(4).max(5_000);
export const PolygonCoordsSchema = z.array(RingSchema).min(1).max(50);
export type PolygonCoords = z.infer<typeof PolygonCoordsSchema>;
export const MultiPolygonCoordsSchema = z.array(PolygonCoordsSchema).min(1).max(200);
export type MultiPolygonCoords = z.infer<typeof MultiPolygonCoordsSchema>;

/** The map layers a market area can be chosen from. */
export const areaLayers = ['ward', 'zip', 'cluster', 'assessment_neighborhood'] as const;
export type AreaLayer = (typeof areaLayers)[number];
export const areaLayerLabels: Record<AreaLayer, string> = {
  ward: 'Ward',
  zip: 'ZIP code',
  cluster: 'Neighborhood cluster',
  assessment_neighborhood: 'Assessment neighborhood',
};

/**
 * Where comparables may come from. The service searches a radius around the subject; a drawn or
 * chosen polygon is searched as the smallest radius around the subject that covers it, and the
 * sales outside the polygon are listed as analyzed, not used (proximity: outside the market area).
 */
export const MarketAreaSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('radius'), radiusMiles: z.number() }),
  z.strictObject({ kind: z.literal('polygon'), label: z.string().max(200), polygon: PolygonCoordsSchema }),
  z.strictObject({
    kind: z.literal('layer'),
    layer: z.enum(areaLayers),
    /** The feature's own name or code ("Ward 2", "20009", "Cluster 6", "010"). */
    featureId: z.string().min(1).max(100),
    label: z.string().max(200),
    multiPolygon: MultiPolygonCoordsSchema,
  }),
]);
export type MarketArea = z.infer<typeof MarketAreaSchema>;

// ---------------------------------------------------------------------------------------------
// Criteria

/**
 * What the appraiser searches for. Numbers are checked by `criteriaProblems` (search.ts) with
 * messages for a person, not by this schema (a draft with a radius of 0 is kept and explained).
 */
export const CompSearchCriteriaSchema = z.strictObject({
  area: MarketAreaSchema,
  /** Sold in this many months before the effective date (and not after it). */
  monthsBack: z.number(),
  /** Gross living area within ± this percent of the subject's. */
  livingAreaBandPct: z.number(),
  /** Only the subject's use code (its property type). */
  sameUseCode: z.boolean(),
  /** Only arm's-length (market) sales are usable; others are listed flagged, never silently used. */
  armsLengthOnly: z.boolean(),
  /** Ask for sales without a date too (DC CAMA): listed flagged, never placed in the date window. */
  includeUndated: z.boolean(),
});
export type CompSearchCriteria = z.infer<typeof CompSearchCriteriaSchema>;

/** A search as it was run: kept in the assignment, printed in the report, re-runnable. */
export const CompSearchRunSchema = z.strictObject({
  id: z.string().min(1).max(64),
  criteria: CompSearchCriteriaSchema,
  /** The assignment's effective date when it ran (the window ends there). */
  effectiveDate: z.string().refine((text) => isIsoDate(text)),
  /** The radius actually sent (the area's covering radius for a polygon). */
  radiusMiles: z.number().gt(0).max(5),
  /** The v3 request bodies sent, page by page (page 1 first): the kept answers are found by them. */
  pages: z.array(z.record(z.string(), z.unknown())).min(1).max(5),
  ranAt: z.string(),
  /** The answer's data snapshot / as-of, as the service stated it. */
  dataAsOf: z.string().nullable(),
  /** How many candidates the service said match (all pages), and how many were returned. */
  total: z.number().int().min(0),
  returned: z.number().int().min(0),
});
export type CompSearchRun = z.infer<typeof CompSearchRunSchema>;

// ---------------------------------------------------------------------------------------------
// Adjustments

export const rateKeys = ['timePctPerMonth', 'glaPerSqft', 'perBedroom', 'perBath', 'perYearOfAge', 'perGradeStep', 'perConditionStep'] as const;
export type RateKey = (typeof rateKeys)[number];
export const rateLabels: Record<RateKey, { label: string; unit: string }> = {
  timePctPerMonth: { label: 'Market conditions (time)', unit: '% per month' },
  // The area as published: gross living or gross building area (areaRowLabel names it where the properties are known).
  glaPerSqft: { label: 'Area as published (gross living or building area)', unit: '$ per sq ft' },
  perBedroom: { label: 'Bedrooms', unit: '$ per bedroom' },
  perBath: { label: 'Bathrooms', unit: '$ per bath (half bath counts ½)' },
  perYearOfAge: { label: 'Actual age', unit: '$ per year' },
  perGradeStep: { label: 'Quality (grade)', unit: '$ per grade step' },
  perConditionStep: { label: 'Condition', unit: '$ per condition step' },
};

/** The appraiser's rates: null is "no adjustment for this feature" (printed as such). */
export const AdjustmentRatesSchema = z.strictObject(
  Object.fromEntries(rateKeys.map((key) => [key, z.number().min(-1e7).max(1e7).nullable()])) as Record<RateKey, z.ZodNullable<z.ZodNumber>>,
);
export type AdjustmentRates = z.infer<typeof AdjustmentRatesSchema>;

/** Grid rows: the URAR sales comparison grid's rows, as the sample's data allows. */
export const gridRowKeys = [
  'address',
  'proximity',
  'salePrice',
  'pricePerSqft',
  'dataSource',
  'saleType',
  'saleDate',
  'site',
  'style',
  'quality',
  'actualAge',
  'condition',
  'rooms',
  'bedrooms',
  'baths',
  'gla',
  'stories',
  'heatingCooling',
  'fireplaces',
  'exterior',
  'units',
] as const;
export type GridRowKey = (typeof gridRowKeys)[number];
/** The row each rate adjusts. */
export const rateRow: Record<RateKey, GridRowKey> = {
  timePctPerMonth: 'saleDate',
  glaPerSqft: 'gla',
  perBedroom: 'bedrooms',
  perBath: 'baths',
  perYearOfAge: 'actualAge',
  perGradeStep: 'quality',
  perConditionStep: 'condition',
};
/** Rows adjusted by a lump sum the appraiser types per comp (no rate from the data). */
export const manualRows = ['site', 'style', 'stories', 'heatingCooling', 'fireplaces', 'exterior', 'units'] as const satisfies readonly GridRowKey[];
export type ManualRowKey = (typeof manualRows)[number];

export const weights = ['most', 'less', 'none'] as const;
export type ComparableWeight = (typeof weights)[number];

/** Why a candidate the search returned was not used (UAD 3.6 asks for one per analyzed sale). */
export const notUsedReasons = ['proximity', 'date', 'size', 'condition', 'quality', 'non_market', 'multi_parcel', 'duplicate', 'no_date', 'property_type', 'data', 'other'] as const;
export type NotUsedReason = (typeof notUsedReasons)[number];
export const notUsedReasonLabels: Record<NotUsedReason, string> = {
  proximity: 'Proximity',
  date: 'Sale date',
  size: 'Size (living area)',
  condition: 'Condition',
  quality: 'Quality',
  non_market: 'Non-market or no price',
  multi_parcel: 'Multi-parcel sale',
  duplicate: 'Duplicate record of one sale',
  no_date: 'No sale date',
  property_type: 'Property type',
  data: 'Insufficient data',
  other: 'Other',
};

/** An act of the appraiser that needs a written reason, printed with what it changed. */
export const AppraiserActSchema = z.strictObject({ reason: z.string().trim().min(1).max(2_000), at: z.string().max(40) });
export type AppraiserAct = z.infer<typeof AppraiserActSchema>;

export const ComparablesWorkfileSchema = z.strictObject({
  version: z.literal(1),
  /** The criteria being edited (the next search). */
  criteria: CompSearchCriteriaSchema,
  /** Every search run, oldest first; the last is the current one. */
  searches: z.array(CompSearchRunSchema).max(50),
  /** Chosen comps (candidate ids), in grid column order. At most 20. */
  chosen: z.array(z.string().min(1).max(200)).max(20),
  /** The appraiser's reason for a candidate not used (overrides Plat's screening reason). */
  notUsed: z.record(z.string().max(200), z.strictObject({ reason: z.enum(notUsedReasons), note: z.string().max(2_000) })),
  rates: AdjustmentRatesSchema,
  /** Where each rate came from: typed by the appraiser, or a regression suggestion they accepted. */
  rateSource: z.partialRecord(z.enum(rateKeys), z.enum(['appraiser', 'suggestion'])),
  /** Lump-sum adjustments in dollars, by comp id then row. */
  manual: z.record(z.string().max(200), z.partialRecord(z.enum(manualRows), z.number().int().min(-1e8).max(1e8))),
  weights: z.record(z.string().max(200), z.enum(weights)),
  reconciliation: z.strictObject({
    indicatedValueDollars: z.number().int().min(0).max(1e10).nullable(),
    comment: z.string().max(5_000),
  }),
  savedAt: z.string().nullable(),
  // The appraiser's acts below were added after version 1 was first saved: optional, so older
  // workfiles still open (absent is "none taken").
  /** The appraiser's choice of value for a subject characteristic, by characteristic key (shared/comparables/subject/). */
  subjectChoices: z.record(z.string().max(100), AppraiserActSchema.extend({ alternativeKey: z.string().max(200) })).optional(),
  /** Sales Plat screened out (multi-parcel, duplicate, …) that the appraiser takes in anyway, by candidate id. */
  takenIn: z.record(z.string().max(200), AppraiserActSchema).optional(),
  /** Copied (synthetic) characteristics the appraiser accepts to drive adjustments and the regression: per row, for one comp or the whole grid (compId null). */
  syntheticAccepted: z.array(AppraiserActSchema.extend({ row: z.enum(gridRowKeys), compId: z.string().max(200).nullable() })).max(500).optional(),
  /** A regression suggestion accepted although Plat shows it as not supported: the appraiser's written reason, by rate. */
  unsupportedRateReasons: z.partialRecord(z.enum(rateKeys), AppraiserActSchema).optional(),
  /** The market-sales search behind market conditions and the time trend (shared/market/): the area's sales of the type, any size, 36 months. */
  marketSearch: CompSearchRunSchema.optional(),
  /** The time trend's window and the appraiser's act on its rate: accepted (as the time rate) or declined, each with when and why. */
  marketTrend: z
    .strictObject({
      windowMonths: z.union([z.literal(12), z.literal(24), z.literal(36)]),
      decision: z
        .discriminatedUnion('kind', [
          z.strictObject({ kind: z.literal('accepted'), pctPerMonth: z.number().min(-100).max(100), windowMonths: z.number().int(), at: z.string().max(40) }),
          AppraiserActSchema.extend({ kind: z.literal('declined') }),
        ])
        .nullable(),
    })
    .optional(),
});
export type ComparablesWorkfile = z.infer<typeof ComparablesWorkfileSchema>;

/** Where appraisers start: half a mile, 12 months, living area ±20 %, same type, arm's length only, dated sales. */
export const DEFAULT_CRITERIA: CompSearchCriteria = {
  area: { kind: 'radius', radiusMiles: 0.5 },
  monthsBack: 12,
  livingAreaBandPct: 20,
  sameUseCode: true,
  armsLengthOnly: true,
  // Off at first: a sale without a date cannot be placed in the window. Turned on, they are listed flagged.
  includeUndated: false,
};

export const NO_RATES: AdjustmentRates = {
  timePctPerMonth: null,
  glaPerSqft: null,
  perBedroom: null,
  perBath: null,
  perYearOfAge: null,
  perGradeStep: null,
  perConditionStep: null,
};

/** An assignment's comparables before anything was searched or chosen. */
export const emptyComparablesWorkfile = (): ComparablesWorkfile => ({
  version: 1,
  criteria: DEFAULT_CRITERIA,
  searches: [],
  chosen: [],
  notUsed: {},
  rates: NO_RATES,
  rateSource: {},
  manual: {},
  weights: {},
  reconciliation: { indicatedValueDollars: null, comment: '' },
  savedAt: null,
});

// ---------------------------------------------------------------------------------------------
// Computed (never persisted): the subject and the candidates read from the kept answers

/** Numbers the grid and the regression compute with (null when the sample lacks them). */
export interface FeatureNumbers {
  gla: number | null;
  bedrooms: number | null;
  /** Full baths + ½ per half bath. */
  baths: number | null;
  yearBuilt: number | null;
  /** Ordinal step on the DC CAMA grade scale (gradeStep in search.ts), null when unknown. */
  gradeStep: number | null;
  conditionStep: number | null;
  landAreaSqft: number | null;
}

/** A property as the grid shows it: one cited value per grid row (unavailable ones say why). */
export interface GridProperty {
  id: string;
  propertyRef: string;
  address: string;
  location: { lonLat: LonLat; approximate: boolean; precision: string } | null;
  values: Record<GridRowKey, CitedValue>;
  numbers: FeatureNumbers;
  /** True when the building characteristics are the sample's synthetic copies. */
  syntheticCharacteristics: boolean;
  /** What its area (`gla` row) measures as published: gross living area, gross building area, or not stated (answer-values.ts `areaOf`); null when it has none. */
  areaMeasure?: 'gla' | 'gba' | 'unstated' | null;
  /** Earlier transfers the answers hold, newest first (may be empty; `priorSalesNote` says why). */
  priorSales: Array<{ date: CitedValue; price: CitedValue; source: CitedValue }>;
  priorSalesNote: string;
}

export type SubjectProperty = GridProperty;

export type CandidateFlag =
  | 'duplicate_record'
  | 'non_market'
  | 'no_price'
  | 'multi_parcel'
  | 'market_unknown'
  | 'undated'
  | 'outside_window'
  | 'outside_area_band'
  | 'outside_market_area'
  | 'other_use_code'
  | 'approximate_location'
  | 'synthetic_characteristics'
  | 'size_not_compared'
  | 'no_living_area';

export const candidateFlagLabels: Record<CandidateFlag, string> = {
  duplicate_record: 'Duplicate record of one sale',
  multi_parcel: 'Multi-parcel sale',
  non_market: 'Not arm’s length',
  // OTR's price 0: non-market or no price, never "not arm's length" alone (docs/domain.md).
  no_price: 'Non-market or no price',
  market_unknown: 'Market or not: not recognised by Plat',
  undated: 'No sale date',
  outside_window: 'Outside the date window',
  outside_area_band: 'Outside the living-area band',
  outside_market_area: 'Outside the market area',
  other_use_code: 'Other property type',
  approximate_location: 'Approximate location',
  synthetic_characteristics: 'Synthetic characteristics',
  size_not_compared: 'Size not compared (copied area)',
  no_living_area: 'No living area',
};

/**
 * Flags that say a sale does not fit the criteria and needs a second look. An approximate location
 * and synthetic characteristics are true of every OTR sale in the sample: marking them would mark everything.
 */
export const cautionFlags: ReadonlySet<CandidateFlag> = new Set<CandidateFlag>([
  'duplicate_record',
  'multi_parcel',
  'non_market',
  'no_price',
  'market_unknown',
  'undated',
  'outside_window',
  'outside_area_band',
  'outside_market_area',
  'other_use_code',
  'no_living_area',
]);

/** One screen a sale fails (shared/comparables/screening.ts decides them). */
export interface SaleScreen {
  flag: CandidateFlag;
  /** The not-used reason the screen gives; null for a flag that asks for a look but screens nothing out. */
  reason: NotUsedReason | null;
  /** Why, in words (names and cites what it compares with where it can). */
  note: string;
}

/** Another lot of the same deed (a multi-parcel sale), as the answer gives it. */
export interface RelatedLot {
  /** Its candidate id when the same answer holds it; null when a record search by the deed's date and price named it. */
  candidateId: string | null;
  address: string;
  ssl: string | null;
  recordRef: string;
  useCode: string | null;
  /** The citations of its recorded date and price (the evidence that it is the same deed). */
  citationIds: string[];
}

/** One sale the search returned. */
export interface ComparableSale extends GridProperty {
  /** The sale record's ref: the candidate's id. */
  recordRef: string;
  saleDate: string | null;
  priceDollars: number;
  /** True only when the answer says, in words Plat recognises, that it sold at market with a price. */
  market: boolean;
  /** The reading `market` comes from (shared/comparables/sale-market.ts): unknown is not non-market. */
  marketStatus: MarketStatus;
  distanceMiles: number;
  /** Compass direction from the subject: "N", "NE" … */
  direction: string;
  /** Screening flags; a flag that makes the sale unusable under the criteria also gives a default not-used reason. */
  flags: CandidateFlag[];
  /** Every screen the sale fails, in the order found (`flags` are their flags). */
  screens: SaleScreen[];
  /** Plat's default reason when the screening says the sale does not fit (null when it fits). */
  screenedOut: { reason: NotUsedReason; note: string } | null;
  /** The other lots of the same deed when it is a multi-parcel sale (empty otherwise). */
  relatedLots: RelatedLot[];
  /** True when a kept record search by the deed's date and price looked for its other lots beyond the answer. */
  lotsChecked: boolean;
}

export interface CandidateSet {
  subject: SubjectProperty | null;
  candidates: ComparableSale[];
  /** As the service said (all pages); `returned` is candidates.length. */
  total: number;
  truncated: boolean;
  /** The next page's cursor when the service has more (a further purchase). */
  nextCursor: string | null;
  dataAsOf: string | null;
  /** What the answers say they lack, cited (shown under the list and printed). */
  limitations: Array<{ text: string; citationIds: string[] }>;
}

// ---------------------------------------------------------------------------------------------
// Computed: the grid, its support, the whole analysis

/** One comp's column below the subject: its adjustments and where they lead. Whole dollars. */
export interface GridColumnResult {
  compId: string;
  /** Row → adjustment in whole dollars (a row without an adjustment is absent). */
  adjustments: Partial<Record<GridRowKey, number>>;
  /** How each adjustment was worked out, in words ("(1,850 − 1,620) sq ft × $150"), by row. */
  workings: Partial<Record<GridRowKey, string>>;
  /** Each adjustment's rule and inputs (shared/cited/derivation.ts), by row: what its cited value carries so Verify makes it again. */
  derivations: Partial<Record<GridRowKey, Derivation>>;
  /** The sum of `adjustments` (always equal: computed from the same rounded numbers). */
  net: number;
  gross: number;
  /** Net and gross as a percent of the sale price (one decimal). */
  netPct: number;
  grossPct: number;
  adjustedPrice: number;
  weight: ComparableWeight;
  /** Why a rate could not be applied to this comp ("no sale date: no time adjustment"). */
  warnings: string[];
}

export interface GridResult {
  columns: GridColumnResult[];
  /** Lowest and highest adjusted price of the comps given weight (all comps when none has), and which comps those are. */
  adjustedRange: { low: number; high: number; compIds: string[] } | null;
}

const RateKeySchema = z.enum(rateKeys);

/**
 * Whether a suggestion may be offered (shared/comparables/regression-standing.ts decides): supported
 * only with enough sales beyond the predictors, the expected sign, an interval that does not straddle
 * zero and predictors observed on the sales; otherwise every reason it is not.
 */
export const RateStandingSchema = z.object({
  supported: z.boolean(),
  /** The sign a sound estimate has, in words ("positive: more living area is worth more"). */
  expectedSign: z.string(),
  reasons: z.array(z.string()),
});
export type RateStanding = z.infer<typeof RateStandingSchema>;

/** The regression's suggestion for one rate, in the rate's own unit. */
export const RateSuggestionSchema = z.object({
  rate: RateKeySchema,
  /** null when the regression could not estimate it (`why` says why). */
  value: z.number().nullable(),
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  /** The raw coefficient (dollars per unit of the predictor) and its standard error. */
  coefficient: z.number().nullable(),
  stdError: z.number().nullable(),
  why: z.string().nullable(),
  standing: RateStandingSchema,
});

/** Where a predictor's value on a sale comes from: the sale's own record, a copied value the appraiser accepted, a copied value not accepted (not used), or none. */
export const predictorSources = ['observed', 'copied-accepted', 'copied', 'missing'] as const;
export type PredictorSource = (typeof predictorSources)[number];

/** One sale the regression analyzed, with every candidate predictor's value: what a reviewer refits from. */
export const AnalyzedSaleSchema = z.object({
  id: z.string(),
  address: z.string(),
  saleDate: z.string().nullable(),
  /** The response: the sale price in whole dollars. */
  priceDollars: z.number(),
  /** In the fit, or left out (and `why`). */
  used: z.boolean(),
  why: z.string().nullable(),
  /** Screened out by Plat and taken in by the appraiser: their reason. */
  takenIn: z.string().nullable(),
  values: z.record(RateKeySchema, z.object({ value: z.number().nullable(), source: z.enum(predictorSources) })),
});
export type AnalyzedSale = z.infer<typeof AnalyzedSaleSchema>;

/** The regression's figures as derived values (n, R², each suggested rate and its interval), recomputable from the design. */
export const RegressionFiguresSchema = z.object({
  n: CitedValueSchema,
  r2: CitedValueSchema,
  rates: z.partialRecord(RateKeySchema, z.object({ value: CitedValueSchema, interval: CitedValueSchema })),
});
export type RegressionFigures = z.infer<typeof RegressionFiguresSchema>;

/** The regression behind the suggested rates (computed in this folder, printed by the report). */
export const RegressionSupportSchema = z.object({
  /** "Ordinary least squares of sale price on …" in words, with the libraries used, which predictors are observed and which copied. */
  method: z.string(),
  n: z.number().int().min(0),
  r2: z.number().nullable(),
  adjustedR2: z.number().nullable(),
  /** The predictors fitted, in the design's column order. */
  predictors: z.array(RateKeySchema),
  suggestions: z.record(RateKeySchema, RateSuggestionSchema),
  /** The sales the regression used, each cited (citation ids of its price). */
  salesUsed: z.array(z.object({ id: z.string(), address: z.string(), priceDollars: z.number(), saleDate: z.string().nullable(), citationIds: z.array(z.string()) })),
  /** Sales of the search left out, and why ("no sale date", "not arm's length", a screening reason). */
  excluded: z.array(z.object({ id: z.string(), address: z.string(), why: z.string() })),
  /** Every sale analyzed (used and left out) with its predictors' values and their sources. */
  analyzed: z.array(AnalyzedSaleSchema),
  /** The fit's intercept and degrees of freedom (null when nothing was fitted). */
  fit: z.object({ intercept: z.number(), interceptStdError: z.number(), df: z.number().int(), t: z.number(), meanPrice: z.number() }).nullable(),
  /** n, R², each rate and interval as derived values (null when nothing was fitted). */
  figures: RegressionFiguresSchema.nullable(),
  /** Set when no regression could be run at all ("7 sales for 7 predictors: at least 10 needed"). */
  message: z.string().nullable(),
});

/** The regression's suggestion for one rate, in the rate's own unit (the report's schema). */
export type RateSuggestion = z.infer<typeof RateSuggestionSchema>;
/** The regression behind the suggested rates, as computed here and printed by the report. */
export type RegressionSupport = z.infer<typeof RegressionSupportSchema>;

/**
 * A sale analyzed and not used. `by`: the appraiser gave the reason; Plat screened it out; or the
 * appraiser simply did not choose it (no reason made up: `reason` null until they give one).
 */
export type NotUsedEntry =
  | { candidate: ComparableSale; reason: NotUsedReason; note: string; by: 'plat' | 'appraiser' }
  | { candidate: ComparableSale; reason: null; note: string; by: 'not_chosen' };

export interface ComparablesAnalysis {
  run: CompSearchRun | null;
  set: CandidateSet;
  /** Chosen comps, in column order. */
  chosen: ComparableSale[];
  grid: GridResult;
  support: RegressionSupport;
  notUsed: NotUsedEntry[];
  /** What does not add up, in words ("Comp 3 is not in the current search's answer: dropped"). */
  problems: string[];
  /** Every citation the analysis's values refer to (ids from the citation book it was built with). */
  citations: Citation[];
  /** The figures the appraiser adds (rates, adjustments, net, gross, adjusted prices, range, indicated value) as derived values; null without a grid. */
  cited: CitedGrid | null;
}

/** One comp's figures as derived values: each cites its inputs and carries its rule (grid-cited.ts). */
export interface CitedGridColumn {
  compId: string;
  adjustments: Partial<Record<GridRowKey, CitedValue>>;
  net: CitedValue;
  netPct: CitedValue;
  gross: CitedValue;
  grossPct: CitedValue;
  adjustedPrice: CitedValue;
}

/** The appraiser's figures as derived values, cited to their inputs and to the appraiser. */
export interface CitedGrid {
  /** Who the appraiser's own entries are cited to (the citation's publisher). */
  appraiser: string;
  /** The rates set (a rate left empty adjusts nothing and is not a figure). */
  rates: Partial<Record<RateKey, CitedValue>>;
  columns: CitedGridColumn[];
  adjustedRange: CitedValue | null;
  indicatedValue: CitedValue | null;
}

// ---------------------------------------------------------------------------------------------
// The map, as data: the screen and the report's image draw the same spec

export const MapPointRoleSchema = z.enum(['chosen', 'candidate', 'flagged', 'not_used']);
export type MapPointRole = z.infer<typeof MapPointRoleSchema>;

export const ComparablesMapSpecSchema = z.object({
  subject: z
    .object({
      lonLat: LonLatSchema,
      label: z.string(),
      approximate: z.boolean(),
      /** What the map writes at the subject, on screen and in print: "S" (map-spec.ts SUBJECT_TAG). */
      tag: z.string().min(1).default('S'),
    })
    .nullable(),
  points: z.array(
    z.object({
      id: z.string(),
      lonLat: LonLatSchema,
      role: MapPointRoleSchema,
      /** Address, shown on hover and in the legend table. */
      label: z.string(),
      /** "Comp 2" number for chosen comps (drawn beside the symbol), else null. */
      number: z.number().int().min(1).nullable(),
      /** What the map writes on the symbol: the grid's column number for a chosen comp ("1"), else null. */
      tag: z.string().min(1).nullable().default(null),
      approximate: z.boolean(),
      /** Hover text lines: price, date, $/sq ft, citation label. */
      details: z.array(z.string()),
    }),
  ),
  area: MarketAreaSchema.nullable(),
  /** The radius searched around the subject (drawn as a ring; for a polygon, the covering circle). */
  radiusMiles: z.number().nullable(),
  /** Describes the map in words for the image's alt text and the screen reader. */
  altText: z.string(),
});
export type ComparablesMapSpec = z.infer<typeof ComparablesMapSpecSchema>;
