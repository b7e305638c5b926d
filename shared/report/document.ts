// The cited report document: one pure model that the screen, the print route (and so the PDF) and
// every export render from (Excalidraw's scene/export.ts draws exports with the canvas's own code).
// Built by tested functions in shared/report/ from the service answers an assignment holds: the
// subject's sections, then the comparables section (comparables-section.ts), then the title research
// (title-research-section.ts).
//
// The rule it carries: every value says where it came from (shared/cited/value.ts).
import { z } from 'zod';
import { AppraiserActSchema, ComparablesMapSpecSchema, CompSearchRunSchema, gridRowKeys, MapPointRoleSchema, notUsedReasons, rateKeys, RegressionSupportSchema, weights } from '../comparables/model.ts';
import { CitationSchema, CitedValueSchema, LimitationSchema } from '../cited/value.ts';
import { graphDecisionKinds, GraphSpecSchema, graphNodeKinds, linkStrengths } from '../graph/graph-spec.ts';
import { MarketReportSchema } from './market-document.ts';
import { ChartSpecSchema } from '../charts/chart-spec.ts';

/** A table inside a section (permits, prior sales): each cell a cited value. */
export const ReportTableSchema = z.object({
  id: z.string(),
  title: z.string(),
  columns: z.array(z.object({ key: z.string(), label: z.string() })),
  rows: z.array(z.record(z.string(), CitedValueSchema)),
  /** E.g. "3 of 12 permits shown" or "no earlier transfers in the sample". */
  note: z.string().nullable(),
});
export type ReportTable = z.infer<typeof ReportTableSchema>;


export const ReportSectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(['available', 'partial', 'unavailable']),
  limitations: z.array(LimitationSchema),
  values: z.array(CitedValueSchema),
  tables: z.array(ReportTableSchema),
});
export type ReportSection = z.infer<typeof ReportSectionSchema>;

/** One call the assignment made (what was asked and when). */
export const QueryLogEntrySchema = z.object({
  operation: z.string(),
  /** The request's parameters, as compact text. */
  parameters: z.string(),
  at: z.string(),
  chargedMicroUsd: z.number().int(),
  cacheHit: z.boolean(),
  requestId: z.string().nullable(),
});
export type QueryLogEntry = z.infer<typeof QueryLogEntrySchema>;

/** The v3 `report_subject_v1` request for a subject: the purchase the report's sections come from. */
export const subjectReportParts = (subjectRef: string) => ({
  body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: subjectRef },
});
/** The v4 summary request for a subject: the purchase its best values and alternatives come from. */
export const subjectSummaryParts = (subjectRef: string) => ({ path: { q_id: subjectRef } });

/** A purchase the report still needs before its sections can be filled, with its price. */
export const MissingSourceSchema = z.object({
  /** The IPC operation that buys it (`queryRecords` or `getEntitySummary`) and its request. */
  ipcOperation: z.enum(['queryRecords', 'getEntitySummary']),
  request: z.record(z.string(), z.unknown()),
  label: z.string(),
  /** null when its price is not known on the connection (no charge for it seen yet). */
  expectedCostMicroUsd: z.number().int().nullable(),
});
export type MissingSource = z.infer<typeof MissingSourceSchema>;

// ---------------------------------------------------------------------------------------------
// The comparables section: the search as run, the map, the grid, its support, the sales not used

/** The search as it was run (its criteria in words, when, and what the service said it holds). */
export const ComparablesSearchSchema = z.object({
  /** The criteria in words, one line each ("Sold 2016-01-01 to 2017-01-01 (12 months before the effective date)"). */
  lines: z.array(z.string()),
  // When it ran, the answer's data snapshot, how many sales the service said match and how many it
  // returned (the rest need another page): as the run keeps them.
  ...CompSearchRunSchema.pick({ ranAt: true, dataAsOf: true, total: true, returned: true }).shape,
  /** What the answers say they lack, each cited to the sources it is about. */
  limitations: z.array(LimitationSchema),
  /** What "sales analyzed and not used" says when it lists none (shared/comparables/empty-words.ts). */
  notUsedEmpty: z.string(),
});
export type ComparablesSearch = z.infer<typeof ComparablesSearchSchema>;

