// The subject report document, built from the answers an assignment keeps: the v3 report_subject_v1
// envelope (the sections) and the v4 summary envelope (best values, alternatives, citations with
// the publisher's column and method). Pure: the same answers, choices and time give the same document.
//
// The rules it keeps (each tested): every value has a citation or says it is unavailable and why; a
// synthetic value is cited to the synthetic sample, never to a real publisher; a value the service
// derived, normalised or located approximately is `derived` and says from what, never "as published";
// where sources disagree the value carries the alternatives and why one was chosen.
import type { AssignmentDetails, ValueChoice } from '../ipc.ts';
import type { ComparablesWorkfile } from '../comparables/model.ts';
import { formatDay } from '../format-date.ts';
import {
  documentCitation,
  recordCitation,
  fromV3Source,
  fromV4Citation,
  asSynthetic,
  type CitationFields,
  type CitationView,
} from './citation.ts';
import { alternativeOf, resolveCandidates, yearBuiltFromPermits, type Candidate, type CandidateStatus, type PermitEvidence } from './conflicts.ts';
import type {
  Citation,
  CitedValue,
  Limitation,
  MissingSource,
  QueryLogEntry,
  ReportDocument,
  ReportSection,
  ReportTable,
  ValueStatus,
} from './document.ts';
import { subjectReportParts, subjectSummaryParts } from './document.ts';
import { CitationBook } from './citation-book.ts';
import { analyzeComparables } from '../comparables/analysis.ts';
import { comparablesCitationOrder, comparablesSection, comparablesStarted } from './comparables-section.ts';
import { titleResearchCitationOrder, titleResearchSection, type TitleResearchInput } from './title-research-section.ts';
import { formatFieldValue, humanizeCode, ZERO_PRICE_MEANING } from './format.ts';

export { citationRows, citationsCsv, type CitationRow } from './citation-export.ts';

export interface SubjectReportInput {
  assignment: { id: string; name: string; capMicroUsd: number | null; details: AssignmentDetails };
  /** The v3 report_subject_v1 envelope kept with the assignment (the whole envelope as the service sent it), or null if not bought yet. */
  subject: unknown | null;
  /** The v4 summary envelope for the subject kept with the assignment, or null if not bought yet. */
  summary: unknown | null;
  choices: ValueChoice[];
  queryLog: QueryLogEntry[];
  spentMicroUsd: number;
  /** ISO */
  generatedAt: string;
  /** Prices of the purchases the report needs, for `missing` (from the core's cost estimator). */
  prices: { subjectReportMicroUsd: number; summaryMicroUsd: number };
  /**
   * The assignment's comparables: its saved workfile and the kept v3 report_comparables_v1 envelopes
   * of its last search, page by page (a page not kept is absent); null when no search was run.
   */
  comparables?: { workfile: ComparablesWorkfile; pages: unknown[] } | null;
  /**
   * The answers of title research the assignment keeps (graph traversals and connected calls, entity
   * records, owner searches, record searches; each with its request parts) and the researcher's
   * decisions on links; null or absent when there are none.
   */
  titleResearch?: TitleResearchInput | null;
}

type Json = Record<string, unknown>;
type Raw = CitedValue['raw'];

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? (value.trim() === '' ? [] : [value]) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

// ---------------------------------------------------------------------------------------------
// Reading the answers

interface Answers {
  /** The subject's v3 item, or null when not bought (or answered with an error). */
  item: Json | null;
  /** The v4 summary's data, or null. */
  summary: Json | null;
  /** Why an answer that was kept cannot be read (an error envelope), in the service's words. */
  problems: string[];
  /** Who published each record the answers cite, by record ref. */
  records: Map<string, CitationView>;
  /** v3 source entries by source id (their checksums complete the v4 citations). */
  sources: Map<string, CitationView>;
}

function okData(envelope: unknown, what: string, problems: string[]): Json | null {
  if (!isRecord(envelope)) return null;
  if (envelope.status === 'error') {
    const error = isRecord(envelope.error) ? envelope.error : {};
    problems.push(`The service answered the ${what} with an error: ${text(error.message) ?? text(error.code) ?? 'no reason given'}.`);
    return null;
  }
  return isRecord(envelope.data) ? envelope.data : null;
}

function readAnswers(subject: unknown, summary: unknown): Answers {
  const problems: string[] = [];
  const subjectData = okData(subject, 'subject report', problems);
  const summaryData = okData(summary, 'summary', problems);
  const items = Array.isArray(subjectData?.items) ? subjectData.items.filter(isRecord) : [];
  const sources = new Map<string, CitationView>();
  const records = new Map<string, CitationView>();
  for (const source of Array.isArray(subjectData?.sources) ? subjectData.sources.filter(isRecord) : []) {
    const view = fromV3Source(source);
    if (view.sourceId) sources.set(view.sourceId, view);
    for (const ref of strings(source.record_refs)) records.set(ref, { ...view, recordRef: ref });
  }
  // The summary's citations name their record and source: they place records the v3 answer does not index.
  const visit = (citation: unknown) => {
    if (!isRecord(citation)) return;
    const view = withChecksum(fromV4Citation(citation), sources);
    if (view.recordRef && !records.has(view.recordRef)) records.set(view.recordRef, { ...view, extra: {} });
  };
  for (const entry of Object.values(summaryData ?? {})) {
    if (!isRecord(entry)) continue;
    visit(entry.citation);
    if (Array.isArray(entry.alternatives)) for (const alternative of entry.alternatives) if (isRecord(alternative)) visit(alternative.citation);
  }
  return { item: items[0] ?? null, summary: summaryData, problems, records, sources };
}

function withChecksum(view: CitationView, sources: ReadonlyMap<string, CitationView>): CitationView {
  const source = view.sourceId ? sources.get(view.sourceId) : undefined;
  return source && !view.sha256 ? { ...view, sha256: source.sha256 ?? null } : view;
}

