// A parcel's runsheet: every transfer and ownership record the answers hold, in date order (recorded
// sales with date and price, the owner of record as of its roll's release, permits naming an owner),
// each value cited, and the gaps said in words: the chain of title only as far as the records go. Two
// owners of record on one date are a conflict, shown with both records and never settled; what the
// records hold no trace of (deeds, liens, mortgages, grantor and grantee) is said once. Read from the
// parcel's v2 entity answer and v4 searches of records about it (sale, ownership, permit); the same
// record from both is one entry. Exported as CSV.
import { csvField } from '../csv.ts';
import { calendarDateOf, formatDay } from '../format-date.ts';
import { asOfRoll } from '../format/as-of.ts';
import { isRecord } from '../json-data.ts';
import { citationText, type CitationView } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { Citation, CitedValue } from '../cited/value.ts';
import { formatFieldValue, ZERO_PRICE_MEANING } from '../report/format.ts';
import { readRole, recordFieldMap, roleNotRecognised, roleNumber, type CatalogItemFields, type RecordFieldMap, type RecordFieldRole } from '../service/record-fields.ts';
import { V2EntityResponseSchema, type V2EntityData } from '../service/v2.ts';
import { V4SearchResponseSchema, type V4SearchData } from '../service/v4.ts';
import { citationOf, citedFact, readAnswer, recordValue, text, unavailable, type Json } from './answers.ts';
import { ownerNameKey, sslProblem, sslText } from './relations.ts';

export type RunsheetEvent = 'sale' | 'owner_of_record' | 'permit';

export const runsheetEventLabels: Record<RunsheetEvent, string> = {
  sale: 'Recorded sale',
  owner_of_record: 'Owner of record',
  permit: 'Building permit',
};

export interface RunsheetEntry {
  /** The record it comes from (one entry per record and event). */
  key: string;
  event: RunsheetEvent;
  /** The calendar day it is ordered by. */
  day: string;
  date: CitedValue;
  /** The owner the record names. */
  party: CitedValue;
  /** A sale's price; null for other events. */
  price: CitedValue | null;
  /** What else the record says, in words. */
  detail: string;
  recordRef: string | null;
  /** Who published the record. */
  publisher: string | null;
  /** Set on an owner of record that another record contradicts (see Runsheet.conflicts). */
  conflict: boolean;
}

/** Owners of record of the parcel on one date that do not agree: every record, none preferred. */
export interface RunsheetConflict {
  day: string;
  /** The entries in conflict, in runsheet order. */
  keys: string[];
  /** The names the records print, each once. */
  names: string[];
  /** The conflict in one sentence, naming both owners and the date. */
  text: string;
}

export interface Runsheet {
  parcelRef: string;
  /** "SSL 0368 0909", when the answers give it. */
  parcel: string;
  entries: RunsheetEntry[];
  /** Owners of record that contradict each other, by date. */
  conflicts: RunsheetConflict[];
  /** What the records do not show, in words: a conflict first, then what they hold no trace of. */
  gaps: string[];
  /** Answers Plat could not use, in words (nothing else is lost). */
  problems: string[];
}

export interface RunsheetInput {
  parcelRef: string;
  /** The parcel's v2 entity answer. */
  entity?: unknown;
  /** v4 search answers of records about the parcel (sale, ownership and permit records). */
  records?: readonly unknown[];
  /**
   * The v4 catalog items of the records' jurisdiction, which name each kind's fields; without them a
   * record is read by its own field names.
   */
  catalog?: readonly CatalogItemFields[];
}

const OTR = /Office of Tax and Revenue/i;

function dateValue(field: string, label: string, raw: string, view: CitationView, cite: Cite): CitedValue {
  return recordValue(field, label, raw, view, cite, formatDay(raw));
}

/** The kinds' field maps from the catalog the client read (none: each record is read by its own names). */
type FieldMaps = Map<string, RecordFieldMap>;