export const ComparablesMapSchema = z.object({
  /** What the map draws: the print route renders it to an image, the PDF carries that image. */
  spec: ComparablesMapSpecSchema,
  /** Under the image: the basemap's publishers and where the points come from. */
  caption: z.string(),
  /** The map as a table (its legend, and what prints when the map cannot be drawn). */
  legend: z.array(
    z.object({
      id: z.string(),
      number: z.number().int().min(1).nullable(),
      label: z.string(),
      role: MapPointRoleSchema,
      /** "0.12 mi NE (approximate)" */
      distance: z.string(),
    }),
  ),
});
export type ComparablesMap = z.infer<typeof ComparablesMapSchema>;

const RateKeySchema = z.enum(rateKeys);

export const ComparablesGridSchema = z.object({
  /** The chosen comps, in column order. */
  columns: z.array(z.object({ compId: z.string(), number: z.number().int().min(1), address: z.string(), weight: z.enum(weights) })),
  /** One row per grid feature: the subject's value, then each comp's value with its adjustment (whole dollars) and how it was worked out. */
  rows: z.array(
    z.object({
      key: z.enum(gridRowKeys),
      label: z.string(),
      subject: CitedValueSchema,
      comps: z.array(
        z.object({
          value: CitedValueSchema,
          adjustment: z.number().nullable(),
          working: z.string().nullable(),
          /** The adjustment as a derived value (its inputs cited, its rule kept for Verify); null where the row adjusts nothing. */
          cited: CitedValueSchema.nullable(),
        }),
      ),
    }),
  ),
  /** Per comp, in column order: net and gross adjustment (whole dollars, and % of the sale price) and the adjusted price. */
  summary: z.array(
    z.object({
      compId: z.string(),
      net: z.number(),
      gross: z.number(),
      netPct: z.number(),
      grossPct: z.number(),
      adjustedPrice: z.number(),
      /** Why a rate could not be applied to this comp. */
      warnings: z.array(z.string()),
      /** The same figures as derived values, as printed. */
      cited: z.object({ net: CitedValueSchema, netPct: CitedValueSchema, gross: CitedValueSchema, grossPct: CitedValueSchema, adjustedPrice: CitedValueSchema }),
    }),
  ),
  adjustedRange: z.object({ low: z.number(), high: z.number() }).nullable(),
  /** The range as a derived value (the adjusted prices it spans), as printed. */
  adjustedRangeCited: CitedValueSchema.nullable(),
  /** Copied (synthetic) characteristics the appraiser accepted to drive adjustments, with who accepted them and why. */
  copiedAccepted: z.array(
    z.object({
      row: z.enum(gridRowKeys),
      rowLabel: z.string(),
      compId: z.string().nullable(),
      /** "the whole grid", or the comp ("Comp 2, 2009 R ST NW"). */
      appliesTo: z.string(),
      by: z.string(),
      reason: z.string(),
      at: z.string(),
    }),
  ),
  /** The appraiser's rates, each beside the regression's suggestion for it. */
  rates: z.array(
    z.object({
      key: RateKeySchema,
      label: z.string(),
      unit: z.string(),
      value: z.number().nullable(),
      source: z.enum(['appraiser', 'suggestion']).nullable(),
      support: z.object({ value: z.number(), ciLow: z.number().nullable(), ciHigh: z.number().nullable() }).nullable(),
      /** The rate as the appraiser's derived value; null when no rate is set. */
      cited: CitedValueSchema.nullable(),
      /** Whether the regression supports its suggestion, and why not (shared/comparables/regression-standing.ts). */
      standing: z.object({ supported: z.boolean(), reasons: z.array(z.string()) }).nullable().default(null),
      /** The appraiser's written reason for using a suggestion shown as not supported. */
      unsupportedReason: AppraiserActSchema.nullable().default(null),
    }),
  ),
  reconciliation: z.object({
    indicatedValueDollars: z.number().nullable(),
    /** The indicated value as the appraiser's value, with the range it was reconciled from; null until entered. */
    indicatedValue: CitedValueSchema.nullable(),
    comment: z.string(),
    /** What does not add up (an indicated value outside the range of the weighted comps…). */
    problems: z.array(z.string()),
  }),
});
export type ComparablesGrid = z.infer<typeof ComparablesGridSchema>;

