// The document under construction: one citation book, the appraiser's choices, and the helpers
// every section builds its values, tables and limitations with.
import type { ValueChoice } from '../../ipc.ts';
import type { CitationFields } from '../../cited/citation.ts';
import type { CitationBook } from '../../cited/citation-book.ts';
import { alternativeOf, resolveCandidates, type Candidate } from '../conflicts.ts';
import type { ReportSection, ReportTable } from '../document.ts';
import type { Citation, CitedValue, Limitation, ValueStatus } from '../../cited/value.ts';
import { isRecord } from '../../json-data.ts';
import { namedSources, sourcesOf, strings, type Answers, type Json } from './answers.ts';
import { fieldCandidates, type FieldSpec } from './fields.ts';
import type { SubjectContradiction } from '../../comparables/subject/contradictions.ts';

export class Builder {
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
    const gathered = fieldCandidates(this.answers, section, spec, context.refs, context.status);
    const fromReport = gathered.fromReport;
    const candidates: Candidate[] = [...gathered.candidates];
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
export function contextOf(ctx: SectionContext, section: Json | null, refs: string[], fallback = 'Not in the subject report.'): FieldContext {
  const unavailableSection = section?.status === 'unavailable' || section?.availability === 'unavailable';
  const reason = unavailableSection ? strings(section?.limitations)[0] : undefined;
  return { refs, status: section?.status, missing: missingText(ctx, fallback), ...(reason ? { sectionReason: reason } : {}) };
}

export function unavailable(field: string, label: string, why: string): CitedValue {
  return { field, label, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: why, alternatives: [], choice: null };
}

export function sectionOf(id: string, title: string, values: CitedValue[], limitations: Limitation[], tables: ReportTable[] = [], forcedUnavailable = false): ReportSection {
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

export const NOT_BOUGHT = 'Not bought yet: the subject report (report_subject_v1) answers this.';

export interface SectionContext {
  b: Builder;
  item: Json | null;
  sections: Json;
  /** Why an answer that was kept cannot be read: about no source, so cited to none. */
  problems: string[];
  /** The subject item's own limitations (about the property as a whole). */
  itemLimitations: string[];
  /** What the subject's answers say against each other (the resolved subject's), printed under Building. */
  contradictions?: readonly SubjectContradiction[];
}

/** What a section says it lacks, cited to the section's sources; "not bought yet" when the subject report is not. */
export const sectionLimitations = (ctx: SectionContext, section: Json | null, lines: readonly string[]): Limitation[] =>
  ctx.item ? ctx.b.limitations(lines, sourcesOf(ctx.b.answers, section)) : ctx.b.limitations([NOT_BOUGHT], []);

export const sectionJson = (ctx: SectionContext, id: string): Json | null => (isRecord(ctx.sections[id]) ? (ctx.sections[id] as Json) : null);
export const missingText = (ctx: SectionContext, fallback: string) => (ctx.item ? fallback : NOT_BOUGHT);