/** The entries one v4 record gives (its sale, its owner of record, or its permit), its fields found by role. */
function recordEntries(record: Json, maps: FieldMaps, cite: Cite): RunsheetEntry[] {
  const data = isRecord(record.data) ? record.data : {};
  const view = citationOf(record.citation);
  const ref = text(record.record_ref);
  if (view === null || ref === null) return [];
  const cited = { ...view, recordRef: ref };
  const map = typeof record.kind === 'string' ? (maps.get(record.kind) ?? null) : null;
  const read = (role: RecordFieldRole) => readRole(data, role, map);
  // Unknown is not blank: the record may hold the value under a name Plat does not recognise.
  const value = (field: string, label: string, role: RecordFieldRole, blank: string) => {
    const found = read(role);
    if (found.status === 'unknown') return unavailable(field, label, roleNotRecognised(role, map));
    if (found.status === 'blank') return unavailable(field, label, blank);
    const number = roleNumber(found);
    return recordValue(field, label, found.value, cited, cite, number === 0 ? formatFieldValue(field, 0) : undefined);
  };
  const dated = (field: string, label: string, role: RecordFieldRole): CitedValue | null => {
    const found = read(role);
    if (found.status === 'unknown') return unavailable(field, label, roleNotRecognised(role, map));
    const day = found.status === 'found' ? text(found.value) : null;
    return day === null ? null : dateValue(field, label, day, cited, cite);
  };
  if (record.kind === 'sale') {
    const date = dated('sale_date', 'Sale date', 'sale_date');
    if (date === null) return [];
    return [saleEntry(ref, view.publisher, date, value('last_sale_price_dollars', 'Sale price', 'sale_price', 'The record leaves it blank.'))];
  }
  if (record.kind === 'ownership') {
    const asOf = view.asOf;
    if (asOf === null) return [];
    return [ownerEntry(ref, view.publisher, dateValue('owner_as_of', 'As of', asOf, cited, cite), value('owner_name', 'Owner of record', 'owner_name', 'The record leaves it blank.'))];
  }
  if (record.kind === 'permit') {
    const date = dated('permit_issue_date', 'Issued', 'permit_issue_date');
    if (date === null) return [];
    const part = (role: RecordFieldRole) => {
      const found = read(role);
      return found.status === 'found' ? text(String(found.value)) : null;
    };
    const detail = permitDetail(part('permit_id'), part('permit_type'), part('permit_work'), part('permit_status'), part('address'));
    const party = value('permit_owner', 'Owner named', 'owner_name', 'The permit names no owner.');
    return [permitEntry(ref, view.publisher, date, party, detail)];
  }
  return [];
}

/** A permit in words: its number, type, work and status, and the address it gives (a permit joined by a bad key shows another lot's). */
function permitDetail(id: string | null, type: string | null, work: string | null, status: string | null, address: string | null): string {
  return [id, type, work, status, address === null ? null : `at ${address}`].filter((part) => part !== null).join(' · ');
}

const SALE_PARTIES = 'The sale record names no buyer or seller.';

// A date Plat could not find in the record has no day: listed last, its day left empty.
const dayOf = (date: CitedValue): string => (date.raw === null ? '' : (calendarDateOf(String(date.raw)) ?? String(date.raw)));

function saleEntry(ref: string, publisher: string | null, date: CitedValue, price: CitedValue): RunsheetEntry {
  const zero = price.raw !== null && Number(price.raw) === 0 && String(price.raw).trim() !== '' ? ` Price 0: ${ZERO_PRICE_MEANING}.` : '';
  return {
    key: `sale:${ref}`,
    event: 'sale',
    day: dayOf(date),
    date,
    party: unavailable('sale_parties', 'Parties', SALE_PARTIES),
    price,
    detail: `Last recorded sale of the lot.${zero}`,
    recordRef: ref,
    publisher,
    conflict: false,
  };
}

function ownerEntry(ref: string, publisher: string | null, date: CitedValue, party: CitedValue): RunsheetEntry {
  const day = dayOf(date);
  return { key: `owner:${ref}`, event: 'owner_of_record', day, date, party, price: null, detail: day === '' ? 'On the tax roll as of its release.' : `${asOfRoll(day).replace(/^a/, 'A')}.`, recordRef: ref, publisher, conflict: false };
}

