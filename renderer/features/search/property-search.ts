// Pure logic of the Properties tab (v2 property search): the areas and property fields a search can
// use, the form → wire body (or what to fix), and the columns of a result page.
import {
  V2PropertySearchSchema,
  v2FilterOperators,
  type V2EntitySummary,
  type V2FilterOperator,
  type V2Projection,
  type V2ProvenanceSource,
} from '../../../shared/service/index.ts';
import { fromV4Citation, type CitationView } from '../../../shared/cited/citation.ts';
import { placeRef, v2ProvenanceIndex } from '../../../shared/cited/source-refs.ts';
import { formatFieldValue } from '../../../shared/report/format.ts';
import { parseLimit, parseNumberText, type SearchFormProblems } from './record-search.ts';

export const propertyAreas = [
  { areaUid: 'area_us_dc', label: 'Washington, DC' },
  { areaUid: 'area_us_va_alexandria', label: 'Alexandria, VA' },
] as const;

export type PropertyFieldType = 'text' | 'number' | 'date';

export interface PropertyFieldInfo {
  field: string;
  label: string;
  type: PropertyFieldType;
  /** Values Plat's sample service made up (imputed from nearby real records), never public records. */
  synthetic?: boolean;
}

/** The property fields the service filters and sorts on (docs/service-notes.md, property search). */
export const propertyFields: readonly PropertyFieldInfo[] = [
  { field: 'address', label: 'Address', type: 'text' },
  { field: 'owner_name', label: 'Owner name', type: 'text' },
  { field: 'ssl', label: 'SSL (DC)', type: 'text' },
  { field: 'account_no', label: 'Account no. (Alexandria)', type: 'text' },
  { field: 'use_code', label: 'Use code (DC)', type: 'text' },
  { field: 'land_use', label: 'Land use (Alexandria)', type: 'text' },
  { field: 'zoning', label: 'Zoning (Alexandria)', type: 'text' },
  { field: 'neighborhood', label: 'Neighborhood (DC)', type: 'text' },
  { field: 'sub_neighborhood', label: 'Sub-neighborhood (DC)', type: 'text' },
  { field: 'homestead', label: 'Homestead (DC)', type: 'text' },
  { field: 'assessed_value_dollars', label: 'Assessed value ($)', type: 'number' },
  { field: 'last_sale_price_dollars', label: 'Last sale price ($)', type: 'number' },
  { field: 'last_sale_date', label: 'Last sale date', type: 'date' },
  { field: 'lat', label: 'Latitude', type: 'number' },
  { field: 'lon', label: 'Longitude', type: 'number' },
  { field: 'imputed_year_built', label: 'Year built (synthetic)', type: 'number', synthetic: true },
  { field: 'imputed_bedrooms', label: 'Bedrooms (synthetic)', type: 'number', synthetic: true },
  { field: 'imputed_full_bathrooms', label: 'Full bathrooms (synthetic)', type: 'number', synthetic: true },
  { field: 'imputed_gross_building_area_sqft', label: 'Gross building area sq ft (synthetic)', type: 'number', synthetic: true },
  { field: 'imputed_land_area_sqft', label: 'Land area sq ft (synthetic)', type: 'number', synthetic: true },
];

export const propertyFieldInfo = (field: string): PropertyFieldInfo | undefined => propertyFields.find((info) => info.field === field);

export const propertyOperatorLabel: Record<V2FilterOperator, string> = {
  eq: 'equals',
  gte: 'at least',
  lte: 'at most',
  contains: 'contains',
};

/** Which operators make sense on a field: comparisons on numbers and dates, `contains` on text. */
export function propertyOperatorsFor(type: PropertyFieldType): V2FilterOperator[] {
  return v2FilterOperators.filter((op) => (type === 'text' ? op === 'eq' || op === 'contains' : op !== 'contains'));
}

export interface PropertyFilterDraft {
  id: string;
  field: string;
  op: V2FilterOperator;
  value: string;
}