/** A record ref's citation; a ref the answers do not place still cites the record, and says so. */
function citationForRef(answers: Answers, ref: string): CitationFields {
  return recordCitation(answers.records, ref);
}

/** A source as a whole, not one of its records. */
const sourceCitation = (view: CitationView): CitationFields => documentCitation({ ...view, recordRef: null, extra: {} });

/**
 * How a sentence about a source cites it: by the one record of it the answer cites there (the same
 * endnote as the values it qualifies), else as a whole (several records, or none: a dataset named by id).
 * A ref the answers do not place cites the record, and says so.
 */
function citeSource(answers: Answers, sourceId: string | null, refs: readonly string[]): CitationFields | null {
  if (refs.length === 1) return citationForRef(answers, refs[0]!);
  const source = sourceId ? answers.sources.get(sourceId) : undefined;
  if (source) return sourceCitation(source);
  const record = refs[0] === undefined ? undefined : answers.records.get(refs[0]);
  return record ? sourceCitation(record) : null;
}

/**
 * The sources parts of the answer draw on, each once, in the order first met: the sources of the
 * records in every `source_refs` inside them (cells, tables, the location), and every source in a
 * `source_ids` (a dataset the section speaks about as a whole, e.g. the permits dataset's coverage,
 * cited as a whole even where the section also cites some of its records).
 */
function sourcesOf(answers: Answers, ...parts: unknown[]): CitationFields[] {
  const refsBySource = new Map<string, { sourceId: string | null; refs: string[]; whole: boolean }>();
  const entry = (key: string, sourceId: string | null) => {
    let found = refsBySource.get(key);
    if (!found) refsBySource.set(key, (found = { sourceId, refs: [], whole: false }));
    return found;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'source_refs') {
        for (const ref of strings(value)) {
          const sourceId = answers.records.get(ref)?.sourceId ?? null;
          const found = entry(sourceId ?? `record:${ref}`, sourceId);
          if (!found.refs.includes(ref)) found.refs.push(ref);
        }
      } else if (key === 'source_ids') {
        for (const id of strings(value)) if (answers.sources.has(id)) entry(id, id).whole = true;
      } else visit(value);
    }
  };
  parts.forEach(visit);
  return [...refsBySource.values()].flatMap(({ sourceId, refs, whole }) => {
    const citation = citeSource(answers, sourceId, whole ? [] : refs);
    return citation ? [citation] : [];
  });
}