/** A sale the search returned that was analyzed and not used, and why (UAD asks for one reason each). */
export const NotUsedRowSchema = z.object({
  id: z.string(),
  /** How Plat names the sale: its address, or its record when none is published ("DC CAMA sale rec_… (no address published)"). */
  label: z.string(),
  address: CitedValueSchema,
  saleDate: CitedValueSchema,
  price: CitedValueSchema,
  distance: CitedValueSchema,
  /** null when the appraiser simply did not choose it and gave no reason (nothing is made up). */
  reason: z.enum(notUsedReasons).nullable(),
  reasonLabel: z.string(),
  note: z.string(),
  /** Plat screened it out; the appraiser gave the reason; or the appraiser did not choose it (no reason given). */
  by: z.enum(['plat', 'appraiser', 'not_chosen']),
  /** The other lots of the same deed (a multi-parcel sale), each with the citations of its date and price. */
  relatedLots: z.array(z.object({ words: z.string(), citationIds: z.array(z.string()) })).default([]),
});
export type NotUsedRow = z.infer<typeof NotUsedRowSchema>;

export const ComparablesSectionSchema = z.object({
  title: z.string(),
  /** null until a search has been run (then `missing` says so). */
  search: ComparablesSearchSchema.nullable(),
  map: ComparablesMapSchema.nullable(),
  /** null until a comp is chosen. */
  grid: ComparablesGridSchema.nullable(),
  support: RegressionSupportSchema.nullable(),
  notUsed: z.array(NotUsedRowSchema),
  /** Sales Plat screened out that the appraiser took in anyway, with the written reason (printed with the not-used table). */
  takenIn: z.array(z.object({ id: z.string(), label: z.string(), words: z.string() })).default([]),
  /** Earlier transfers of the subject and the comps (the note says when the sample holds none). */
  priorSales: ReportTableSchema.nullable(),
  /** What is not there yet, in words ("No comparables search has been run for this assignment."). */
  missing: z.array(z.string()),
  /** What does not add up, in words. */
  problems: z.array(z.string()),
  /** Market conditions and the time adjustment's support (shared/report/market-section.ts); absent before any sales are read. */
  market: MarketReportSchema.nullable().optional(),
  /** Charts of the comps (their adjusted prices with the indicated value), each with its table. */
  charts: z.array(ChartSpecSchema).optional(),
});
export type ComparablesSection = z.infer<typeof ComparablesSectionSchema>;

// ---------------------------------------------------------------------------------------------
// Title research: the subject's entity graph (an image beside its table), the researcher's decisions
// on its links, the owner's portfolio and the parcel's runsheet

const GraphDecisionKindSchema = z.enum(graphDecisionKinds);

/** One entity of the graph as its table lists it. */
export const TitleResearchNodeSchema = z.object({
  id: z.string(),
  kind: z.enum(graphNodeKinds),
  kindLabel: z.string(),
  /** What a person recognises: the address, the SSL, the account number, the owner name. */
  label: z.string(),
  sublabel: z.string(),
  root: z.boolean(),
  /** Steps from the subject along the links drawn. */
  depth: z.number().int().min(0),
  /** The subject reaches it only through a link the researcher cut. */
  cutOff: z.boolean(),
  /** For an owner: the sources of the ownership records that publish the name (a name is a value too). */
  citationIds: z.array(z.string()),
});
export type TitleResearchNode = z.infer<typeof TitleResearchNodeSchema>;

export const titleResearchRules = ['same_record', 'same_ssl', 'owner_of_record', 'same_owner_name', 'address_match', 'invalid_key', 'unstated'] as const;