function permitEntry(ref: string, publisher: string | null, date: CitedValue, party: CitedValue, detail: string): RunsheetEntry {
  return { key: `permit:${ref}`, event: 'permit', day: dayOf(date), date, party, price: null, detail, recordRef: ref, publisher, conflict: false };
}

/** The entries of the parcel's v2 entity answer: its last sale, its owner of record, its permits (without their owner names). */
function entityEntries(entity: Json, cite: Cite): RunsheetEntry[] {
  const attributes = isRecord(entity.attributes) ? entity.attributes : {};
  const entries: RunsheetEntry[] = [];
  const saleDate = isRecord(attributes.last_sale_date) ? attributes.last_sale_date : null;
  const saleView = citationOf(saleDate?.citation);
  if (saleDate && saleView?.recordRef) {
    const date = citedFact('sale_date', 'Sale date', saleDate, cite, (raw) => formatDay(String(raw)));
    const price = citedFact('last_sale_price_dollars', 'Sale price', attributes.last_sale_price_dollars, cite) ?? unavailable('last_sale_price_dollars', 'Sale price', 'The answer gives no price.');
    if (date) entries.push(saleEntry(saleView.recordRef, saleView.publisher, date, price));
  }
  const owner = isRecord(attributes.owner_name) ? attributes.owner_name : null;
  // The alternatives are other records' owners of record: each its own entry, so a disagreement shows.
  const alternatives = Array.isArray(owner?.alternatives) ? owner.alternatives.filter(isRecord) : [];
  for (const fact of owner ? [owner, ...alternatives] : []) {
    const view = citationOf(fact.citation);
    if (!view?.recordRef || !view.asOf) continue;
    const party = citedFact('owner_name', 'Owner of record', fact, cite);
    if (party) entries.push(ownerEntry(view.recordRef, view.publisher, dateValue('owner_as_of', 'As of', view.asOf, view, cite), party));
  }
  for (const permit of Array.isArray(entity.permits) ? entity.permits : []) {
    if (!isRecord(permit)) continue;
    const view = citationOf(permit.citation);
    const ref = text(permit.record_ref) ?? view?.recordRef ?? null;
    const day = text(permit.issue_date);
    if (view === null || ref === null || day === null) continue;
    const detail = permitDetail(text(permit.permit_id), text(permit.record_type), text(permit.description), text(permit.status), text(permit.address));
    const party = unavailable('permit_owner', 'Owner named', 'The entity answer lists the permit without its owner name; a search of permit records gives it.');
    entries.push(permitEntry(ref, view.publisher, dateValue('permit_issue_date', 'Issued', day, { ...view, recordRef: ref }, cite), party, detail));
  }
  return entries;
}

const ORDER: Record<RunsheetEvent, number> = { sale: 0, permit: 1, owner_of_record: 2 };

const ownerNameOf = (entry: RunsheetEntry): string | null => (typeof entry.party.raw === 'string' && entry.party.raw.trim() !== '' ? entry.party.raw : null);

/**
 * Owners of record on one date whose names differ even after normalisation. The roll's entries are
 * dated by its release, so two on one date overlap; repeated rows naming one owner are no conflict.
 */
function conflictsOf(entries: readonly RunsheetEntry[]): RunsheetConflict[] {
  const byDay = new Map<string, RunsheetEntry[]>();
  for (const entry of entries) {
    if (entry.event !== 'owner_of_record' || entry.day === '' || ownerNameOf(entry) === null) continue;
    byDay.set(entry.day, [...(byDay.get(entry.day) ?? []), entry]);
  }
  const conflicts: RunsheetConflict[] = [];
  for (const [day, owners] of byDay) {
    const names = [...new Map(owners.map((entry) => [ownerNameKey(ownerNameOf(entry) ?? ''), ownerNameOf(entry) ?? ''])).values()];
    if (names.length < 2) continue;
    const listed = names.length === 2 ? `${names[0]} and ${names[1]}` : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    const text = `Conflict: ${owners.length} records name ${names.length} different owners of record for this parcel ${asOfRoll(day)}: ${listed}. The records do not say which holds title, or whether each holds a share; Plat shows both and chooses neither.`;
    conflicts.push({ day, keys: owners.map((entry) => entry.key), names, text });
  }
  return conflicts;
}