/** A source of the answer a sentence names by its id ("synthetic (plat_synthetic_characteristics)"), cited as `citeSource` does. */
function namedSources(answers: Answers, line: string): CitationFields[] {
  return [...answers.sources.keys()].flatMap((sourceId) => {
    if (!new RegExp(`\\b${sourceId.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\b`).test(line)) return [];
    const refs = [...answers.records.entries()].filter(([, view]) => view.sourceId === sourceId).map(([ref]) => ref);
    const citation = citeSource(answers, sourceId, refs);
    return citation ? [citation] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Statuses

/**
 * The document's status for a service's status word, never upgraded: anything that is not plainly
 * "reported" (derived, normalised, approximate, imputed…) is derived; a synthetic source makes it synthetic.
 */
function statusOf(word: unknown, citations: readonly CitationFields[], derived: boolean): CandidateStatus | 'unavailable' {
  const w = typeof word === 'string' ? word.toLowerCase() : null;
  if (w === 'unavailable' || w === 'not_available' || w === 'missing') return 'unavailable';
  if (w === 'synthetic' || citations.some((c) => c.synthetic)) return 'synthetic';
  if (derived) return 'derived';
  if (w === null || w === 'reported' || w === 'as_published' || w === 'published' || w === 'ok') return 'reported';
  return 'derived';
}

/** A synthetic value's citations name the sample, whatever the answer put under them. */
const citationsFor = (status: CandidateStatus, citations: CitationFields[]): CitationFields[] =>
  status === 'synthetic' ? citations.map(asSynthetic) : citations;

// ---------------------------------------------------------------------------------------------
// Fields

interface FieldSpec {
  /** Key inside its section (the document's field is `<section>.<key>`). */
  key: string;
  label: string;
  /** The field name the value is formatted by (`assessed_value_dollars`, `year_built`…). */
  format: string;
  /** The v4 summary's canonical field for the same fact. */
  summary?: string;
  numeric?: boolean;
  /** What a derived value of this field is derived from, when the answer does not say. */
  derivedFrom?: string;
}

/** A value as one source gives it, before it becomes a candidate. */
interface SourceValue {
  raw: Raw;
  status: unknown;
  refs: string[];
  /** A v4 citation, when the value came with its own. */
  citation?: Json;
  derivedFrom: string | null;
  note: string | null;
  limitation: string | null;
}

function rawOf(value: unknown, numeric: boolean): Raw {
  if (numeric && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
}

const derivedFromText = (value: unknown): string | null => {
  const refs = strings(value);
  return refs.length > 0 ? `record${refs.length > 1 ? 's' : ''} ${refs.join(', ')}` : null;
};

/**
 * A field of a v3 section: a field cell `{value, status, source_refs, …}` or a plain value with the
 * section's refs (and a sibling `<key>_status` when the service gives one).
 */
function v3Value(section: Json | null, key: string, numeric: boolean, sectionRefs: string[], sectionStatus: unknown): SourceValue | null {
  if (!section || !(key in section)) return null;
  const entry = section[key];
  if (isRecord(entry) && 'value' in entry) {
    return {
      raw: rawOf(entry.value, numeric),
      status: entry.status,
      refs: strings(entry.source_refs),
      derivedFrom: derivedFromText(entry.derived_from),
      note: text(entry.note),
      limitation: text(entry.limitation),
    };
  }
  if (entry === null || entry === undefined || entry === '') {
    const status = section[`${key}_status`] ?? 'unavailable';
    return { raw: null, status, refs: [], derivedFrom: null, note: null, limitation: text(section[`${key}_limitation`]) };
  }
  return {
    raw: rawOf(entry, numeric),
    status: section[`${key}_status`] ?? sectionStatus,
    refs: sectionRefs,
    derivedFrom: text(section[`${key}_derived_from`]),
    note: null,
    limitation: null,
  };
}

function candidateFromV3(answers: Answers, spec: FieldSpec, value: SourceValue, rank: number): Candidate | null {
  const found = value.refs.map((ref) => citationForRef(answers, ref));
  const status = statusOf(value.status, found, value.derivedFrom !== null && value.status !== 'synthetic');
  if (status === 'unavailable' || value.raw === null || value.raw === '') return null;
  // A value with nothing to cite is not shown as a fact (the rule: cited, or unavailable).
  if (found.length === 0) return null;
  return {
    key: keyFor(found, value.raw, 'report'),
    raw: value.raw,
    display: displayFor(spec, value.raw),
    status,
    citations: citationsFor(status, found),
    derivedFrom: status === 'derived' ? (value.derivedFrom ?? spec.derivedFrom ?? value.note ?? 'the records cited') : value.derivedFrom,
    note: value.note,
    rank,
  };
}

/** A summary entry (`{value, status, citation, note, alternatives}`) or one of its alternatives as a candidate. */
function candidateFromSummary(answers: Answers, spec: FieldSpec, entry: Json, rank: number): Candidate | null {
  if (!isRecord(entry.citation)) return null;
  const raw = rawOf(entry.value, spec.numeric ?? false);
  if (raw === null || raw === '') return null;
  const view = withChecksum(fromV4Citation(entry.citation), answers.sources);
  const method = text(view.extra?.method);
  const sourceField = text(view.extra?.source_field);
  const citationDerivedFrom = derivedFromText(view.extra?.derived_from);
  const entryDerivedFrom = derivedFromText(entry.derived_from);
  const notPublishedAsIs = method !== null && method !== 'as_published';
  const citation = documentCitation({ ...view, extra: {} });
  const status = statusOf(entry.status, [citation], entryDerivedFrom !== null || (notPublishedAsIs && entry.status !== 'synthetic'));
  if (status === 'unavailable') return null;
  let derivedFrom = entryDerivedFrom ?? citationDerivedFrom;
  if (status === 'derived' && derivedFrom === null) {
    derivedFrom = [method ? humanizeCode(method) : null, sourceField ? `from the column ${sourceField}` : null].filter(Boolean).join(' ') || 'the cited record';
  }
  return {
    key: keyFor([citation], raw, 'summary'),
    raw,
    display: displayFor(spec, raw),
    status,
    citations: citationsFor(status, [citation]),
    derivedFrom,
    note: text(entry.note),
    rank,
  };
}

/** Stable within a field: the record the value came from, or its source and value. */
function keyFor(citations: readonly CitationFields[], raw: Raw, origin: string): string {
  const first = citations[0];
  if (first?.recordRef) return `rec:${first.recordRef}`;
  return `${origin}:${first?.sourceId ?? first?.publisher ?? 'unknown'}:${String(raw)}`.slice(0, 200);
}

function displayFor(spec: FieldSpec, raw: Raw): string {
  if (typeof raw === 'string' && CODE_FIELDS.has(spec.key)) return codeDisplay(spec.key, raw);
  return formatFieldValue(spec.format, raw);
}

const CODE_FIELDS = new Set(['property_type', 'sale_type', 'acceptance_code']);
function codeDisplay(key: string, code: string): string {
  if (key === 'acceptance_code') {
    if (/^non[_ -]?market$/i.test(code)) return ZERO_PRICE_MEANING;
    if (/^market$/i.test(code)) return 'market sale';
  }
  return humanizeCode(code);
}

// ---------------------------------------------------------------------------------------------
// The document under construction

class Builder {
  readonly #book: CitationBook;
  readonly #choices: ReadonlyMap<string, ValueChoice>;
  readonly answers: Answers;
  /** Summary limitations about one field (`living_area_sqft: …`), by field. */
  readonly fieldLimitations = new Map<string, string>();
  /** Summary limitations not about one field. */
  readonly generalLimitations: string[] = [];

  constructor(answers: Answers, choices: readonly ValueChoice[], book: CitationBook) {
    this.answers = answers;
    this.#book = book;
    this.#choices = new Map(choices.map((choice) => [choice.field, choice]));
    for (const line of strings(answers.summary?.limitations)) {
      const match = /^([a-z][a-z0-9_]*): (.+)$/.exec(line);
      if (match?.[1] && match[2]) this.fieldLimitations.set(match[1], match[2]);
      else this.generalLimitations.push(line);
    }
  }

  cite(citation: CitationFields): string {
    return this.#book.cite(citation);
  }

  citationIds(citations: readonly CitationFields[]): string[] {
    return this.#book.citationIds(citations);
  }

  allCitations(): Citation[] {
    return this.#book.all();
  }

  /**
   * A section's limitations, each cited to the source it is about: a source of the answer the sentence
   * names by id, else the section's sources (`sourcesOf`). A sentence about no source (nothing bought,
   * an error answer) is given none.
   */
  limitations(lines: readonly string[], sources: readonly CitationFields[]): Limitation[] {
    return lines.map((line) => {
      const named = namedSources(this.answers, line);
      return { text: line, citationIds: this.citationIds(named.length > 0 ? named : sources) };
    });
  }

  /** One cited value from every source's candidate for the field, or an unavailable value saying why. */
  value(field: string, label: string, candidates: ReadonlyArray<Candidate | null>, unavailableBecause: string): CitedValue {
    const present = candidates.filter((c): c is Candidate => c !== null);
    if (present.length === 0) return unavailable(field, label, unavailableBecause);
    const appraiser = this.#choices.get(field);
    const resolution = resolveCandidates(present, appraiser ? { alternativeKey: appraiser.alternativeKey, reason: appraiser.reason, at: appraiser.at } : null);
    const { chosen } = resolution;
    const caveats = [chosen.note, resolution.staleChoice].filter((c): c is string => c !== null);
    return {
      field,
      label,
      raw: chosen.raw,
      display: chosen.display,
      status: chosen.status,
      citationIds: this.citationIds(chosen.citations),
      derivedFrom: chosen.status === 'reported' ? null : chosen.derivedFrom,
      limitation: caveats.length > 0 ? caveats.join(' ') : null,
      alternatives: resolution.alternatives.map((alternative) => alternativeOf(alternative, this.citationIds(alternative.citations))),
      choice: resolution.choice,
    };
  }

  /** A field from the v3 section and the summary together. */
  field(sectionId: string, section: Json | null, spec: FieldSpec, context: FieldContext, extra: Candidate[] = []): CitedValue {
    const fromReport = v3Value(section, spec.key, spec.numeric ?? false, context.refs, context.status);
    const candidates: Array<Candidate | null> = [fromReport ? candidateFromV3(this.answers, spec, fromReport, 0) : null];
    const summaryEntry = spec.summary ? this.answers.summary?.[spec.summary] : undefined;
    if (isRecord(summaryEntry)) {
      candidates.push(candidateFromSummary(this.answers, spec, summaryEntry, 1));
      if (Array.isArray(summaryEntry.alternatives)) {
        for (const alternative of summaryEntry.alternatives) if (isRecord(alternative)) candidates.push(candidateFromSummary(this.answers, spec, alternative, 2));
      }
    }
    candidates.push(...extra);
    const why =
      fromReport?.limitation ??
      context.sectionReason ??
      (spec.summary ? this.fieldLimitations.get(spec.summary) : undefined) ??
      (fromReport && fromReport.raw !== null && fromReport.refs.length === 0 ? 'The answer gives this value without citing a record, so it is not shown as a fact.' : undefined) ??
      context.missing;
    return this.value(`${sectionId}.${spec.key}`, spec.label, candidates, why);
  }
}

interface FieldContext {
  /** The section's records, for values that are not cells with their own. */
  refs: string[];
  /** The status of values that do not carry their own. */
  status: unknown;
  /** Why a value is missing when nothing more specific is said. */
  missing: string;
  /** Why the whole section is unavailable, in the service's words (before any per-field reason). */
  sectionReason?: string;
}

/** The context of a v3 section's fields: its refs, its status, and why it is missing when it is. */
function contextOf(ctx: SectionContext, section: Json | null, refs: string[], fallback = 'Not in the subject report.'): FieldContext {
  const unavailableSection = section?.status === 'unavailable' || section?.availability === 'unavailable';
  const reason = unavailableSection ? strings(section?.limitations)[0] : undefined;
  return { refs, status: section?.status, missing: missingText(ctx, fallback), ...(reason ? { sectionReason: reason } : {}) };
}

function unavailable(field: string, label: string, why: string): CitedValue {
  return { field, label, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: why, alternatives: [], choice: null };
}

function sectionOf(id: string, title: string, values: CitedValue[], limitations: Limitation[], tables: ReportTable[] = [], forcedUnavailable = false): ReportSection {
  const cells = [...values, ...tables.flatMap((table) => table.rows.flatMap((row) => Object.values(row)))];
  const statuses = new Set<ValueStatus>(cells.map((value) => value.status));
  const status =
    forcedUnavailable || cells.length === 0 || (statuses.size === 1 && statuses.has('unavailable'))
      ? 'unavailable'
      : statuses.has('unavailable') || statuses.has('synthetic')
        ? 'partial'
        : 'available';
  return { id, title, status, limitations: onceEach(limitations), values, tables };
}

/** Each sentence once (the answer repeats some), with the citations of every place it came from. */
function onceEach(limitations: readonly Limitation[]): Limitation[] {
  const byText = new Map<string, Limitation>();
  for (const limitation of limitations) {
    const seen = byText.get(limitation.text);
    if (seen) seen.citationIds = [...new Set([...seen.citationIds, ...limitation.citationIds])];
    else byText.set(limitation.text, { text: limitation.text, citationIds: [...limitation.citationIds] });
  }
  return [...byText.values()];
}

// ---------------------------------------------------------------------------------------------
// Sections

const IDENTITY_FIELDS: FieldSpec[] = [
  { key: 'address', label: 'Address', format: 'address', summary: 'address' },
  { key: 'ssl', label: 'SSL (square, suffix, lot)', format: 'ssl' },
  { key: 'account_no', label: 'Account number', format: 'account_no' },
  {
    key: 'property_type',
    label: 'Property type',
    format: 'property_type',
    derivedFrom: "the service's classification of the property's identifier (lot number, SSL prefix or parcel layer)",
  },
  { key: 'use_code', label: 'Use code', format: 'use_code', summary: 'use_code' },
  { key: 'land_use', label: 'Land use', format: 'land_use' },
  { key: 'zoning', label: 'Zoning', format: 'zoning' },
  { key: 'neighborhood', label: 'Assessment neighborhood', format: 'neighborhood' },
  { key: 'sub_neighborhood', label: 'Sub-neighborhood', format: 'sub_neighborhood' },
  { key: 'homestead', label: 'Homestead', format: 'homestead' },
];

const BUILDING_FIELDS: FieldSpec[] = [
  { key: 'building_type', label: 'Building type', format: 'building_type' },
  { key: 'style', label: 'Style', format: 'style' },
  { key: 'year_built', label: 'Year built', format: 'year_built', summary: 'year_built', numeric: true },
  { key: 'effective_year_built', label: 'Effective year built', format: 'effective_year_built', numeric: true },
  { key: 'year_remodeled', label: 'Year remodeled', format: 'year_remodeled', numeric: true },
  { key: 'gross_area_sqft', label: 'Gross building area', format: 'gross_area_sqft', summary: 'gross_area_sqft', numeric: true },
  { key: 'living_area_sqft', label: 'Living area', format: 'living_area_sqft', summary: 'living_area_sqft', numeric: true },
  { key: 'stories', label: 'Stories', format: 'stories', numeric: true },
  { key: 'rooms', label: 'Rooms', format: 'rooms', numeric: true },
  { key: 'bedrooms', label: 'Bedrooms', format: 'bedrooms', summary: 'bedrooms', numeric: true },
  { key: 'full_bathrooms', label: 'Full bathrooms', format: 'full_bathrooms', summary: 'full_bathrooms', numeric: true },
  { key: 'half_bathrooms', label: 'Half bathrooms', format: 'half_bathrooms', summary: 'half_bathrooms', numeric: true },
  { key: 'condition', label: 'Condition', format: 'condition' },
  { key: 'grade', label: 'Grade', format: 'grade' },
];
/** Shown (as unavailable when no source has them) whatever the answer holds: an appraiser looks for these. */
const BUILDING_ALWAYS = new Set(['year_built', 'gross_area_sqft', 'living_area_sqft', 'bedrooms', 'full_bathrooms', 'half_bathrooms']);

const NOT_BOUGHT = 'Not bought yet: the subject report (report_subject_v1) answers this.';

interface SectionContext {
  b: Builder;
  item: Json | null;
  sections: Json;
  /** Why an answer that was kept cannot be read: about no source, so cited to none. */
  problems: string[];
  /** The subject item's own limitations (about the property as a whole). */
  itemLimitations: string[];
}

/** What a section says it lacks, cited to the section's sources; "not bought yet" when the subject report is not. */
const sectionLimitations = (ctx: SectionContext, section: Json | null, lines: readonly string[]): Limitation[] =>
  ctx.item ? ctx.b.limitations(lines, sourcesOf(ctx.b.answers, section)) : ctx.b.limitations([NOT_BOUGHT], []);

const sectionJson = (ctx: SectionContext, id: string): Json | null => (isRecord(ctx.sections[id]) ? (ctx.sections[id] as Json) : null);
const missingText = (ctx: SectionContext, fallback: string) => (ctx.item ? fallback : NOT_BOUGHT);

function identitySection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const identity = sectionJson(ctx, 'identity');
  const refs = strings(identity?.source_refs);
  const values: CitedValue[] = [];
  for (const spec of IDENTITY_FIELDS) {
    const inReport = identity !== null && spec.key in identity;
    const inSummary = spec.summary !== undefined && b.answers.summary !== null && spec.summary in b.answers.summary;
    // Identifiers the property does not have (an SSL in Alexandria, an account number in DC) are left out.
    if (!inReport && !inSummary && spec.key !== 'address') continue;
    const isClassification = spec.key === 'property_type';
    values.push(
      b.field('identity', identity, spec, {
        refs,
        // The property type is the service's reading of the identifier, not a published column.
        // (The section's own `status` is the entity's, "active", not a value status.)
        status: isClassification ? 'derived' : 'reported',
        missing: missingText(ctx, 'Not in the subject report.'),
      }),
    );
  }
  values.push(locationValue(ctx));
  // The answers' notes about the property as a whole are printed here, cited to what identifies it (and locates it).
  const sources = sourcesOf(b.answers, identity, ctx.item?.location);
  const limitations = [...b.limitations(ctx.problems, []), ...b.limitations([...ctx.itemLimitations, ...b.generalLimitations], sources)];
  return sectionOf('identity', 'Identity', values, limitations);
}

const PRECISION_WORDS: Record<string, string> = {
  square_centroid: 'the centroid of the tax square (DC GIS square points), not the lot itself: a median of about 100 m from the lot',
  address_point: "the address point matched to the property's address",
  permit_point: "the point of a building permit at the property's address",
  cama_point: 'the point of the CAMA record',
};

function locationValue(ctx: SectionContext): CitedValue {
  const { b } = ctx;
  const location = isRecord(ctx.item?.location) ? (ctx.item.location as Json) : null;
  const lat = location?.latitude;
  const lon = location?.longitude;
  if (!location || typeof lat !== 'number' || typeof lon !== 'number') {
    return unavailable('identity.location', 'Location', missingText(ctx, 'The subject report gives no location for this property.'));
  }
  const precision = text(location.precision);
  const citations = strings(location.source_refs).map((ref) => citationForRef(b.answers, ref));
  const status = statusOf(location.status, citations, true);
  if (status === 'unavailable' || citations.length === 0) {
    return unavailable('identity.location', 'Location', 'The subject report gives a location without citing where it comes from.');
  }
  // Coordinates are always located by Plat or the service (matched, or a centroid): derived, never "as published".
  const candidate: Candidate = {
    key: keyFor(citations, `${lat},${lon}`, 'location'),
    raw: `${lat}, ${lon}`,
    display: `${lat.toFixed(6)}, ${lon.toFixed(6)}`,
    status,
    citations: citationsFor(status, citations),
    derivedFrom: precision ? (PRECISION_WORDS[precision] ?? `located by ${humanizeCode(precision)}`) : 'the cited record\'s location',
    note: precision === 'square_centroid' ? 'Approximate.' : null,
    rank: 0,
  };
  return b.value('identity.location', 'Location', [candidate], '');
}

function ownershipSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'ownership');
  const context = contextOf(ctx, section, strings(section?.source_refs));
  const values = [
    b.field('ownership', section, { key: 'owner_name', label: 'Owner of record', format: 'owner_name', summary: 'owner_name' }, context),
    b.field('ownership', section, { key: 'owner_name_2', label: 'Second owner', format: 'owner_name_2' }, context),
    b.field('ownership', section, { key: 'ownership_form', label: 'Form of ownership', format: 'ownership_form' }, context),
  ];
  return sectionOf('ownership', 'Ownership', values, b.limitations(strings(section?.limitations), sourcesOf(b.answers, section)));
}

function assessmentSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'assessment');
  const totalCell = isRecord(section?.total_value_dollars) ? section.total_value_dollars : null;
  const context = contextOf(ctx, section, strings(totalCell?.source_refs));
  const total = b.field('assessment', section, { key: 'total_value_dollars', label: 'Total assessed value', format: 'assessed_value_dollars', summary: 'assessed_value_dollars', numeric: true }, context);
  const basis = text(section?.basis);
  if (basis && basis !== 'unavailable' && total.status !== 'unavailable') total.limitation = [total.limitation, `Basis: ${basis}.`].filter(Boolean).join(' ');
  const values = [
    b.field('assessment', section, { key: 'assessment_year', label: 'Assessment year', format: 'assessment_year', numeric: true }, context),
    total,
    b.field('assessment', section, { key: 'land_value_dollars', label: 'Land value', format: 'land_value_dollars', numeric: true }, context),
    b.field('assessment', section, { key: 'improvement_value_dollars', label: 'Improvement value', format: 'improvement_value_dollars', numeric: true }, context),
  ];
  const dataDate = text(section?.data_date);
  const lines = [...strings(section?.limitations), ...(dataDate ? [`Data as of ${formatDay(dataDate)}.`] : [])];
  const limitations = b.limitations(lines, sourcesOf(b.answers, section));
  return sectionOf('assessment', 'Assessment', values, limitations, [], section?.status === 'unavailable' && !values.some((v) => v.status !== 'unavailable'));
}

function taxSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'tax');
  const context = contextOf(ctx, section, strings(section?.source_refs));
  const values = [
    b.field('tax', section, { key: 'tax_period', label: 'Tax period', format: 'tax_period' }, context),
    b.field('tax', section, { key: 'annual_tax_dollars', label: 'Annual tax', format: 'annual_tax_dollars', numeric: true }, context),
    b.field('tax', section, { key: 'reported_balance_dollars', label: 'Reported balance', format: 'reported_balance_dollars', numeric: true }, context),
  ];
  return sectionOf('tax', 'Tax', values, sectionLimitations(ctx, section, strings(section?.limitations)));
}

function transferSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'transfer');
  const context = contextOf(ctx, section, strings(section?.source_refs), 'No recorded sale for this property in the subject report.');
  const saleDate = b.field('transfer', section, { key: 'sale_date', label: 'Last sale date', format: 'last_sale_date', summary: 'last_sale_date' }, context);
  const price = b.field('transfer', section, { key: 'price_dollars', label: 'Last sale price', format: 'last_sale_price_dollars', summary: 'last_sale_price_dollars', numeric: true }, context);
  // Both are the service's reading of the record (the roll's last sale; a price of 0): derived, from its stated basis.
  const saleType = b.field(
    'transfer',
    section,
    { key: 'sale_type', label: 'Sale type', format: 'sale_type', derivedFrom: 'the kind of record the sale comes from' },
    { ...context, status: 'derived' },
  );
  const acceptance = b.field(
    'transfer',
    section,
    { key: 'acceptance_code', label: 'Market or not', format: 'acceptance_code', derivedFrom: text(section?.acceptance_basis) ?? 'the recorded price' },
    { ...context, status: 'derived' },
  );
  const values = [saleDate, price, saleType, acceptance];
  // Plat's own sentences about the source (its date, that it gives one sale) cite it like the service's.
  const lines = strings(section?.limitations);
  const dataDate = text(section?.data_date);
  if (dataDate) lines.push(`Data as of ${formatDay(dataDate)}.`);
  const tables: ReportTable[] = [];
  const prior = priorSalesTable(ctx, section);
  if (prior) tables.push(prior);
  else if (text(section?.sale_type) === 'last_recorded_sale') lines.push('The source gives the last recorded sale only: earlier transfers are not in the answer.');
  return sectionOf('transfer', 'Transfer and prior sales', values, b.limitations(lines, sourcesOf(b.answers, section)), tables);
}

