// How a kept answer is named for a person: what was asked ("Subject report for 1708 21ST ST NW"),
// its parameters as compact text (the query log), and how many distinct citations it carries.
import { serviceOperations, type ServiceOperationName } from '../../../shared/service/index.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';

/** The subject of the assignment, so a request about it is named the way the person knows it. */
export interface SubjectName {
  ref: string;
  label: string;
}

const MAX_PARAMETERS_LENGTH = 1_000;

type Parts = { path?: unknown; query?: unknown; body?: unknown };

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The request's parameters as `name=value` pairs ("q_id=prop_…; fields=[…]"), bounded. */
export function compactParameters(parts: Parts): string {
  const pairs: string[] = [];
  for (const part of [parts.path, parts.query, parts.body]) {
    for (const [name, value] of Object.entries(record(part))) {
      if (value === undefined) continue;
      pairs.push(`${name}=${typeof value === 'object' && value !== null ? canonicalJson(value) : String(value)}`);
    }
  }
  const joined = pairs.join('; ');
  return joined.length > MAX_PARAMETERS_LENGTH ? `${joined.slice(0, MAX_PARAMETERS_LENGTH - 1)}…` : joined;
}

/** What the answer is about, in words. */
export function answerLabel(operation: ServiceOperationName, parts: Parts, subject: SubjectName | null): string {
  const path = record(parts.path);
  const query = record(parts.query);
  const body = record(parts.body);
  const about = (ref: unknown): string => {
    const id = text(ref) ?? 'an entity';
    return subject && id === subject.ref && subject.label !== '' ? subject.label : id;
  };
  switch (operation) {
    case 'v3.recordQuery': {
      const mode = text(body.mode);
      const projection = text(body.projection);
      if (mode === 'report') {
        const what = projection === 'report_comparables_v1' ? 'Comparable sales report' : projection === 'report_subject_v1' ? 'Subject report' : `Report ${projection ?? ''}`.trim();
        return `${what} for ${about(body.subject_property_ref)}`;
      }
      if (mode === 'aggregate') return `Aggregate of ${text(body.dataset) ?? 'a dataset'}`;
      return `Record query (${mode ?? 'catalog'}${text(body.dataset) ? `, ${String(body.dataset)}` : ''})`;
    }
    case 'v4.summary':
      return `Summary of ${about(path.q_id)}`;
    case 'v4.connected':
      return `Entities connected to ${about(path.q_id)}`;
    case 'v4.search':
      return `Records search: ${text(query.kind) ?? 'records'}${text(query.jurisdiction) ? ` in ${String(query.jurisdiction)}` : ''}`;
    case 'v4.catalog':
    case 'v2.getCatalog':
      return 'Source catalog';
    case 'v2.searchProperties':
      return 'Property search';
    case 'v2.resolveEntities': {
      const items = Array.isArray(body.items) ? body.items : [];
      const identifiers = items.length === 1 ? record(items[0]).identifiers : null;
      const first = Array.isArray(identifiers) ? text(record(identifiers[0]).value) : null;
      return first ? `Resolution of "${first}"` : `Resolution of ${items.length} identifiers`;
    }
    case 'v2.getEntity':
      return `Entity ${about(path.entity_ref)}`;
    case 'v2.traverseRelationships':
      return `Relationships of ${about(path.entity_ref)}`;
    default: {
      // An operation with no label of its own is named by the table's noun ("Summary").
      const noun = serviceOperations[operation as ServiceOperationName].noun;
      return noun.charAt(0).toUpperCase() + noun.slice(1);
    }
  }
}

/**
 * The distinct citations an answer carries, as the service gave them, whichever generation
 * answered: v4 `citation` objects (alternatives included), v3 `data.sources` and v2
 * `provenance.sources` entries.
 */
export function citationsOf(envelope: unknown): Array<Record<string, unknown>> {
  const seen = new Map<string, Record<string, unknown>>();
  const keep = (value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) seen.set(canonicalJson(value), value as Record<string, unknown>);
  };
  const visit = (value: unknown, depth: number): void => {
    if (depth > 12 || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === 'citation') keep(child);
      else if (key === 'sources' && Array.isArray(child)) child.forEach(keep);
      else visit(child, depth + 1);
    }
  };
  visit(envelope, 0);
  return [...seen.values()];
}