/** One link of the graph as its table lists it: why it exists, how sure it is, and what the researcher decided. */
export const TitleResearchLinkSchema = z.object({
  key: z.string(),
  fromId: z.string(),
  /** The entities' names, as their nodes are labelled. */
  from: z.string(),
  /** Reads from → to: "1708 21ST ST NW — taxed under → Account 0065 0007". */
  label: z.string(),
  toId: z.string(),
  to: z.string(),
  rule: z.enum(titleResearchRules),
  ruleLabel: z.string(),
  strength: z.enum(linkStrengths),
  confidence: z.number().nullable(),
  confidenceText: z.string(),
  /** The rule in plain words about these two entities ("why linked"), cited to the records below. */
  because: z.string(),
  /** What a lead asks of the researcher; null for a fact. */
  warning: z.string().nullable(),
  /** The dates the answers give: a service link's validity, or the as-of date of the ownership record naming an owner. */
  dates: z.object({ kind: z.enum(['valid', 'owner_as_of', 'none']), from: z.string().nullable(), to: z.string().nullable() }),
  /** The supporting records, each with its citation. */
  records: z.array(z.object({ recordRef: z.string(), what: z.string(), citationId: z.string() })),
  citationIds: z.array(z.string()),
  decision: z.object({ decision: GraphDecisionKindSchema, note: z.string(), at: z.string() }).nullable(),
});
export type TitleResearchLink = z.infer<typeof TitleResearchLinkSchema>;

/** A decision the researcher kept with the assignment, with its note; kept and listed even when its link is not in this graph. */
export const TitleResearchDecisionSchema = z.object({
  edgeKey: z.string(),
  decision: GraphDecisionKindSchema,
  note: z.string(),
  at: z.string(),
  /** Whether the graph holds its link (its ends are then named in the links table). */
  onGraph: z.boolean(),
  /** The link in words, for a decision whose link this graph does not hold. */
  description: z.string(),
});
export type TitleResearchDecision = z.infer<typeof TitleResearchDecisionSchema>;

export const PortfolioHoldingRowSchema = z.object({
  propertyRef: z.string(),
  /** The holding is the subject itself. */
  subject: z.boolean(),
  address: CitedValueSchema,
  /** DC: the SSL; Alexandria: the account number. */
  identifier: CitedValueSchema,
  use: CitedValueSchema,
  assessed: CitedValueSchema,
  lastSalePrice: CitedValueSchema,
  lastSaleDate: CitedValueSchema,
  /** The researcher cut this holding's link to the owner (another owner of the same name), with the note saying why. */
  cut: z.object({ note: z.string(), at: z.string() }).nullable(),
});
export type PortfolioHoldingRow = z.infer<typeof PortfolioHoldingRowSchema>;

export const TitleResearchPortfolioSchema = z.object({
  /** The owner name searched for, as typed. */
  searched: z.string(),
  /** The owner's name as published (the most used spelling), cited to an ownership record that publishes it. */
  ownerName: z.string(),
  ownerCitationIds: z.array(z.string()),
  /** Published spellings grouped under the name after normalisation, most used first. */
  variants: z.array(z.object({ published: z.string(), count: z.number().int().min(0), citationIds: z.array(z.string()) })),
  /** "2 holdings", or what the loaded pages hold of it when the search is partial. Never a partial count alone. */
  countText: z.string(),
  complete: z.boolean(),
  /** What the holdings' identifier column holds: "SSL" (DC) or "Account number" (Alexandria). */
  identifierLabel: z.string(),
  holdings: z.array(PortfolioHoldingRowSchema),
  totalAssessed: CitedValueSchema,
  /** Other owners the same search found (names that contain the text searched for), not in the portfolio. */
  otherOwners: z.array(z.object({ name: z.string(), countText: z.string(), citationIds: z.array(z.string()) })),
  problems: z.array(z.string()),
});
export type TitleResearchPortfolio = z.infer<typeof TitleResearchPortfolioSchema>;

