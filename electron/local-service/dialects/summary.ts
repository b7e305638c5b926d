// v4 summary in the independent dialect: `data = {q_id, fields: {<name>: {value, citation,
// alternatives}}}` with its own names (`assessed_value`, `last_sale_price`, `effective_year_built`,
// `latitude`, `longitude`...) and citations of four keys. The embedded summary answers first (its
// id rules and 404s stand); the dialect renames its entries and adds the three it does not write.
import { queryObject, V4SummaryQuerySchema } from '../../../shared/service/index.ts';
import type { OperationContext, OperationRequest, OperationResult } from '../operation.ts';
import { preferredFact } from '../operations/citations.ts';
import type { Citation, EntityFacts } from '../sample-store.ts';

/** The dialect's field names in the order written, and the embedded summary entry each renames (if any). */
const FROM_EMBEDDED: ReadonlyArray<readonly [string, string | null]> = [
  ['address', 'address'],
  ['owner_name', 'owner_name'],
  ['year_built', 'year_built'],
  ['effective_year_built', null],
  ['bedrooms', 'bedrooms'],
  ['living_area_sqft', 'living_area_sqft'],
  ['gross_area_sqft', 'gross_area_sqft'],
  ['assessed_value', 'assessed_value_dollars'],
  ['last_sale_price', 'last_sale_price_dollars'],
  ['last_sale_date', 'last_sale_date'],
  ['latitude', null],
  ['longitude', null],
];

export const INDEPENDENT_SUMMARY_FIELDS: readonly string[] = FROM_EMBEDDED.map(([name]) => name);

interface DialectCitation {
  source: unknown;
  dataset: unknown;
  as_of: unknown;
  source_id: unknown;
}

interface DialectField {
  value: unknown;
  citation: DialectCitation;
  alternatives: Array<{ value: unknown; citation: DialectCitation }>;
}

function shortCitation(citation: Record<string, unknown>): DialectCitation {
  return { source: citation['source'], dataset: citation['dataset'], as_of: citation['as_of'], source_id: citation['source_id'] };
}

function storeCitation(citation: Citation): DialectCitation {
  return { source: citation.publisher, dataset: citation.dataset, as_of: citation.as_of, source_id: citation.source_id };
}

interface EmbeddedEntry {
  value: unknown;
  citation: Record<string, unknown>;
  alternatives?: Array<{ value: unknown; citation: Record<string, unknown> }>;
}

function fromEmbedded(entry: EmbeddedEntry): DialectField {
  return {
    value: entry.value,
    citation: shortCitation(entry.citation),
    alternatives: (entry.alternatives ?? []).map((alternative) => ({ value: alternative.value, citation: shortCitation(alternative.citation) })),
  };
}

/** The fields the embedded summary does not write, from the store's facts and location. */
function added(facts: EntityFacts): Record<string, DialectField> {
  const out: Record<string, DialectField> = {};
  // The remodelling year (CAMA's YR_RMDL) is what an assessor's effective year built reflects.
  const remodeled = preferredFact(facts.facts.filter((fact) => fact.field === 'year_remodeled'));
  if (remodeled !== undefined && remodeled.value !== 0 && remodeled.value !== '') {
    out['effective_year_built'] = { value: String(remodeled.value), citation: storeCitation(remodeled.citation), alternatives: [] };
  }
  if (facts.location !== null) {
    const citation = storeCitation(facts.location.citation);
    out['latitude'] = { value: facts.location.lat, citation, alternatives: [] };
    out['longitude'] = { value: facts.location.lon, citation, alternatives: [] };
  }
  return out;
}

export function summaryIn(request: OperationRequest): { request: OperationRequest; wanted: readonly string[] } {
  const { fields } = V4SummaryQuerySchema.parse(queryObject(request.query));
  const query = new URLSearchParams(request.query);
  query.delete('fields');
  const wanted = fields === undefined ? INDEPENDENT_SUMMARY_FIELDS : INDEPENDENT_SUMMARY_FIELDS.filter((name) => fields.includes(name));
  return { request: { ...request, query }, wanted };
}

export function summaryOut(result: OperationResult, request: OperationRequest, wanted: readonly string[], { store }: OperationContext): OperationResult {
  const qId = request.params['q_id'] ?? '';
  const embedded = result.data as Record<string, unknown>;
  const facts = store.factsFor(qId);
  const extra = facts === null ? {} : added(facts);
  const fields: Record<string, DialectField> = {};
  for (const [name, embeddedName] of FROM_EMBEDDED) {
    if (!wanted.includes(name)) continue;
    const entry = embeddedName === null ? extra[name] : embedded[embeddedName] === undefined ? undefined : fromEmbedded(embedded[embeddedName] as EmbeddedEntry);
    if (entry !== undefined) fields[name] = entry;
  }
  return { ...result, data: { q_id: qId, fields } };
}
