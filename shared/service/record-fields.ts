// Which field of a v4 search record plays each role Plat needs (parcel SSL, owner, sale price…),
// discovered from the service's own catalog, never assumed: the spec says a record's `data` holds the
// source row "field names as the publisher wrote them" and leaves the catalog's `fields` unshown, so
// one service writes `owner` and another `OWNERNAME`. A field is found by its name (case, underscores
// and punctuation ignored, against the role's synonyms), failing that by its label or description;
// a role found nowhere is unknown: Plat neither filters on it (no paid call on a guess) nor reads a
// record's silence on it as "blank".

/** What a catalog says a field holds, in Plat's words. */
export type SourceFieldType = 'number' | 'date' | 'string' | 'boolean' | 'unknown';

/** One field of a source, named as the service names it. */
export interface SourceFieldInfo {
  name: string;
  type: SourceFieldType;
  /** The catalog's description or label of the field, when it gives one. */
  description: string | null;
}

const TYPE_WORDS: Record<string, SourceFieldType> = {
  number: 'number',
  integer: 'number',
  int: 'number',
  float: 'number',
  decimal: 'number',
  numeric: 'number',
  real: 'number',
  money: 'number',
  currency: 'number',
  date: 'date',
  datetime: 'date',
  'date-time': 'date',
  timestamp: 'date',
  string: 'string',
  text: 'string',
  boolean: 'boolean',
  bool: 'boolean',
};