export const RunsheetRowSchema = z.object({
  key: z.string(),
  event: z.enum(['sale', 'owner_of_record', 'permit']),
  eventLabel: z.string(),
  date: CitedValueSchema,
  /** The owner the record names (unavailable, with the reason, when it names none). */
  party: CitedValueSchema,
  /** A sale's price; null for other events. */
  price: CitedValueSchema.nullable(),
  detail: z.string(),
  recordRef: z.string().nullable(),
  /** An owner of record another record of the same date contradicts: printed flagged, both kept. */
  conflict: z.boolean().default(false),
});
export type RunsheetRow = z.infer<typeof RunsheetRowSchema>;

export const TitleResearchRunsheetSchema = z.object({
  parcelRef: z.string(),
  /** "SSL 0065 0007". */
  parcel: z.string(),
  /** In date order. */
  entries: z.array(RunsheetRowSchema),
  /** What the records do not show, in words, each cited to the records it is about. */
  gaps: z.array(LimitationSchema),
  problems: z.array(z.string()),
});
export type TitleResearchRunsheet = z.infer<typeof TitleResearchRunsheetSchema>;

export const TitleResearchSectionSchema = z.object({
  title: z.string(),
  /** null when the assignment holds no graph answer about the subject (then `missing` says so). */
  graph: z
    .object({
      /** The whole graph with the researcher's decisions drawn: the print route renders it to an image. */
      spec: GraphSpecSchema,
      /** Caps the answers reached, in words ("The answers list 50 of 84 links within 2 steps of 1708 21ST ST NW"). */
      caps: z.array(z.string()),
      /** What the answers hold that is not drawn, and why. */
      notes: z.array(z.string()),
      nodes: z.array(TitleResearchNodeSchema),
      links: z.array(TitleResearchLinkSchema),
    })
    .nullable(),
  decisions: z.array(TitleResearchDecisionSchema),
  portfolio: TitleResearchPortfolioSchema.nullable(),
  runsheet: TitleResearchRunsheetSchema.nullable(),
  /** What is not there yet, in words, and how to get it. */
  missing: z.array(z.string()),
  /** Answers Plat could not read, in words (nothing else is lost). */
  problems: z.array(z.string()),
});
export type TitleResearchSection = z.infer<typeof TitleResearchSectionSchema>;

export const ReportDocumentSchema = z.object({
  kind: z.literal('subject-report'),
  version: z.literal(1),
  assignmentId: z.string(),
  cover: z.object({
    title: z.string(),
    subjectLabel: z.string(),
    subjectRef: z.string(),
    effectiveDate: z.string(),
    assignmentName: z.string(),
    intendedUse: z.string(),
    client: z.string(),
    reference: z.string(),
    generatedAt: z.string(),
    /** Each source's as-of date, in words ("DC OTR tax roll, 2017-02-05"). */
    dataAsOf: z.array(z.string()),
    /** The SHA-256 fingerprint of the certificate this installation signs its PDFs with (`AB:CD:…`); absent where nothing signs. */
    certificateFingerprint: z.string().nullable().optional(),
  }),
  sections: z.array(ReportSectionSchema),
  /** The comparable sales, after the subject's sections; null when the assignment never searched for any. */
  comparables: ComparablesSectionSchema.nullable(),
  /** The title research (graph, decisions, owner portfolio, runsheet); null when the assignment holds no title-research answers about the subject. */
  titleResearch: TitleResearchSectionSchema.nullable(),
  /** Every citation the document uses, numbered in order of first use (the endnotes). */
  citations: z.array(CitationSchema.extend({ number: z.number().int().min(1) })),
  queryLog: z.array(QueryLogEntrySchema),
  spend: z.object({ totalMicroUsd: z.number().int(), capMicroUsd: z.number().int().nullable() }),
  /** Purchases still needed; empty when the report is complete. */
  missing: z.array(MissingSourceSchema),
  /**
   * Set when answers the report reads came in a workfile rather than from a purchase: where from (the
   * sentence every citation's note repeats) and which answers. Null when every answer was bought here.
   */
  received: z.object({ text: z.string(), answers: z.array(z.string()) }).nullable(),
});
export type ReportDocument = z.infer<typeof ReportDocumentSchema>;