/** Earlier sales when the answer lists them (`prior_sales`): one row each, every cell cited. */
function priorSalesTable(ctx: SectionContext, section: Json | null): ReportTable | null {
  const rows = Array.isArray(section?.prior_sales) ? section.prior_sales.filter(isRecord) : [];
  if (rows.length === 0) return null;
  const { b } = ctx;
  const specs: FieldSpec[] = [
    { key: 'sale_date', label: 'Date', format: 'sale_date' },
    { key: 'price_dollars', label: 'Price', format: 'last_sale_price_dollars', numeric: true },
    { key: 'sale_type', label: 'Type', format: 'sale_type' },
  ];
  return {
    id: 'prior-sales',
    title: 'Prior sales',
    columns: specs.map((spec) => ({ key: spec.key, label: spec.label })),
    rows: rows.map((row, index) => {
      const cells: Record<string, CitedValue> = {};
      const refs = strings(row.source_refs);
      for (const spec of specs) {
        const value = v3Value(row, spec.key, spec.numeric ?? false, refs, row.status);
        cells[spec.key] = b.value(
          `transfer.prior.${index}.${spec.key}`,
          spec.label,
          [value ? candidateFromV3(b.answers, spec, value, 0) : null],
          value?.limitation ?? 'Not given for this sale.',
        );
      }
      return cells;
    }),
    note: null,
  };
}