export interface PropertySearchForm {
  areaUid: string;
  filters: PropertyFilterDraft[];
  sortField: string;
  sortDirection: 'asc' | 'desc';
  projection: V2Projection;
  limit: string;
}

export interface PropertySearchBody {
  area_uid: string;
  filters: Array<{ field: string; op: V2FilterOperator; value: string | number }>;
  sort?: { field: string; direction: 'asc' | 'desc' };
  projection: V2Projection;
  limit: number;
  cursor?: string;
}

export type PropertyBodyCheck = { ok: true; body: PropertySearchBody } | { ok: false; problems: SearchFormProblems };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One draft as a wire filter, the reason it cannot be one, or null for a blank row. */
export function propertyFilterOf(draft: PropertyFilterDraft): PropertySearchBody['filters'][number] | string | null {
  const value = draft.value.trim();
  if (draft.field === '' && value === '') return null;
  const info = propertyFieldInfo(draft.field);
  if (!info) return 'Choose a field for this filter.';
  if (value === '') return `Enter a value for ${info.label.toLowerCase()}.`;
  if (!propertyOperatorsFor(info.type).includes(draft.op)) {
    return `“${propertyOperatorLabel[draft.op]}” does not apply to ${info.label.toLowerCase()}.`;
  }
  if (info.type === 'number') {
    const number = parseNumberText(value);
    return number === null ? `Enter a number for ${info.label.toLowerCase()}.` : { field: info.field, op: draft.op, value: number };
  }
  if (info.type === 'date') {
    return ISO_DATE.test(value) ? { field: info.field, op: draft.op, value } : `Enter the date as YYYY-MM-DD for ${info.label.toLowerCase()}.`;
  }
  return { field: info.field, op: draft.op, value };
}

export function buildPropertySearchBody(form: PropertySearchForm): PropertyBodyCheck {
  const problems: SearchFormProblems = { form: [], filters: {} };
  if (form.areaUid === '') problems.form.push('Choose an area.');
  const filters: PropertySearchBody['filters'] = [];
  for (const draft of form.filters) {
    const filter = propertyFilterOf(draft);
    if (filter === null) continue;
    if (typeof filter === 'string') problems.filters[draft.id] = filter;
    else filters.push(filter);
  }
  const limit = parseLimit(form.limit);
  if (limit === null) problems.limit = 'Results per page: a whole number from 1 to 100.';
  if (form.sortField !== '' && !propertyFieldInfo(form.sortField)) problems.form.push('Choose a field to sort by.');
  if (problems.form.length > 0 || Object.keys(problems.filters).length > 0 || problems.limit) return { ok: false, problems };

  const body: PropertySearchBody = { area_uid: form.areaUid, filters, projection: form.projection, limit: limit ?? 20 };
  if (form.sortField !== '') body.sort = { field: form.sortField, direction: form.sortDirection };
  const checked = V2PropertySearchSchema.safeParse(body);
  if (!checked.success) {
    for (const issue of checked.error.issues) problems.form.push(`${issue.path.join('.') || 'search'}: ${issue.message}`);
    return { ok: false, problems };
  }
  return { ok: true, body };
}

// ---------------------------------------------------------------------------------------------
// Result rows

