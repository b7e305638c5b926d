// Pure logic of the Records tab (v4 search): reading the catalog's sources and fields, turning the
// form a person fills in into the service's wire query (or into messages saying what to fix), and
// choosing which of a record's source fields are worth a column.
import {
  encodeSearchFilter,
  entityKindLabelByPrefix,
  entityPrefix,
  MAX_FILTER_FIELDS,
  SearchFilterParamSchema,
  V4SearchQuerySchema,
  type SearchCondition,
  type V4CatalogItem,
} from '../../../shared/service/index.ts';
import { isJurisdictionCode, type JurisdictionCode } from '../../../shared/jurisdictions.ts';

// Reading the catalog's `fields` is shared with every reader of v4 records (shared/service/record-fields.ts).
export { fieldsForKind, sourceFieldsOf, type SourceFieldInfo, type SourceFieldType } from '../../../shared/service/record-fields.ts';
import { normalisedFieldName, roleOfFieldName, rolesOf, type SourceFieldInfo, type SourceFieldType } from '../../../shared/service/record-fields.ts';

/** A record kind the catalog offers in a jurisdiction, with the sources that publish it. */
export interface KindOption {
  kind: string;
  label: string;
  records: number;
  sources: V4CatalogItem[];
}

/** "residential_characteristics" → "Residential characteristics". */
export function kindLabel(kind: string): string {
  const words = kind.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function kindsOf(items: readonly V4CatalogItem[]): KindOption[] {
  const byKind = new Map<string, KindOption>();
  for (const item of items) {
    const option = byKind.get(item.kind) ?? { kind: item.kind, label: kindLabel(item.kind), records: 0, sources: [] };
    option.records += item.records;
    option.sources.push(item);
    byKind.set(item.kind, option);
  }
  return [...byKind.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/** Whether a catalog item is Plat's made-up sample source rather than a public record. */
export function isSyntheticSource(item: V4CatalogItem): boolean {
  return item.synthetic === true || /synthetic/i.test(item.source) || /synthetic/i.test(item.dataset);
}

// ---------------------------------------------------------------------------------------------
// The form and its wire query

export type RecordFilterOp = 'eq' | 'gte';

export interface RecordFilterDraft {
  id: string;
  field: string;
  op: RecordFilterOp;
  value: string;
}

export interface RecordSearchForm {
  jurisdiction: string;
  kind: string;
  /** '' searches every source of the kind. */
  sourceId: string;
  filters: RecordFilterDraft[];
  limit: string;
}

/** The query parts of one v4 search page (the wire form the IPC contract takes). */
export interface RecordSearchQuery {
  jurisdiction: JurisdictionCode;
  kind: string;
  filter?: string;
  limit: number;
  cursor?: string;
}

/** What to fix in a Records or Properties search form before it can be sent. */
export interface SearchFormProblems {
  /** Problems of the form as a whole (no kind chosen, filter text too long). */
  form: string[];
  /** By filter draft id. */
  filters: Record<string, string>;
  limit?: string;
}

export type RecordQueryCheck = { ok: true; query: RecordSearchQuery } | { ok: false; problems: SearchFormProblems };

/**
 * The contract refuses `{gte: "<date>"}` (only numbers), so "at least" on a date field is offered
 * only once the shared contract accepts it.
 */
export const dateAtLeastAccepted = SearchFilterParamSchema.safeParse(JSON.stringify({ d: { gte: '2016-01-01' } })).success;

export function operatorsFor(type: SourceFieldType): RecordFilterOp[] {
  if (type === 'number' || (type === 'date' && dateAtLeastAccepted)) return ['eq', 'gte'];
  return ['eq'];
}

export const operatorLabel: Record<RecordFilterOp, string> = { eq: 'equals', gte: 'at least' };

/** "1,500,000", "$1500000" and " 1500000 " all read as 1500000; anything else is not a number. */
export function parseNumberText(value: string): number | null {
  const cleaned = value.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(cleaned)) return null;
  const number = Number(cleaned);
  return Number.isFinite(number) ? number : null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function parseLimit(value: string, max = 100): number | null {
  const trimmed = value.trim();
  if (!/^\d{1,3}$/.test(trimmed)) return null;
  const limit = Number(trimmed);
  return limit >= 1 && limit <= max ? limit : null;
}

/** One draft as a search condition, or the reason it cannot be one; null for a blank row. */
export function conditionOf(draft: RecordFilterDraft, fields: readonly SourceFieldInfo[]): SearchCondition | string | null {
  const value = draft.value.trim();
  if (draft.field === '' && value === '') return null;
  if (draft.field === '') return 'Choose a field for this filter.';
  const field = fields.find((candidate) => candidate.name === draft.field);
  if (!field) return `${draft.field} is not a field of this record kind.`;
  if (value === '') return `Enter a value for ${field.name}.`;
  if (draft.op === 'gte') {
    if (!operatorsFor(field.type).includes('gte')) {
      return field.type === 'date'
        ? `“At least” is not accepted on dates by the service contract; use “equals” on ${field.name}.`
        : `“At least” needs a number field; ${field.name} is ${field.type === 'unknown' ? 'untyped' : `a ${field.type} field`}.`;
    }
    if (field.type === 'date') {
      return ISO_DATE.test(value) ? ({ field: field.name, op: 'gte', value } as unknown as SearchCondition) : `Enter a date as YYYY-MM-DD for ${field.name}.`;
    }
    const number = parseNumberText(value);
    return number === null ? `Enter a number for ${field.name} (e.g. 500000).` : { field: field.name, op: 'gte', value: number };
  }
  if (field.type === 'number') {
    const number = parseNumberText(value);
    return number === null ? `${field.name} holds numbers; enter a number (e.g. 500000).` : { field: field.name, op: 'eq', value: number };
  }
  if (field.type === 'boolean') {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') return { field: field.name, op: 'eq', value: lower === 'true' };
    return `${field.name} is true or false.`;
  }
  if (field.type === 'date' && !ISO_DATE.test(value)) return `Enter a date as YYYY-MM-DD for ${field.name}.`;
  return { field: field.name, op: 'eq', value };
}

/** The first page's query for a form, or every problem that stops it from being sent. */
export function buildRecordSearchQuery(form: RecordSearchForm, fields: readonly SourceFieldInfo[]): RecordQueryCheck {
  const problems: SearchFormProblems = { form: [], filters: {} };
  const jurisdiction = isJurisdictionCode(form.jurisdiction) ? form.jurisdiction : null;
  if (jurisdiction === null) problems.form.push('Choose a jurisdiction.');
  if (form.kind === '') problems.form.push('Choose a record kind.');
  const conditions: SearchCondition[] = [];
  for (const draft of form.filters) {
    const condition = conditionOf(draft, fields);
    if (condition === null) continue;
    if (typeof condition === 'string') problems.filters[draft.id] = condition;
    else if (conditions.some((known) => known.field === condition.field)) problems.filters[draft.id] = `${condition.field} already has a filter; one filter per field.`;
    else conditions.push(condition);
  }
  if (conditions.length > MAX_FILTER_FIELDS) problems.form.push(`At most ${MAX_FILTER_FIELDS} filters.`);
  const limit = parseLimit(form.limit);
  if (limit === null) problems.limit = 'Results per page: a whole number from 1 to 100.';
  if (jurisdiction === null || problems.form.length > 0 || Object.keys(problems.filters).length > 0 || problems.limit) return { ok: false, problems };

  const query: RecordSearchQuery = { jurisdiction, kind: form.kind, limit: limit ?? 50 };
  if (conditions.length > 0 || form.sourceId !== '') {
    query.filter = encodeSearchFilter({ conditions, ...(form.sourceId !== '' ? { sourceId: form.sourceId } : {}) });
  }
  // The contract's own check (kind pattern, filter length): what the service would refuse is never sent.
  const checked = V4SearchQuerySchema.safeParse(query);
  if (!checked.success) {
    for (const issue of checked.error.issues) problems.form.push(`${issue.path.join('.') || 'search'}: ${issue.message}`);
    return { ok: false, problems };
  }
  return { ok: true, query };
}

// ---------------------------------------------------------------------------------------------
// Results

// The columns worth seeing first for each kind the sample publishes; other kinds get their first
// fields. Every field stays in the record's side panel.
const PREFERRED_COLUMNS: Record<string, string[]> = {
  ownership: ['ssl', 'address', 'owner', 'use_code', 'assessment_2016', 'last_sale_price', 'last_sale_recordation_date'],
  assessment: ['ssl', 'address', 'owner', 'use_code', 'assessment_2016', 'homestead'],
  sale: ['ssl', 'address', 'owner', 'last_sale_price', 'last_sale_recordation_date', 'use_code'],
  permit: ['PERMIT_ID', 'ISSUE_DATE', 'FULL_ADDRESS', 'OWNER_NAME', 'DESC_OF_WORK', 'APPLICATION_STATUS_NAME', 'SSL'],
  residential_characteristics: ['PRICE', 'QUALIFIED', 'BEDRM', 'BATHRM', 'GBA', 'AYB', 'STYLE_D', 'ZIPCODE', 'WARD'],
  tax_square: ['square', 'suffix', 'lat', 'lon'],
  parcel: ['account_no', 'address', 'land_use', 'zoning', 'zip'],
  address: ['full_address', 'zip', 'add_type', 'objectid'],
  imputed_characteristics: ['ssl', 'method', 'BEDRM', 'BATHRM', 'GBA', 'AYB', 'rank_in_square'],
};

/**
 * Whole-dollar columns as the publishers print them (with a $ in the table), and a record cell as
 * text: both one way for every view and export (shared/report/format.ts).
 */
export { isPublishedDollarField as isDollarField, formatRecordCell as cellText } from '../../../shared/report/format.ts';

export function recordData(record: { data: unknown }): Record<string, unknown> {
  return record.data && typeof record.data === 'object' && !Array.isArray(record.data) ? (record.data as Record<string, unknown>) : {};
}

/**
 * Which source fields get a column: the kind's useful ones that the page holds, else the first six.
 * A useful column is found under the service's own name for it: the same name in any case and
 * without underscores (`PERMIT_ID`, `PERMITID`), or the field the catalog (else the page) gives the
 * same role (`owner` is `OWNERNAME` where the service calls it that).
 */
export function recordColumnsFor(kind: string, records: ReadonlyArray<{ data: unknown }>, fields: readonly SourceFieldInfo[]): string[] {
  const present = new Set<string>();
  for (const record of records) for (const key of Object.keys(recordData(record))) present.add(key);
  const roles = rolesOf(fields.length > 0 ? fields : [...present].map((name) => ({ name, type: 'unknown' as const, description: null })));
  const columnFor = (wanted: string): string | null => {
    const same = [...present].find((name) => normalisedFieldName(name) === normalisedFieldName(wanted));
    if (same !== undefined) return same;
    const role = roleOfFieldName(wanted);
    const field = role === null ? undefined : roles[role];
    return field !== undefined && present.has(field) ? field : null;
  };
  const preferred = [...new Set((PREFERRED_COLUMNS[kind] ?? []).map(columnFor).filter((field): field is string => field !== null))];
  if (preferred.length > 0) return preferred;
  const ordered = [...fields.map((field) => field.name).filter((name) => present.has(name)), ...present];
  return [...new Set(ordered)].slice(0, 6);
}

/** A value exactly as the publisher wrote it (the side panel): null shown as "(empty)" by the caller. */
export function rawText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export interface EntityLink {
  id: string;
  /** "parcel", "tax account", … or "entity" for an id Plat does not recognise. */
  kindLabel: string;
}

/** The entities a record is about. `q_ids` has no published shape: ids, lists of ids, or objects holding them. */
export function entityLinksOf(qIds: unknown): EntityLink[] {
  const ids: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 3) return;
    if (typeof value === 'string') {
      if (/^[a-z]{2,8}_[A-Za-z0-9-]{4,}$/.test(value) && !ids.includes(value)) ids.push(value);
    } else if (Array.isArray(value)) for (const entry of value) visit(entry, depth + 1);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const id = record.q_id ?? record.id ?? record.entity_id ?? record.entity_ref;
      if (typeof id === 'string') visit(id, depth + 1);
      else for (const entry of Object.values(record)) visit(entry, depth + 1);
    }
  };
  visit(qIds, 0);
  return ids.map((id) => {
    const prefix = entityPrefix(id);
    return { id, kindLabel: prefix ? entityKindLabelByPrefix[prefix] : 'entity' };
  });
}