function permitEvidence(ctx: SectionContext): PermitEvidence[] {
  const permits = sectionJson(ctx, 'permit');
  const records = Array.isArray(permits?.records) ? permits.records.filter(isRecord) : [];
  return records.flatMap((record) => {
    const number = text(record.record_number);
    const refs = strings(record.source_refs);
    if (!number || refs.length === 0) return [];
    const date = text(record.record_date);
    return [{
      recordNumber: number,
      recordType: text(record.record_type),
      description: text(record.description),
      date: date ? formatDay(date) : null,
      citations: refs.map((ref) => citationForRef(ctx.b.answers, ref)),
    }];
  });
}

function buildingSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'building') ?? (isRecord(ctx.item?.characteristics) ? (ctx.item.characteristics as Json) : null);
  const profileLimitation = strings(section?.limitations).join(' ') || null;
  const profileDerivedFrom = derivedFromText(section?.derived_from);
  // A profile's fields share its status, records and (for a synthetic profile) the record it was copied from.
  const profile: Json | null = section
    ? Object.fromEntries(
        BUILDING_FIELDS.filter((spec) => spec.key in section).map((spec) => [
          spec.key,
          isRecord(section[spec.key])
            ? section[spec.key]
            : { value: section[spec.key], status: section.status, source_refs: section.source_refs, derived_from: section.derived_from },
        ]),
      )
    : null;
  const permits = permitEvidence(ctx);
  const missing = section?.status === 'unavailable' ? (profileLimitation ?? 'No building characteristics in the sample.') : missingText(ctx, 'Not published by any source in the answer.');
  const values: CitedValue[] = [];
  for (const spec of BUILDING_FIELDS) {
    const inSummary = spec.summary !== undefined && b.answers.summary !== null && spec.summary in b.answers.summary;
    if (!(profile && spec.key in profile) && !inSummary && !BUILDING_ALWAYS.has(spec.key)) continue;
    const extra: Candidate[] = [];
    if (spec.key === 'year_built') {
      const current = v3Value(profile, 'year_built', true, [], section?.status);
      const summaryYear = isRecord(b.answers.summary?.year_built) ? b.answers.summary.year_built.value : null;
      const year = typeof current?.raw === 'number' ? current.raw : typeof summaryYear === 'number' ? summaryYear : null;
      const fromPermit = year !== null ? yearBuiltFromPermits(permits, year, 3) : null;
      if (fromPermit) extra.push(fromPermit);
    }
    const sectionReason = section?.status === 'unavailable' ? missing : undefined;
    values.push(b.field('building', profile, spec, { refs: [], status: section?.status, missing, ...(sectionReason ? { sectionReason } : {}) }, extra));
  }
  for (const value of values) {
    if (value.status === 'synthetic' && value.derivedFrom === null && profileDerivedFrom) value.derivedFrom = profileDerivedFrom;
  }
  const limitations = b.limitations(profileLimitation ? [profileLimitation] : [], sourcesOf(b.answers, section));
  return sectionOf('building', 'Building', values, ctx.item ? limitations : [...b.limitations([NOT_BOUGHT], []), ...limitations]);
}

function landSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'land');
  const context = contextOf(ctx, section, strings(section?.source_refs));
  const values = [b.field('land', section, { key: 'land_area_square_feet', label: 'Land area', format: 'land_area_sqft', summary: 'land_area_sqft', numeric: true }, context)];
  return sectionOf('land', 'Land', values, b.limitations(strings(section?.limitations), sourcesOf(b.answers, section)));
}

const PERMIT_COLUMNS: FieldSpec[] = [
  { key: 'record_number', label: 'Permit', format: 'record_number' },
  { key: 'record_type', label: 'Type', format: 'record_type' },
  { key: 'status', label: 'Status', format: 'status' },
  { key: 'record_date', label: 'Issued', format: 'record_date' },
  { key: 'description', label: 'Work', format: 'description' },
  { key: 'link', label: 'Tied to the property by', format: 'link' },
];

function permitsSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'permit');
  const records = Array.isArray(section?.records) ? section.records.filter(isRecord) : [];
  const limitations = sectionLimitations(ctx, section, strings(section?.limitations));
  const availability = text(section?.availability);
  const rows = records.map((record, index) => {
    const id = text(record.record_number) ?? String(index + 1);
    const refs = strings(record.source_refs);
    const cells: Record<string, CitedValue> = {};
    for (const spec of PERMIT_COLUMNS) {
      const field = `permit.${id}.${spec.key}`;
      if (spec.key === 'link') {
        const method = text(record.link_method);
        const confidence = typeof record.link_confidence === 'number' ? record.link_confidence : null;
        const citations = refs.map((ref) => citationForRef(b.answers, ref));
        const candidate: Candidate | null =
          method && citations.length > 0
            ? {
                key: `link:${id}`,
                raw: method,
                display: `${humanizeCode(method)}${confidence !== null && confidence < 1 ? ` (confidence ${confidence})` : ''}`,
                status: 'derived',
                citations,
                derivedFrom: `the permit's ${method === 'ssl_match' ? 'SSL' : method === 'address_match' ? 'address' : 'record'}, matched by the service`,
                note: null,
                rank: 0,
              }
            : null;
        cells[spec.key] = b.value(field, spec.label, [candidate], 'The answer does not say how this permit was tied to the property.');
        continue;
      }
      const value = v3Value(record, spec.key, false, refs, 'reported');
      cells[spec.key] = b.value(field, spec.label, [value ? candidateFromV3(b.answers, spec, value, 0) : null], 'Not given for this permit.');
    }
    return cells;
  });
  const total = typeof section?.total_count === 'number' ? section.total_count : records.length;
  const note =
    availability === 'unavailable'
      ? null
      : records.length === 0
        ? 'No permits for this property in the answer.'
        : section?.has_more === true || total > records.length
          ? `${records.length} of ${total} permits shown.`
          : `${records.length} permit${records.length === 1 ? '' : 's'}.`;
  const tables: ReportTable[] = ctx.item && availability !== 'unavailable' ? [{ id: 'permits', title: 'Building permits', columns: PERMIT_COLUMNS.map(({ key, label }) => ({ key, label })), rows, note }] : [];
  // No permits where the dataset covers the property is a finding, not a gap: the section is available.
  const section_ = sectionOf('permits', 'Permits', [], limitations, tables, !ctx.item || availability === 'unavailable');
  if (ctx.item && availability !== 'unavailable' && records.length === 0) section_.status = 'available';
  return section_;
}

