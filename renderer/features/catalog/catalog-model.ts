// What the Catalog view shows, as pure functions of the service's answers: the published sources of a
// jurisdiction (v4 catalog) with their fields, and the v2 catalog facets as generic tables. The spec
// does not show the structure of v4 `fields` or of v2 facet items, so both are read defensively.
import { countiesOf, findJurisdiction, jurisdictions, stateCodes, type JurisdictionCode } from '../../../shared/jurisdictions.ts';
import { formatDateValue, formatDay } from '../../../shared/format-date.ts';
import { formatUsd } from '../../../shared/money.ts';
import type { V4CatalogItem } from '../../../shared/service/v4.ts';
import { fromV4Citation, type CitationView } from '../../../shared/cited/citation.ts';
import { formatCellText as cellText } from '../../../shared/report/format.ts';
import { isRecord } from '../../../shared/json-data.ts';

/** A cell as text: scalars as written, lists of scalars comma-joined, anything else as compact JSON (one way, shared/report/format.ts). */
export { cellText };

export const DEFAULT_JURISDICTION: JurisdictionCode = '11001';

export interface JurisdictionGroup {
  label: string;
  options: Array<{ code: JurisdictionCode; label: string }>;
}

/** The jurisdiction picker: one group per state, the state itself first, then its counties and cities. */
export function jurisdictionGroups(): JurisdictionGroup[] {
  return stateCodes.map((stateCode) => {
    const state = jurisdictions.find((j) => j.code === stateCode);
    const stateName = state?.name ?? stateCode;
    return {
      label: stateName,
      options: [
        { code: stateCode, label: `${stateName} (state level)` },
        // DC's one county-equivalent shares the District's name, so it says which code it is.
        ...countiesOf(stateCode).map((county) => ({ code: county.code, label: county.code === '11001' ? 'District of Columbia (county level)' : county.name })),
      ],
    };
  });
}

export function isJurisdiction(code: string): code is JurisdictionCode {
  return findJurisdiction(code) !== undefined;
}

export interface SourceField {
  name: string;
  type: string;
  description: string;
  example: string;
}

export interface SourceRow {
  sourceId: string;
  publisher: string;
  dataset: string;
  kind: string;
  records: number;
  /** YYYY-MM-DD of the source's as_of date-time. */
  asOf: string;
  state: string;
  /** Null when the answer carried no field list (the list is only given for a narrowed catalog). */
  fields: SourceField[] | null;
  synthetic: boolean;
  citation: CitationView;
}


/**
 * A source's `fields`, whatever form the service chose: a list of `{name, type, description?, example?}`
 * (Plat's local service), a list of names, or an object keyed by field name (a type string or an object).
 */
export function parseSourceFields(fields: unknown): SourceField[] | null {
  if (fields === undefined || fields === null) return null;
  const fromEntry = (name: string, entry: unknown): SourceField => {
    if (isRecord(entry)) {
      return {
        name,
        type: cellText(entry.type ?? entry.data_type ?? ''),
        description: cellText(entry.description ?? ''),
        example: cellText(entry.example ?? entry.sample ?? ''),
      };
    }
    return { name, type: cellText(entry), description: '', example: '' };
  };
  if (Array.isArray(fields)) {
    return fields.flatMap((entry): SourceField[] => {
      if (typeof entry === 'string') return [{ name: entry, type: '', description: '', example: '' }];
      if (isRecord(entry) && typeof (entry.name ?? entry.field) === 'string') return [fromEntry(String(entry.name ?? entry.field), entry)];
      return [];
    });
  }
  if (isRecord(fields)) return Object.entries(fields).map(([name, entry]) => fromEntry(name, entry));
  return null;
}

export function sourceRows(items: readonly V4CatalogItem[]): SourceRow[] {
  return items.map((item) => {
    const citation = fromV4Citation(
      { ...item, source: item.source, dataset: item.dataset, as_of: item.as_of },
      { sourceId: item.source_id },
    );
    // The chip's extras would repeat the table's columns; keep only what the table does not show.
    const { state: _state, kind: _kind, records: _records, fields: _fields, source_id: _sourceId, description, ...extra } = citation.extra ?? {};
    return {
      sourceId: item.source_id,
      publisher: item.source,
      dataset: item.dataset,
      kind: item.kind,
      records: item.records,
      asOf: formatDay(item.as_of),
      state: item.state,
      fields: parseSourceFields(item.fields),
      synthetic: citation.synthetic,
      citation: { ...citation, extra: description === undefined ? extra : { description, ...extra } },
    };
  });
}

