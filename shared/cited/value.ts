// The cited value: what every screen, the report, its PDF and its exports print, and where it came
// from. A value is `reported` (as the publisher printed it), `derived` (computed by Plat or the
// service from named inputs: never shown as "as published"), `synthetic` (made up by the sample:
// never attributed to a real publisher) or `unavailable` (with the reason). Every value that is not
// unavailable has at least one citation.
import { z } from 'zod';

/**
 * The rule a derived value was made with and its inputs, as stored beside the value. The rules
 * themselves are in derivation.ts, apart from this: a value is read (on every screen, the first one
 * too) without loading their arithmetic and the statistics libraries they fit with.
 */
export const DerivationSchema = z.object({
  rule: z.string().min(1).max(100),
  inputs: z.array(z.union([z.number(), z.string()])).max(100_000),
});

export const ValueStatusSchema = z.enum(['reported', 'derived', 'synthetic', 'unavailable']);
export type ValueStatus = z.infer<typeof ValueStatusSchema>;

/** Where a value came from: publisher, dataset, as-of date and, where the service gives them, release, checksum and address. */
export const CitationSchema = z.object({
  /** Stable within a document: equal citations share one id (and one endnote). */
  id: z.string(),
  publisher: z.string().nullable(),
  dataset: z.string().nullable(),
  asOf: z.string().nullable(),
  sourceId: z.string().nullable(),
  recordRef: z.string().nullable(),
  releaseId: z.union([z.string(), z.number()]).nullable(),
  sha256: z.string().nullable(),
  officialUrl: z.string().nullable(),
  /** A value the sample made up: its citation names the synthetic source, never a real publisher. */
  synthetic: z.boolean(),
  /** How the service or Plat made a derived value, or a publisher's note. */
  note: z.string().nullable(),
});
export type Citation = z.infer<typeof CitationSchema>;

/** Another value for the same field, from another source (a conflict), shown beside the chosen one. */
export const AlternativeValueSchema = z.object({
  /** Identifies this alternative within its field, for the appraiser's choice. */
  key: z.string(),
  display: z.string(),
  status: ValueStatusSchema,
  citationIds: z.array(z.string()),
  note: z.string().nullable(),
});
export type AlternativeValue = z.infer<typeof AlternativeValueSchema>;

export const CitedValueSchema = z.object({
  /** Stable field key, e.g. `ownership.owner_name`, `building.year_built`. */
  field: z.string(),
  label: z.string(),
  /** The value as the source gave it (for verification and exports). */
  raw: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  /** How it is displayed, formatted one way everywhere (shared/report/format.ts). */
  display: z.string(),
  status: ValueStatusSchema,
  citationIds: z.array(z.string()),
  /** For `derived`: what it was derived from, in words ("DC GIS square centroid of square 0065"). */
  derivedFrom: z.string().nullable(),
  /** For `unavailable` (and any caveat): why, in the source's or Plat's words. */
  limitation: z.string().nullable(),
  /** For a value Plat computed by a named rule (shared/cited/derivation.ts): the rule and its inputs, so it can be computed again. */
  derivation: DerivationSchema.optional(),
  /** Other values the sources give for this field; empty when they agree. */
  alternatives: z.array(AlternativeValueSchema),
  /** Why this value was chosen over the alternatives: Plat's rule, or the appraiser's reason. */
  choice: z
    .object({ by: z.enum(['plat', 'appraiser']), reason: z.string(), alternativeKey: z.string().nullable(), at: z.string().nullable() })
    .nullable(),
});
export type CitedValue = z.infer<typeof CitedValueSchema>;

/**
 * What a section's sources do not say, or say with a caveat ("Data as of 2017-02-05.", a dataset's
 * coverage), cited like a value: to the source the sentence is about (the section's sources in the
 * answer), so a date in it resolves to an endnote too. Empty only for a sentence about no source
 * (nothing bought yet, an answer that was an error, data no source in the sample publishes).
 */
export const LimitationSchema = z.object({
  text: z.string(),
  citationIds: z.array(z.string()),
});
export type Limitation = z.infer<typeof LimitationSchema>;