// ---------------------------------------------------------------------------------------------
// The document

export function buildSubjectReport(input: SubjectReportInput): ReportDocument {
  const answers = readAnswers(input.subject, input.summary);
  // One book for the subject's sections and the comparables: a source both cite is one endnote.
  const book = new CitationBook();
  const b = new Builder(answers, input.choices, book);
  const item = answers.item;
  const ctx: SectionContext = {
    b,
    item,
    sections: isRecord(item?.sections) ? (item.sections as Json) : {},
    problems: answers.problems,
    itemLimitations: strings(item?.limitations),
  };
  const sections = [
    identitySection(ctx),
    ownershipSection(ctx),
    assessmentSection(ctx),
    taxSection(ctx),
    transferSection(ctx),
    buildingSection(ctx),
    landSection(ctx),
    permitsSection(ctx),
  ];
  const { details } = input.assignment;
  const useCode = sections[0]?.values.find((value) => value.field === 'identity.use_code');
  const subjectUseCode = useCode && useCode.status !== 'unavailable' && useCode.raw !== null ? String(useCode.raw) : null;
  const started = input.comparables && comparablesStarted(input.comparables.workfile) ? input.comparables : null;
  const comparables = started
    ? comparablesSection(
        analyzeComparables({ subjectEnvelope: input.subject, pages: started.pages, workfile: started.workfile, effectiveDate: details.effectiveDate, subjectUseCode }, book),
        started.workfile,
        { subjectUseCode },
      )
    : null;
  const ownerValue = sections[1]?.values.find((value) => value.field === 'ownership.owner_name');
  const sslValue = sections[0]?.values.find((value) => value.field === 'identity.ssl');
  // After the comparables, in the same book: a record the sections cite is the same endnote here.
  const titleResearch = input.titleResearch
    ? titleResearchSection(
        input.titleResearch,
        {
          subjectRef: details.subjectRef,
          owner: ownerValue && ownerValue.status !== 'unavailable' ? ownerValue : null,
          ssl: sslValue && sslValue.status !== 'unavailable' && typeof sslValue.raw === 'string' ? sslValue.raw : null,
        },
        book.cite,
      )
    : null;
  const citations = numberInOrderOfUse(
    sections,
    [...(comparables ? comparablesCitationOrder(comparables) : []), ...(titleResearch ? titleResearchCitationOrder(titleResearch) : [])],
    b.allCitations(),
  );
  const address = sections[0]?.values.find((value) => value.field === 'identity.address');
  return {
    kind: 'subject-report',
    version: 1,
    assignmentId: input.assignment.id,
    cover: {
      title: 'Subject report',
      subjectLabel: details.subjectLabel.trim() || (address && address.status !== 'unavailable' ? address.display : details.subjectRef),
      subjectRef: details.subjectRef,
      effectiveDate: details.effectiveDate,
      assignmentName: input.assignment.name,
      intendedUse: details.intendedUse,
      client: details.client,
      reference: details.reference,
      generatedAt: input.generatedAt,
      dataAsOf: dataAsOf(citations),
    },
    sections,
    comparables,
    titleResearch,
    citations,
    queryLog: [...input.queryLog].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
    spend: { totalMicroUsd: input.spentMicroUsd, capMicroUsd: input.assignment.capMicroUsd },
    missing: missingSources(input, answers),
  };
}

/** The endnotes: every citation a printed value or limitation uses, numbered in the order a reader meets them. */
function numberInOrderOfUse(sections: readonly ReportSection[], after: readonly string[], all: readonly Citation[]): ReportDocument['citations'] {
  const byId = new Map(all.map((citation) => [citation.id, citation]));
  const order: string[] = [];
  const use = (ids: readonly string[]) => {
    for (const id of ids) if (!order.includes(id)) order.push(id);
  };
  const visit = (value: CitedValue) => {
    use(value.citationIds);
    for (const alternative of value.alternatives) use(alternative.citationIds);
  };
  for (const section of sections) {
    // A section prints its limitations under its heading, before its values.
    for (const limitation of section.limitations) use(limitation.citationIds);
    section.values.forEach(visit);
    for (const table of section.tables) for (const row of table.rows) for (const column of table.columns) if (row[column.key]) visit(row[column.key]!);
  }
  // The comparables section, then the title research, print after the subject's sections.
  use(after);
  return order.flatMap((id, index) => {
    const citation = byId.get(id);
    return citation ? [{ ...citation, number: index + 1 }] : [];
  });
}

/** Each source once, with its as-of date: "DC Office of Tax and Revenue, Real Property Tax Database…: as of 2017-02-05". */
function dataAsOf(citations: ReportDocument['citations']): string[] {
  const lines: string[] = [];
  for (const citation of citations) {
    if (citation.publisher === null) continue;
    const line = `${citation.publisher}${citation.dataset ? `, ${citation.dataset}` : ''}: ${citation.asOf ? `as of ${formatDay(citation.asOf)}` : 'undated'}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

function missingSources(input: SubjectReportInput, answers: Answers): MissingSource[] {
  const { subjectRef, subjectLabel } = input.assignment.details;
  const label = subjectLabel.trim() || subjectRef;
  const missing: MissingSource[] = [];
  if (answers.item === null) {
    missing.push({
      ipcOperation: 'queryRecords',
      request: { request: subjectReportParts(subjectRef) },
      label: `Subject report for ${label}`,
      expectedCostMicroUsd: input.prices.subjectReportMicroUsd,
    });
  }
  if (answers.summary === null) {
    missing.push({
      ipcOperation: 'getEntitySummary',
      request: { request: subjectSummaryParts(subjectRef) },
      label: `Summary of ${label} (best values and alternatives)`,
      expectedCostMicroUsd: input.prices.summaryMicroUsd,
    });
  }
  return missing;
}