export interface PropertyRowView {
  /** Identity and (fact_summary) fact values, flattened: one value per key. */
  values: Record<string, unknown>;
  /** Keys whose value the service marks synthetic (made up for the sample, not a public record). */
  syntheticKeys: string[];
  /** The distinct sources behind the row: its facts' citations, else the provenance of its records. */
  citations: CitationView[];
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * One search result as a row. `canonical_identity` and `facts` have no published shape: plain values
 * are taken as they are, fact cells `{value, synthetic?, citation?}` by their value.
 */
export function propertyRowView(item: V2EntitySummary, provenance: readonly V2ProvenanceSource[] = []): PropertyRowView {
  const values: Record<string, unknown> = {};
  const syntheticKeys: string[] = [];
  const citations: CitationView[] = [];
  // One chip per publication: two sources cut from one published dataset read the same to a person.
  const keyOf = (citation: CitationView) => `${citation.publisher}|${citation.dataset}|${citation.asOf}|${citation.synthetic}`;
  const addCitation = (citation: CitationView) => {
    if (!citations.some((known) => keyOf(known) === keyOf(citation))) citations.push(citation);
  };
  const merge = (source: unknown) => {
    const record = asRecord(source);
    if (!record) return;
    for (const [key, value] of Object.entries(record)) {
      const cell = asRecord(value);
      if (cell && 'value' in cell) {
        if (!(key in values)) values[key] = cell.value;
        if (cell.synthetic === true && !syntheticKeys.includes(key)) syntheticKeys.push(key);
        const citation = asRecord(cell.citation);
        if (citation) addCitation(fromV4Citation(citation));
      } else if (!cell && !Array.isArray(value) && !(key in values)) values[key] = value;
    }
  };
  merge(item.canonical_identity);
  merge(item.facts);
  merge(item.attributes);
  for (const key of Object.keys(values)) if (key.startsWith('imputed_') && !syntheticKeys.includes(key)) syntheticKeys.push(key);
  if (citations.length === 0) {
    const refs = Array.isArray(item.source_refs) ? (item.source_refs as unknown[]) : [];
    const index = v2ProvenanceIndex(provenance);
    for (const ref of refs) {
      const placed = typeof ref === 'string' ? placeRef(index, ref) : null;
      if (placed) addCitation(placed.view);
    }
    // A row that names no ref of its own (the spec gives search items none) is cited by the sources the
    // answer's provenance names for the whole page: uncited only when the answer names none.
    if (refs.length === 0) for (const view of [...index.records.values(), ...index.sources.values()]) addCitation(view);
  }
  return { values, syntheticKeys, citations };
}

// The columns worth a glance, in this order; every other fact is on the entity page.
const COLUMN_ORDER = [
  'address',
  'ssl',
  'account_no',
  'mar_id',
  'owner_name',
  'use_code',
  'land_use',
  'zoning',
  'assessed_value_dollars',
  'last_sale_price_dollars',
  'last_sale_date',
  'year_built',
  'bedrooms',
  'full_bathrooms',
  'gross_building_area_sqft',
  'imputed_year_built',
  'imputed_bedrooms',
  'imputed_gross_building_area_sqft',
];

/** Columns for a page of results: the listed ones the page holds, in order; others only when none is. */
export function propertyColumnsFor(rows: ReadonlyArray<Record<string, unknown>>, max = 11): string[] {
  const present = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) present.add(key);
  const listed = COLUMN_ORDER.filter((key) => present.has(key));
  if (listed.length > 0) return listed.slice(0, max);
  return [...present].filter((key) => !HIDDEN.has(key)).slice(0, max);
}

const HIDDEN = new Set(['entity_ref', 'entity_kind', 'area_uid', 'status', 'property_ref']);

const FACT_LABELS: Record<string, string> = {
  mar_id: 'MAR id',
  year_built: 'Year built',
  bedrooms: 'Bedrooms',
  full_bathrooms: 'Full baths',
  gross_building_area_sqft: 'Gross bldg area sq ft',
};

/** Column header for a property value key. */
export function propertyColumnLabel(key: string): string {
  return FACT_LABELS[key] ?? propertyFieldInfo(key)?.label ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** A run in words for its tab: the area, each filter with its value read by its kind (a year never grouped), the sort. */
export function describePropertyRun(body: PropertySearchBody): string {
  const parts = [propertyAreas.find((area) => area.areaUid === body.area_uid)?.label ?? body.area_uid];
  for (const filter of body.filters) {
    parts.push(`${propertyColumnLabel(filter.field)} ${propertyOperatorLabel[filter.op]} ${formatFieldValue(filter.field, filter.value)}`);
  }
  if (body.sort) parts.push(`sorted by ${propertyColumnLabel(body.sort.field)} ${body.sort.direction === 'asc' ? '↑' : '↓'}`);
  parts.push(body.projection === 'fact_summary' ? 'facts' : 'identity');
  return parts.join(' · ');
}