/** What no answer Plat reads can show about a parcel, said once. */
function noTraceOf(parcel: string): string {
  return `The records hold no trace of deeds, liens, mortgages or grantors and grantees for ${parcel}: the tax roll names an owner of record and the last sale, not the instruments behind them. The recorder of deeds holds those.`;
}
function gapsOf(entries: readonly RunsheetEntry[], conflicts: readonly RunsheetConflict[], parcel: string, entity: Json | null, ssl: string | null, permitsAsked: boolean): string[] {
  const gaps: string[] = [];
  const problem = ssl === null ? null : sslProblem(ssl);
  if (problem) gaps.push(`${problem} The records below may be about unrelated lots.`);
  gaps.push(...conflicts.map((conflict) => conflict.text), noTraceOf(parcel));
  const sales = entries.filter((entry) => entry.event === 'sale');
  const owners = entries.filter((entry) => entry.event === 'owner_of_record');
  const permits = entries.filter((entry) => entry.event === 'permit');
  const first = sales[0];
  if (first === undefined) gaps.push('No recorded sale of this parcel in the answers.');
  else {
    gaps.push(OTR.test(first.publisher ?? '') ? 'No earlier transfers in the sample: OTR publishes each lot’s last sale only.' : 'No earlier transfers in the answers.');
    const owner = owners.at(-1);
    if (owner && typeof owner.party.raw === 'string' && first.day !== '' && first.day <= owner.day) {
      const names = [...new Set(owners.filter((entry) => entry.day === owner.day).flatMap((entry) => ownerNameOf(entry) ?? []))];
      const who = names.length > 1 ? `the owners of record ${asOfRoll(owner.day)}, ${names.join(' and ')}, may or may not be` : `the owner of record ${asOfRoll(owner.day)}, ${owner.party.raw}, may or may not be`;
      gaps.push(`${SALE_PARTIES} ${who.charAt(0).toUpperCase()}${who.slice(1)} the buyer of ${first.day}: the records do not say.`);
    }
  }
  if (owners.length === 0) gaps.push('No owner of record for this parcel in the answers.');
  if (permits.length === 0 && (entity !== null || permitsAsked)) gaps.push('No building permit in the answers is tied to this parcel.');
  const owner = owners.at(-1);
  for (const permit of permits) {
    if (!owner || typeof permit.party.raw !== 'string' || typeof owner.party.raw !== 'string') continue;
    if (ownerNameKey(permit.party.raw) === ownerNameKey(owner.party.raw) || permit.day > owner.day) continue;
    const between = sales.filter((sale) => sale.day >= permit.day && sale.day <= owner.day);
    const transfer = between.length > 0 ? `The recorded sale of ${between.map((sale) => sale.day).join(', ')} falls between them.` : 'No transfer between them is in the sample.';
    gaps.push(`The permit of ${permit.day} names ${permit.party.raw}; the owner of record ${asOfRoll(owner.day)} is ${owner.party.raw}. ${transfer} The records do not say how ownership passed between them.`);
  }
  return gaps;
}

