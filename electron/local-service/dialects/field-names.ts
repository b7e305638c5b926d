// v4 field names in the independent dialect: OTR's own column names for the tax roll (SSL,
// OWNERNAME, SALEPRICE...), and every other source field upper-cased with its underscores removed.
// Search filters arrive in these names and are mapped back to the store's before the embedded
// search runs; search rows and the catalog's `fields` go out in them.
import { encodeSearchFilter, queryObject, V4SearchQuerySchema } from '../../../shared/service/index.ts';
import type { SearchCondition } from '../../../shared/service/index.ts';
import type { OperationRequest, OperationResult } from '../operation.ts';
import { ServiceFailure } from '../operation.ts';
import type { SampleSource, SampleStore, SourceField } from '../sample-store.ts';

const OTR_SOURCES = new Set(['dc_otr_ownership', 'dc_otr_assessment', 'dc_otr_sale']);

const OTR_NAMES: Readonly<Record<string, string>> = {
  ssl: 'SSL',
  owner: 'OWNERNAME',
  last_sale_price: 'SALEPRICE',
  last_sale_recordation_date: 'SALEDATE',
  address: 'PREMISEADD',
  use_code: 'USECODE',
  assessment_2016: 'ASSESSMENT',
};

const LABELS: Readonly<Record<string, string>> = {
  SSL: 'Square suffix lot',
  OWNERNAME: 'Owner name',
  SALEPRICE: 'Sale price',
  SALEDATE: 'Sale recordation date',
  PREMISEADD: 'Premise address',
  USECODE: 'Use code',
  ASSESSMENT: 'Assessed value',
};

/** Number fields that hold dollars: the catalog types them `money`. */
const MONEY_FIELDS = new Set(['last_sale_price', 'assessment_2016', 'FEES_PAID', 'PRICE']);

/** A store column's name in the dialect. */
export function dialectFieldName(sourceId: string, storeName: string): string {
  const otr = OTR_SOURCES.has(sourceId) ? OTR_NAMES[storeName] : undefined;
  return otr ?? storeName.toUpperCase().replace(/_/g, '');
}

function renameKeys(sourceId: string, row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [dialectFieldName(sourceId, name), value]));
}

export function catalogFields(source: SampleSource): Record<string, { data_type: string; label: string }> {
  const typeOf = (field: SourceField): string =>
    field.type === 'string' ? 'text' : field.type === 'number' && MONEY_FIELDS.has(field.name) ? 'money' : field.type;
  return Object.fromEntries(
    source.fields.map((field) => {
      const name = dialectFieldName(source.source_id, field.name);
      return [name, { data_type: typeOf(field), label: LABELS[name] ?? field.description }];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// v4 search

/** Dialect name → store name over the sources a search reads; two sources never disagree on a name. */
function storeNamesOf(sources: readonly SampleSource[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const source of sources) for (const field of source.fields) names.set(dialectFieldName(source.source_id, field.name), field.name);
  return names;
}

/**
 * The request with its filter keys in the store's names. A key the dialect does not name (the
 * embedded `ssl`, say) is a 400 listing the names it does.
 */
export function searchRequestIn(request: OperationRequest, store: SampleStore): { request: OperationRequest; storeToDialect: Map<string, string> } {
  const unchanged = { request, storeToDialect: new Map<string, string>() };
  const query = V4SearchQuerySchema.parse(queryObject(request.query));
  if (query.filter === undefined || query.filter.conditions.length === 0) return unchanged;
  const { sourceId } = query.filter;
  const sources = store
    .listSources({ jurisdiction: query.jurisdiction, kind: query.kind })
    .filter((source) => sourceId === undefined || source.source_id === sourceId);
  // No source: the embedded search answers (unknown kind 400, nothing published 404).
  if (sources.length === 0) return unchanged;
  const names = storeNamesOf(sources);
  const storeToDialect = new Map<string, string>();
  const conditions = query.filter.conditions.map((condition): SearchCondition => {
    const storeName = names.get(condition.field);
    if (storeName === undefined) {
      throw new ServiceFailure(
        400,
        'invalid_filter',
        `filter.${condition.field}: ${query.kind} records in ${query.jurisdiction} have no field "${condition.field}"; their fields are ${[...names.keys()].join(', ')}`,
      );
    }
    storeToDialect.set(storeName, condition.field);
    return { ...condition, field: storeName };
  });
  const rewritten = new URLSearchParams(request.query);
  rewritten.set('filter', encodeSearchFilter({ conditions, ...(sourceId === undefined ? {} : { sourceId }) }));
  return { request: { ...request, query: rewritten }, storeToDialect };
}

/**
 * Runs the embedded search on the mapped request; a filter refusal it gives (gte on text, say)
 * names the fields as the caller wrote them, not as the store does.
 */
export function searchInDialect(request: OperationRequest, store: SampleStore, search: (mapped: OperationRequest) => OperationResult): OperationResult {
  const mapped = searchRequestIn(request, store);
  try {
    return searchResultOut(search(mapped.request));
  } catch (error) {
    if (!(error instanceof ServiceFailure) || error.code !== 'invalid_filter' || mapped.storeToDialect.size === 0) throw error;
    let message = error.message;
    for (const [storeName, dialectName] of mapped.storeToDialect) {
      message = message.replace(new RegExp(`(?<![A-Za-z0-9_])${storeName}(?![A-Za-z0-9_])`, 'g'), dialectName);
    }
    throw new ServiceFailure(error.status, error.code, message, { retryable: error.retryable, details: error.details });
  }
}

interface SearchItem {
  source_id: string;
  data: Record<string, unknown>;
  citation: Record<string, unknown> & { derived_fields?: Record<string, unknown> };
}

export function searchResultOut(result: OperationResult): OperationResult {
  const data = result.data as { items: SearchItem[] } & Record<string, unknown>;
  const items = data.items.map((item) => {
    const { derived_fields: derived, ...citation } = item.citation;
    return {
      ...item,
      citation: { ...citation, ...(derived === undefined ? {} : { derived_fields: renameKeys(item.source_id, derived) }) },
      data: renameKeys(item.source_id, item.data),
    };
  });
  return { ...result, data: { ...data, items } };
}

export function catalogResultOut(result: OperationResult, store: SampleStore): OperationResult {
  const data = result.data as { items: Array<Record<string, unknown> & { source_id: string; fields?: unknown }> };
  const items = data.items.map((item) => {
    if (item.fields === undefined) return item;
    const source = store.getSource(item.source_id);
    return source === null ? item : { ...item, fields: catalogFields(source) };
  });
  return { ...result, data: { ...data, items } };
}