function fieldType(value: unknown): SourceFieldType {
  return typeof value === 'string' ? (TYPE_WORDS[value.trim().toLowerCase()] ?? 'unknown') : 'unknown';
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A catalog item's `fields`, whose structure the spec does not show: a list of names, a list of
 * objects naming the field by `name`/`field`/`key`/`field_name`/`id`, or an object keyed by field
 * name whose values are a type word or an object (`{data_type, label}`, `{type, description}`).
 */
export function sourceFieldsOf(fields: unknown): SourceFieldInfo[] {
  const out: SourceFieldInfo[] = [];
  const add = (name: unknown, spec: Record<string, unknown> | null, type: unknown) => {
    const fieldName = text(name);
    if (fieldName === null || out.some((field) => field.name === fieldName)) return;
    const description = spec ? (text(spec.description) ?? text(spec.label) ?? text(spec.title)) : null;
    out.push({ name: fieldName, type: fieldType(spec ? (spec.type ?? spec.data_type) : type), description });
  };
  if (Array.isArray(fields)) {
    for (const entry of fields) {
      if (typeof entry === 'string') add(entry, null, null);
      else if (isObject(entry)) add(entry.name ?? entry.field ?? entry.key ?? entry.field_name ?? entry.id, entry, null);
    }
  } else if (isObject(fields)) {
    for (const [name, spec] of Object.entries(fields)) add(name, isObject(spec) ? spec : null, spec);
  }
  return out;
}

/** The part of a v4 catalog item this module reads. */
export interface CatalogItemFields {
  kind: string;
  source_id: string;
  fields?: unknown;
}

/** The fields of a kind: the chosen source's, or every source's of that kind (first seen wins). */
export function fieldsForKind(items: readonly CatalogItemFields[], kind: string, sourceId = ''): SourceFieldInfo[] {
  const out: SourceFieldInfo[] = [];
  for (const item of items) {
    if (item.kind !== kind || (sourceId !== '' && item.source_id !== sourceId)) continue;
    for (const field of sourceFieldsOf(item.fields)) if (!out.some((known) => known.name === field.name)) out.push(field);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Roles

/** The parts of a record Plat reads by meaning rather than by one service's column name. */
export const recordFieldRoles = [
  'ssl',
  'account_no',
  'second_owner',
  'owner_name',
  'address',
  'use_code',
  'land_use',
  'sale_price',
  'sale_date',
  'assessed_value',
  'permit_id',
  'permit_issue_date',
  'permit_type',
  'permit_work',
  'permit_status',
] as const;
export type RecordFieldRole = (typeof recordFieldRoles)[number];

interface RoleRule {
  /** What the role is, in words ("SSL", "owner name"). */
  words: string;
  /** Field names that play it, normalised (lower case, letters and digits only), the likelier first. */
  names: readonly string[];
  /** Names that play it by pattern (`assessment_2016`, `ASSESSMENT2019`). */
  pattern?: RegExp;
  /** Labels or descriptions that say the field plays it, normalised to lower-case words. */
  labels: readonly string[];
}

// `second_owner` is matched before `owner_name` so that OWNER_NAME_2 is never taken as the owner.
const ROLES: Record<RecordFieldRole, RoleRule> = {
  ssl: { words: 'SSL', names: ['sslcanonical', 'canonicalssl', 'ssl', 'parcelssl', 'squaresuffixlot'], labels: ['square suffix lot', 'ssl', 'parcel ssl', 'canonical ssl'] },
  account_no: { words: 'account number', names: ['accountno', 'accountnumber', 'account', 'acctno', 'acct', 'accountid'], labels: ['account number', 'account'] },
  second_owner: {
    words: 'second owner',
    names: ['ownername2', 'owner2', 'secondowner', 'secondownername', 'coowner', 'coownername'],
    labels: ['second owner', 'owner name 2', 'owner 2', 'co owner'],
  },
  owner_name: {
    words: 'owner name',
    names: ['owner', 'ownername', 'owner1', 'ownername1', 'ownernm', 'ownerofrecord'],
    labels: ['owner', 'owner name', 'owner of record', 'name of owner'],
  },
  address: {
    words: 'address',
    names: ['address', 'premiseadd', 'premiseaddress', 'fulladdress', 'situsaddress', 'siteaddress', 'propertyaddress'],
    labels: ['address', 'premise address', 'property address', 'site address', 'situs address', 'full address'],
  },
  use_code: { words: 'use code', names: ['usecode', 'propertyusecode', 'use'], labels: ['use code', 'property use code'] },
  land_use: { words: 'land use', names: ['landuse', 'landusecode'], labels: ['land use', 'land use code'] },
  sale_price: {
    words: 'sale price',
    names: ['lastsaleprice', 'saleprice', 'price', 'saleamount', 'lastsaleamount'],
    labels: ['sale price', 'last sale price', 'price', 'sale amount'],
  },
  sale_date: {
    words: 'sale date',
    names: ['lastsalerecordationdate', 'saledate', 'lastsaledate', 'recordationdate', 'salerecordationdate'],
    labels: ['sale date', 'last sale date', 'recordation date', 'date of sale', 'last sale recordation date'],
  },
  assessed_value: {
    words: 'assessed value',
    names: ['assessment', 'assessedvalue', 'totalassessment', 'assessmenttotal', 'assessedvaluetotal'],
    pattern: /^(assessment|assessedvalue)\d{4}$/,
    labels: ['assessed value', 'assessment', 'total assessment', 'assessed value total'],
  },
  permit_id: { words: 'permit number', names: ['permitid', 'permitnumber', 'permitno'], labels: ['permit number', 'permit id'] },
  permit_issue_date: { words: 'issue date', names: ['issuedate', 'dateissued', 'permitissuedate'], labels: ['issue date', 'date issued'] },
  permit_type: { words: 'permit type', names: ['permitsubtypename', 'permittypename', 'permitsubtype', 'permittype'], labels: ['permit type', 'permit subtype'] },
  permit_work: { words: 'work', names: ['descofwork', 'descriptionofwork', 'workdescription'], labels: ['description of work', 'work description'] },
  permit_status: { words: 'status', names: ['applicationstatusname', 'permitstatus', 'applicationstatus', 'status'], labels: ['status', 'application status'] },
};

/** A field name as compared: `last_sale_price`, `LASTSALEPRICE` and `Last-Sale Price` are one name. */
export const normalisedFieldName = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const labelWords = (label: string): string => label.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** What a role is, in words. */
export const roleWords = (role: RecordFieldRole): string => ROLES[role].words;

function nameMatch(names: readonly string[], rule: RoleRule, taken: ReadonlySet<string>): string | null {
  const free = names.filter((name) => !taken.has(name));
  for (const synonym of rule.names) {
    const hit = free.find((name) => normalisedFieldName(name) === synonym);
    if (hit !== undefined) return hit;
  }
  return rule.pattern ? (free.find((name) => rule.pattern!.test(normalisedFieldName(name))) ?? null) : null;
}

function labelMatch(fields: readonly SourceFieldInfo[], rule: RoleRule, taken: ReadonlySet<string>): string | null {
  const free = fields.filter((field) => !taken.has(field.name) && field.description !== null);
  for (const phrase of rule.labels) {
    const hit = free.find((field) => labelWords(field.description!) === phrase);
    if (hit) return hit.name;
  }
  // A longer label holding every word of a two-word phrase ("Sale price in dollars"): the shortest such label.
  const words = (phrase: string) => phrase.split(' ');
  const containing = free
    .filter((field) => rule.labels.some((phrase) => words(phrase).length > 1 && words(phrase).every((word) => labelWords(field.description!).split(' ').includes(word))))
    .sort((a, b) => a.description!.length - b.description!.length);
  return containing[0]?.name ?? null;
}

/** The role a field name plays by its name alone (`OWNERNAME` → owner_name), or null. */
export function roleOfFieldName(name: string): RecordFieldRole | null {
  const normal = normalisedFieldName(name);
  return recordFieldRoles.find((role) => ROLES[role].names.includes(normal) || ROLES[role].pattern?.test(normal) === true) ?? null;
}

/** Which field plays each role for one record kind, and where that came from. */
export interface RecordFieldMap {
  kind: string;
  /** True when the catalog listed the kind's fields: a role it lacks is unknown, not guessed. */
  fromCatalog: boolean;
  fields: SourceFieldInfo[];
  roles: Partial<Record<RecordFieldRole, string>>;
}

/** The roles among a list of field names (and their labels, when given): each field plays one role at most. */
export function rolesOf(fields: readonly SourceFieldInfo[]): Partial<Record<RecordFieldRole, string>> {
  const roles: Partial<Record<RecordFieldRole, string>> = {};
  const taken = new Set<string>();
  const names = fields.map((field) => field.name);
  // Names first for every role (the surest), then labels for the roles still missing.
  for (const role of recordFieldRoles) {
    const hit = nameMatch(names, ROLES[role], taken);
    if (hit !== null) {
      roles[role] = hit;
      taken.add(hit);
    }
  }
  for (const role of recordFieldRoles) {
    if (roles[role] !== undefined) continue;
    const hit = labelMatch(fields, ROLES[role], taken);
    if (hit !== null) {
      roles[role] = hit;
      taken.add(hit);
    }
  }
  return roles;
}

/** The field map of a kind from the v4 catalog items of a jurisdiction (optionally one source). */
export function recordFieldMap(items: readonly CatalogItemFields[], kind: string, sourceId = ''): RecordFieldMap {
  const fields = fieldsForKind(items, kind, sourceId);
  return { kind, fromCatalog: fields.length > 0, fields, roles: rolesOf(fields) };
}

/** The field that plays a role for the kind, or null when the catalog names none. */
export function fieldForRole(map: RecordFieldMap, role: RecordFieldRole): string | null {
  return map.roles[role] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Reading a record

/**
 * A record's value for a role: `found` (the published value, as published), `blank` (the record
 * has the field and leaves it empty), or `unknown` (Plat cannot tell which field plays the role:
 * the record may well hold it under a name Plat does not recognise).
 */
export type RoleValue =
  | { status: 'found'; field: string; value: string | number | boolean }
  | { status: 'blank'; field: string }
  | { status: 'unknown' };

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/**
 * The value a record's `data` holds for a role, read with the kind's catalog map; with no map (or a
 * catalog that listed no fields for the kind), the row's own field names are matched to the role.
 */
export function readRole(data: unknown, role: RecordFieldRole, map?: RecordFieldMap | null): RoleValue {
  if (!isObject(data)) return { status: 'unknown' };
  const field = map?.fromCatalog ? fieldForRole(map, role) : (rolesOf(Object.keys(data).map((name) => ({ name, type: 'unknown', description: null })))[role] ?? null);
  if (field === null) return { status: 'unknown' };
  const value = data[field];
  if (isBlank(value)) return { status: 'blank', field };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { status: 'found', field, value };
  return { status: 'found', field, value: JSON.stringify(value) };
}

/** A value of a money or count role as a number: published numbers, and numbers published as text ("18402.50", "1,361,000"). */
export function roleNumber(value: RoleValue): number | null {
  if (value.status !== 'found') return null;
  if (typeof value.value === 'number') return Number.isFinite(value.value) ? value.value : null;
  if (typeof value.value !== 'string') return null;
  const cleaned = value.value.trim().replace(/^\$/, '').replace(/,/g, '');
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : null;
}

/** The sentence for a record whose role Plat cannot read: the value may be there, under a name Plat does not recognise. */
export function roleNotRecognised(role: RecordFieldRole, map?: RecordFieldMap | null): string {
  const names = map?.fields.map((field) => field.name) ?? [];
  const listed = names.length > 0 ? ` (its fields: ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''})` : '';
  return `Not recognised by Plat: no field of this record is one Plat reads as the ${roleWords(role)}${listed}; the record is shown as published.`;
}

/**
 * Why a search by a role cannot be sent, said before any charge: "This service's catalog names no
 * SSL field for sale records in DC; Plat cannot search them by parcel."
 */
export function roleSearchProblem(map: RecordFieldMap, role: RecordFieldRole, place: string, by: string): string | null {
  if (fieldForRole(map, role) !== null) return null;
  const kind = map.kind.replace(/_/g, ' ');
  return map.fromCatalog
    ? `This service’s catalog names no ${roleWords(role)} field for ${kind} records in ${place}; Plat cannot search them by ${by}.`
    : `This service’s catalog lists no fields for ${kind} records in ${place}; Plat cannot tell which one holds the ${roleWords(role)}, so it cannot search them by ${by}.`;
}

// ---------------------------------------------------------------------------------------------
// A record as cited facts

/** The fact name Plat's readers of search facts (owner lookup, portfolio) give each role. */
const FACT_OF_ROLE: Partial<Record<RecordFieldRole, string>> = {
  ssl: 'ssl',
  account_no: 'account_no',
  owner_name: 'owner_name',
  second_owner: 'owner_name_2',
  address: 'address',
  use_code: 'use_code',
  land_use: 'land_use',
  assessed_value: 'assessed_value_dollars',
  sale_price: 'last_sale_price_dollars',
  sale_date: 'last_sale_date',
};

/** A v4 search record as the cited-fact item Plat's readers of search facts read. */
export interface RecordFactItem {
  entity_ref: string;
  entity_kind: string;
  property_ref: string;
  /** By Plat's fact name: `{value, citation}`, the value as published, cited to the record. */
  facts: Record<string, { value: string | number | boolean; citation: Record<string, unknown> }>;
  /** The roles no field of the record plays, in words ("owner name"): not recognised by Plat, not blank. */
  notRecognised: string[];
  /** The same, by fact name (`owner_name`). */
  unknownFacts: string[];
}

/**
 * A v4 record (an ownership record, say) as a cited-fact item: each role's value as published, cited
 * to the record; the entity it opens is the parcel or unit its `q_ids` name, else its property.
 */
export function recordFactItem(record: { record_ref: string; citation: unknown; data: unknown; q_ids: unknown }, map?: RecordFieldMap | null): RecordFactItem {
  const citation = { ...(isObject(record.citation) ? record.citation : {}), record_ref: record.record_ref };
  const facts: RecordFactItem['facts'] = {};
  const notRecognised: string[] = [];
  const unknownFacts: string[] = [];
  for (const [role, fact] of Object.entries(FACT_OF_ROLE) as Array<[RecordFieldRole, string]>) {
    const read = readRole(record.data, role, map);
    if (read.status === 'found') facts[fact] = { value: read.value, citation };
    // A second owner, an account number (Alexandria's key) or a land use (DC's is a use code) is often simply not published.
    else if (read.status === 'unknown' && role !== 'second_owner' && role !== 'account_no' && role !== 'land_use') {
      notRecognised.push(roleWords(role));
      unknownFacts.push(fact);
    }
  }
  const ids = Array.isArray(record.q_ids) ? record.q_ids.filter((id): id is string => typeof id === 'string') : [];
  const land = ids.find((id) => /^(parc|unit)_/.test(id));
  const property = ids.find((id) => id.startsWith('prop_'));
  return {
    entity_ref: land ?? property ?? record.record_ref,
    entity_kind: land?.startsWith('unit_') ? 'unit' : land ? 'parcel' : 'property',
    property_ref: property ?? land ?? record.record_ref,
    facts,
    notRecognised,
    unknownFacts,
  };
}