/** The runsheet of a parcel from the answers held about it. */
export function parcelRunsheet(input: RunsheetInput, cite: Cite): Runsheet {
  const problems: string[] = [];
  const byKey = new Map<string, RunsheetEntry>();
  let entity: Json | null = null;
  let ssl: string | null = null;
  if (input.entity !== undefined) {
    const read = readAnswer<V2EntityData>(V2EntityResponseSchema, input.entity, 'parcel record');
    if (!read.ok) problems.push(read.problem);
    else if (read.data.entity.entity_ref !== input.parcelRef) problems.push(`The entity answer is about ${read.data.entity.entity_ref}, not ${input.parcelRef}: not used.`);
    else {
      entity = read.data.entity;
      const identifiers = Array.isArray(entity.identifiers) ? entity.identifiers : [];
      const sslId = identifiers.find((identifier) => isRecord(identifier) && identifier.scheme === 'ssl');
      ssl = isRecord(sslId) ? text(sslId.value) : null;
      for (const entry of entityEntries(entity, cite)) byKey.set(entry.key, entry);
    }
  }
  let permitsAsked = false;
  let elsewhere = 0;
  const maps: FieldMaps = new Map();
  if (input.catalog !== undefined) for (const kind of new Set(input.catalog.map((item) => item.kind))) maps.set(kind, recordFieldMap(input.catalog, kind));
  for (const [index, envelope] of (input.records ?? []).entries()) {
    const read = readAnswer<V4SearchData>(V4SearchResponseSchema, envelope, `record search ${index + 1}`);
    if (!read.ok) {
      problems.push(read.problem);
      continue;
    }
    for (const record of read.data.items as Json[]) {
      if (record.kind === 'permit') permitsAsked = true;
      if (Array.isArray(record.q_ids) && !record.q_ids.includes(input.parcelRef)) {
        elsewhere += 1;
        continue;
      }
      // A v4 record says more than the entity answer's line for it (a permit's owner): it replaces it.
      for (const entry of recordEntries(record, maps, cite)) byKey.set(entry.key, entry);
    }
  }
  if (elsewhere > 0) problems.push(`${elsewhere} ${elsewhere === 1 ? 'record' : 'records'} in the search answers ${elsewhere === 1 ? 'is' : 'are'} about other entities: left out.`);
  const dayKey = (entry: RunsheetEntry) => (entry.day === '' ? '\uffff' : entry.day);
  const sorted = [...byKey.values()].sort((a, b) => (dayKey(a) < dayKey(b) ? -1 : dayKey(a) > dayKey(b) ? 1 : ORDER[a.event] - ORDER[b.event]));
  const conflicts = conflictsOf(sorted);
  const inConflict = new Set(conflicts.flatMap((conflict) => conflict.keys));
  const entries = sorted.map((entry) => (inConflict.has(entry.key) ? { ...entry, conflict: true } : entry));
  const parcel = ssl === null ? input.parcelRef : `SSL ${sslText(ssl)}`;
  return { parcelRef: input.parcelRef, parcel, entries, conflicts, gaps: gapsOf(entries, conflicts, ssl === null ? 'this parcel' : parcel, entity, ssl, permitsAsked), problems };
}

/** The runsheet as CSV (RFC 4180, CRLF): one row per entry, each value with its status and its sources' full citations. */
export function runsheetCsv(runsheet: Runsheet, citations: readonly Citation[]): string {
  const byId = new Map(citations.map((citation) => [citation.id, citation]));
  const sources = (...values: Array<CitedValue | null>) =>
    [...new Set(values.flatMap((value) => value?.citationIds ?? []))].map((id) => (byId.has(id) ? citationText(byId.get(id)!) : `citation ${id} not in this document`)).join(' | ');
  const shown = (value: CitedValue | null) => (value === null ? '' : value.status === 'unavailable' ? `— (${value.limitation ?? 'unavailable'})` : value.display);
  const lines = [['Parcel', 'Date', 'Event', 'Owner named', 'Price', 'Detail', 'Status', 'Record', 'Sources'].join(',')];
  for (const entry of runsheet.entries) {
    const statuses = [...new Set([entry.date, entry.party, entry.price].filter((v): v is CitedValue => v !== null && v.status !== 'unavailable').map((v) => v.status))].join('/');
    const event = `${runsheetEventLabels[entry.event]}${entry.conflict ? ' (conflict)' : ''}`;
    const row = [runsheet.parcel, entry.day, event, shown(entry.party), shown(entry.price), entry.detail, statuses, entry.recordRef, sources(entry.date, entry.party, entry.price)];
    lines.push(row.map(csvField).join(','));
  }
  for (const gap of runsheet.gaps) lines.push([runsheet.parcel, '', 'Gap', '', '', gap, '', '', ''].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