/** The plain sentence shown when a jurisdiction has no published sources in this service. */
export function noSourcesMessage(code: JurisdictionCode): string {
  const name = findJurisdiction(code)?.name ?? code;
  return `No published sources for ${name} in this service. The bundled sample holds no records here, so nothing is shown rather than anything made up.`;
}

/** Totals for the summary line above the sources table. */
export function sourceTotals(rows: readonly SourceRow[]): { sources: number; records: number; synthetic: number; publishers: number } {
  return {
    sources: rows.length,
    records: rows.reduce((sum, row) => sum + row.records, 0),
    synthetic: rows.filter((row) => row.synthetic).length,
    publishers: new Set(rows.map((row) => row.publisher)).size,
  };
}

// ---------------------------------------------------------------------------------------------
// v2 facets

export const facetLabels = {
  jurisdictions: 'Jurisdictions',
  authorities: 'Authorities',
  coverage: 'Coverage',
  dictionary: 'Dictionary',
  capabilities: 'Capabilities',
  sources: 'Sources',
} as const;

export interface FacetColumn {
  key: string;
  header: string;
  numeric: boolean;
}

/** A header from a snake_case key: `record_count` → "Record count". */
export function headerFor(key: string): string {
  const words = key.replace(/_/g, ' ').trim();
  return words === '' ? key : words.charAt(0).toUpperCase() + words.slice(1);
}

// What a person reads first in any facet: the thing's name, what it is, its state, its note.
const LEADING_KEYS = [
  'name',
  'facet',
  'operation',
  'entity_name',
  'field_key',
  'source_id',
  'jurisdiction',
  'domain_key',
  'kind',
  'data_type',
  'status',
  'coverage',
  'records',
  'as_of',
  'captured_at',
  'note',
  'description',
  'publisher',
  'dataset',
];

/**
 * Every key any item has: the well-known ones first (LEADING_KEYS order), then the rest as first
 * seen. A column is numeric when all its values are numbers.
 */
export function facetColumns(items: readonly Record<string, unknown>[]): FacetColumn[] {
  const seen: string[] = [];
  for (const item of items) for (const key of Object.keys(item)) if (!seen.includes(key)) seen.push(key);
  const keys = [...LEADING_KEYS.filter((key) => seen.includes(key)), ...seen.filter((key) => !LEADING_KEYS.includes(key))];
  return keys.map((key) => {
    const values = items.map((item) => item[key]).filter((v) => v !== null && v !== undefined);
    return { key, header: headerFor(key), numeric: values.length > 0 && values.every((v) => typeof v === 'number') };
  });
}

/**
 * A cell as a person reads it: a list of objects as its size ("17 entries", the full value is in the
 * copied text), an object as "key: value" pairs, amounts in micro-USD as dollars.
 */
export function cellDisplay(key: string, value: unknown): string {
  const isMicroUsd = (name: string) => name === 'micro_usd' || name.endsWith('_micro_usd');
  if (typeof value === 'number' && isMicroUsd(key) && Number.isSafeInteger(value)) return formatUsd(value);
  if (Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null)) {
    return `${value.length} ${value.length === 1 ? 'entry' : 'entries'}`;
  }
  // Dates as dates, moments in local time (a publication date stamped at midnight UTC is a date).
  if (typeof value === 'string') {
    const date = formatDateValue(value);
    if (date !== null) return date;
  }
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([name, inner]) => `${name.replace(/_/g, ' ')}: ${cellDisplay(name, inner) || '—'}`)
      .join(' · ');
  }
  return cellText(value);
}

/** A stable key for a facet row: its id-like field when it has one, else its position. */
export function facetRowKey(item: Record<string, unknown>, index: number): string {
  for (const key of ['id', 'source_ref', 'source_id', 'code', 'area_uid', 'field_key', 'key', 'name']) {
    const value = item[key];
    if (typeof value === 'string' || typeof value === 'number') return `${key}:${value}:${index}`;
  }
  return `row:${index}`;
}

/** A facet item's citation, when it names a publisher (sources, authorities). */
export function facetCitation(item: Record<string, unknown>): CitationView | null {
  const publisher = item.publisher ?? item.source ?? item.authority;
  if (typeof publisher !== 'string') return null;
  return fromV4Citation({
    ...item,
    source: publisher,
    dataset: typeof item.dataset === 'string' ? item.dataset : typeof item.source_kind === 'string' ? item.source_kind : null,
    as_of: typeof item.as_of === 'string' ? item.as_of : typeof item.captured_at === 'string' ? item.captured_at : null,
  });
}
