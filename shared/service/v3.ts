// v3: record queries with report projections (spec, "Response envelope, v3" and "Endpoints / v3").
// The spec lists fields and types but not which are always present, so the schemas require what a
// reader cannot do without (envelope constants, ids, outcome) and check the type of everything else
// when present. Unknown extra fields are kept.
import { z } from 'zod';
import { boundedString, DateTimeSchema, envelopeBase, errorEnvelope, isIsoDate, ServiceErrorSchema } from './common.ts';

// ---------------------------------------------------------------------------------------------
// Envelope

export const V3ErrorSchema = ServiceErrorSchema;
export type V3Error = z.infer<typeof V3ErrorSchema>;

export const V3MetaSchema = z.looseObject({
  served_at: DateTimeSchema,
  truncated: z.boolean().optional(),
  /** Absent (or null) when there is no further page. */
  next_cursor: z.string().nullable().optional(),
});
export type V3Meta = z.infer<typeof V3MetaSchema>;

const v3EnvelopeBase = envelopeBase('svc-v3', V3MetaSchema);

export const V3ErrorEnvelopeSchema = errorEnvelope(v3EnvelopeBase, V3ErrorSchema);
export type V3ErrorEnvelope = z.infer<typeof V3ErrorEnvelopeSchema>;

export function v3Envelope<Data extends z.ZodType>(data: Data) {
  return z.discriminatedUnion('status', [
    z.looseObject({ ...v3EnvelopeBase, status: z.literal('ok'), data, error: z.null().optional() }),
    V3ErrorEnvelopeSchema,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Data

/** A source release a v3 answer drew on: the citation v3 adds (release, checksum, official URL). */
export const V3SourceSchema = z.looseObject({
  source_id: z.string(),
  release_id: z.int(),
  sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, { error: 'must be 64 hex digits' }),
  official_url: z.string(),
});
export type V3Source = z.infer<typeof V3SourceSchema>;

/** v3 `data` with items of the given shape (report items, or Plat's catalog and aggregate rows). */
export function v3Data<Item extends z.ZodType>(item: Item) {
  return z.looseObject({
    projection: z.string(),
    snapshot: z.string(),
    sources: z.array(V3SourceSchema),
    items: z.array(item),
  });
}

/** A valued field: its value as text, its status, and the source refs it came from. */
export const FieldCellSchema = z.looseObject({
  value: z.string(),
  status: z.string(),
  source_refs: z.array(z.string()),
});
export type FieldCell = z.infer<typeof FieldCellSchema>;

const StringList = z.array(z.string());

/** Building profile: `characteristics` and `sections.building`. */
export const BuildingProfileSchema = z.looseObject({
  status: z.string(),
  profile_count: z.int().optional(),
  building_type: z.string().optional(),
  use_description: z.string().optional(),
  bedrooms: z.number().optional(),
  full_bathrooms: z.number().optional(),
  half_bathrooms: z.number().optional(),
  gross_area_sqft: z.number().optional(),
  living_area_sqft: z.number().optional(),
  year_built: z.number().optional(),
  effective_year_built: z.string().optional(),
  condition: z.string().optional(),
  grade: z.string().optional(),
  /** Heating as published (DC CAMA HEAT, e.g. "Forced Air"). */
  heating: z.string().optional(),
  /** What the published cooling code means ("Central air", "None"); `cooling_code` is the code as published (DC CAMA AC: Y/N). */
  cooling: z.string().optional(),
  cooling_code: z.string().optional(),
  fireplaces: z.number().optional(),
  land_area_sqft: z.number().optional(),
  exterior_wall: z.string().optional(),
  roof: z.string().optional(),
  kitchens: z.number().optional(),
  /** Dwelling units in the building (DC CAMA NUM_UNITS). */
  units: z.number().optional(),
  source_release_id: z.int().optional(),
  data_date_min: z.string().optional(),
  data_date_max: z.string().optional(),
  limitations: z.string().optional(),
  source_refs: StringList.optional(),
});
export type BuildingProfile = z.infer<typeof BuildingProfileSchema>;

export const IdentitySectionSchema = z.looseObject({
  property_ref: z.string(),
  address: z.string().optional(),
  ssl: z.string().optional(),
  area_uid: z.string().optional(),
  status: z.string().optional(),
  property_type: z.string().optional(),
  use_code: z.string().optional(),
});
export type IdentitySection = z.infer<typeof IdentitySectionSchema>;

export const OwnershipSectionSchema = z.looseObject({
  owner_name: FieldCellSchema.optional(),
  owner_name_2: FieldCellSchema.optional(),
  ownership_form: FieldCellSchema.optional(),
});
export type OwnershipSection = z.infer<typeof OwnershipSectionSchema>;

// The spec gives no type for a present assessment year or tax period, only that they are null when
// unavailable: a year number or a label ("FY2016") are both accepted.
const YearOrLabel = z.union([z.int(), z.string()]).nullable();

export const AssessmentSectionSchema = z.looseObject({
  basis: z.string().optional(),
  assessment_year: YearOrLabel.optional(),
  assessment_year_status: z.string().optional(),
  data_date: z.string().optional(),
  land_value_dollars: FieldCellSchema.optional(),
  improvement_value_dollars: FieldCellSchema.optional(),
  total_value_dollars: FieldCellSchema.optional(),
});
export type AssessmentSection = z.infer<typeof AssessmentSectionSchema>;

export const TaxSectionSchema = z.looseObject({
  data_date: z.string().optional(),
  tax_period: YearOrLabel.optional(),
  tax_period_status: z.string().optional(),
  annual_tax_dollars: FieldCellSchema.optional(),
  reported_balance_dollars: FieldCellSchema.optional(),
  limitations: StringList.optional(),
});
export type TaxSection = z.infer<typeof TaxSectionSchema>;

export const TransferSectionSchema = z.looseObject({
  sale_date: z.string().optional(),
  price_dollars: z.number().optional(),
  sale_type: z.string().optional(),
  acceptance_code: z.string().optional(),
  data_date: z.string().optional(),
  source_refs: StringList.optional(),
});
export type TransferSection = z.infer<typeof TransferSectionSchema>;

export const LandSectionSchema = z.looseObject({ land_area_square_feet: FieldCellSchema.optional() });
export type LandSection = z.infer<typeof LandSectionSchema>;

export const PermitRecordSchema = z.looseObject({
  record_number: z.string(),
  record_type: z.string().optional(),
  status: z.string().optional(),
  record_date: z.string().optional(),
  source_refs: StringList.optional(),
});
export type PermitRecord = z.infer<typeof PermitRecordSchema>;

export const PermitSectionSchema = z.looseObject({
  availability: z.string(),
  total_count: z.int().min(0).optional(),
  has_more: z.boolean().optional(),
  records: z.array(PermitRecordSchema).optional(),
  limitations: StringList.optional(),
});
export type PermitSection = z.infer<typeof PermitSectionSchema>;

export const V3SectionsSchema = z.looseObject({
  identity: IdentitySectionSchema.optional(),
  ownership: OwnershipSectionSchema.optional(),
  assessment: AssessmentSectionSchema.optional(),
  tax: TaxSectionSchema.optional(),
  transfer: TransferSectionSchema.optional(),
  building: BuildingProfileSchema.optional(),
  land: LandSectionSchema.optional(),
  permit: PermitSectionSchema.optional(),
});
export type V3Sections = z.infer<typeof V3SectionsSchema>;

export const V3LocationSchema = z.looseObject({ latitude: z.number(), longitude: z.number() });
export type V3Location = z.infer<typeof V3LocationSchema>;

/** One property of a report (the subject, or one comparable). */
export const V3ItemSchema = z.looseObject({
  property_ref: z.string(),
  outcome: z.string(),
  location: V3LocationSchema.optional(),
  characteristics: BuildingProfileSchema.optional(),
  sections: V3SectionsSchema.optional(),
});
export type V3Item = z.infer<typeof V3ItemSchema>;

export const V3ReportDataSchema = v3Data(V3ItemSchema);
export type V3ReportData = z.infer<typeof V3ReportDataSchema>;
export const V3ReportResponseSchema = v3Envelope(V3ReportDataSchema);
export type V3ReportResponse = z.infer<typeof V3ReportResponseSchema>;

const CoverageDate = z.string().refine((text) => isIsoDate(text), { error: 'must be a date that exists (YYYY-MM-DD)' });

/**
 * Plat's catalog-mode row (the spec shows only report items): one field of a dataset, or with no
 * `field` the dataset itself.
 */
export const V3CatalogEntrySchema = z.looseObject({
  dataset: z.string(),
  field: z.string().nullable(),
  data_type: z.string().nullable(),
  description: z.string(),
  record_count: z.int().min(0).optional(),
  /** For a date field (or a date filter): the earliest and latest date the sample holds in it. */
  coverage: z.looseObject({ earliest: CoverageDate, latest: CoverageDate }).optional(),
});
export type V3CatalogEntry = z.infer<typeof V3CatalogEntrySchema>;
export const V3CatalogDataSchema = v3Data(V3CatalogEntrySchema);
export type V3CatalogData = z.infer<typeof V3CatalogDataSchema>;

/** Plat's aggregate-mode row: one group (`group` null when not grouped). */
export const V3AggregateRowSchema = z.looseObject({
  group: z.string().nullable(),
  measure: z.string(),
  /** The measure's value; null when the group has no qualifying records. Prices in whole dollars. */
  value: z.number().nullable(),
  record_count: z.int().min(0),
});
export type V3AggregateRow = z.infer<typeof V3AggregateRowSchema>;
export const V3AggregateDataSchema = v3Data(V3AggregateRowSchema);
export type V3AggregateData = z.infer<typeof V3AggregateDataSchema>;

/** Any v3 answer, items unchecked: for code that only needs the envelope (billing, caching). */
export const V3ResponseSchema = v3Envelope(v3Data(z.looseObject({})));
export type V3Response = z.infer<typeof V3ResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Request: POST /api/v3/record-queries

export const v3Modes = ['catalog', 'report', 'aggregate'] as const;
export type V3Mode = (typeof v3Modes)[number];
/** The answer's row shape follows the request's mode; the client checks each answer against its mode's. */
export const v3ResponseByMode = {
  report: V3ReportResponseSchema,
  catalog: v3Envelope(V3CatalogDataSchema),
  aggregate: v3Envelope(V3AggregateDataSchema),
} as const satisfies Record<V3Mode, z.ZodType>;
/**
 * Datasets Plat's local service answers: properties (tax-roll parcels and units: identity, owner,
 * assessment), sales (recorded transfers with price), permits (building permits), buildings
 * (residential characteristics).
 */
export const v3Datasets = ['properties', 'sales', 'permits', 'buildings'] as const;
export type V3Dataset = (typeof v3Datasets)[number];
export const v3Measures = ['count', 'median_price', 'mean_price', 'median_price_per_sqft'] as const;
export type V3Measure = (typeof v3Measures)[number];
export const v3Projections = ['report_subject_v1', 'report_comparables_v1'] as const;
export type V3Projection = (typeof v3Projections)[number];
export const v3FilterGroups = ['property', 'sale', 'tax', 'building'] as const;
export type V3FilterGroup = (typeof v3FilterGroups)[number];

const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const FieldNameSchema = z.string({ error: 'must be a string' }).regex(FIELD_NAME, {
  error: 'must be a field name (lowercase letters, digits and _, at most 64)',
});

/**
 * One filter. Plat's v3 date filters and fields are the ones named `*_date` (`from_date`, `to_date`,
 * `sale_date`, `issue_date`): their value must be a date that exists, YYYY-MM-DD (blanks around it
 * allowed, as the service trims them).
 */
export const V3FilterSchema = z
  .object({ field: FieldNameSchema, value: z.string({ error: 'must be a string' }) })
  .superRefine((filter, ctx) => {
    if (filter.field.endsWith('_date') && !isIsoDate(filter.value.trim())) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be a date that exists, as YYYY-MM-DD, for ${filter.field}` });
    }
  });
export type V3Filter = z.infer<typeof V3FilterSchema>;

export const V3FiltersSchema = z.object({
  property: z.array(V3FilterSchema).optional(),
  sale: z.array(V3FilterSchema).optional(),
  tax: z.array(V3FilterSchema).optional(),
  building: z.array(V3FilterSchema).optional(),
});
export type V3Filters = z.infer<typeof V3FiltersSchema>;

function enumOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/**
 * The record-query body. The spec leaves required fields and value sets open; Plat's rules:
 * - `mode` is required: catalog (describe datasets and fields; free), report (a projection about a
 *   subject property), aggregate (one measure over a dataset, optionally grouped).
 * - report needs `projection`; report_subject_v1 needs `subject_property_ref`;
 *   report_comparables_v1 needs `subject_property_ref` and `radius_miles` (comparables are searched
 *   within that radius of the subject).
 * - aggregate needs `measure` and `dataset` (a measure is over one dataset).
 * - catalog takes optional `dataset` and `field` to narrow the description.
 * - Fields that do not apply to the mode are ignored, not refused (so pricing follows the mode).
 * - `limit` 1..100, default 20; `cursor` 1..4096 (v2's cursor rule; the spec states none for v3);
 *   `subject_property_ref` 1..512 (v2's entity_ref rule); `radius_miles` 0 < r <= 5.
 */
export const V3RecordQuerySchema = z
  .object({
    mode: enumOf(v3Modes),
    dataset: enumOf(v3Datasets).optional(),
    filters: V3FiltersSchema.optional(),
    field: FieldNameSchema.optional(),
    group_by: FieldNameSchema.optional(),
    measure: enumOf(v3Measures).optional(),
    limit: z.int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(100, { error: 'must be at most 100' }).default(20),
    cursor: boundedString(1, 4096).optional(),
    projection: enumOf(v3Projections).optional(),
    subject_property_ref: boundedString(1, 512).optional(),
    radius_miles: z
      .number({ error: 'must be a number' })
      .gt(0, { error: 'must be greater than 0' })
      .max(5, { error: 'must be at most 5' })
      .optional(),
  })
  .superRefine((query, ctx) => {
    const need = (field: string, why: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message: `is required ${why}` });
    if (query.mode === 'report') {
      if (query.projection === undefined) need('projection', 'in report mode');
      if (query.projection !== undefined && query.subject_property_ref === undefined) {
        need('subject_property_ref', `for ${query.projection}`);
      }
      if (query.projection === 'report_comparables_v1' && query.radius_miles === undefined) {
        need('radius_miles', 'for report_comparables_v1');
      }
    }
    if (query.mode === 'aggregate') {
      if (query.measure === undefined) need('measure', 'in aggregate mode');
      if (query.dataset === undefined) need('dataset', 'in aggregate mode');
    }
  });
export type V3RecordQuery = z.output<typeof V3RecordQuerySchema>;
export type V3RecordQueryInput = z.input<typeof V3RecordQuerySchema>;
