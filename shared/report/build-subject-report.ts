// The subject report document, built from the answers an assignment keeps: the v3 report_subject_v1
// envelope (the sections) and the v4 summary envelope (best values, alternatives, citations with
// the publisher's column and method). Pure: the same answers, choices and time give the same document.
//
// The rules it keeps (each tested): every value has a citation or says it is unavailable and why; a
// synthetic value is cited to the synthetic sample, never to a real publisher; a value the service
// derived, normalised or located approximately is `derived` and says from what, never "as published";
// where sources disagree the value carries the alternatives and why one was chosen.
//
// The subject's sections are built in subject/ (reading the answers, the fields' candidates, the
// document under construction, the sections); this file assembles the document around them.
import type { AssignmentDetails, ValueChoice } from '../ipc.ts';
import type { ComparablesWorkfile } from '../comparables/model.ts';
import { formatDay } from '../format-date.ts';
import type { ComparablesSection, MissingSource, QueryLogEntry, ReportDocument, ReportSection } from './document.ts';
import type { Citation } from '../cited/value.ts';
import { subjectReportParts, subjectSummaryParts } from './document.ts';
import { CitationBook } from '../cited/citation-book.ts';
import { documentCitation, type CitationFields } from '../cited/citation.ts';
import { citationOrder } from '../cited/citation-order.ts';
import { analyzeComparables } from '../comparables/analysis.ts';
import { comparablesCitationOrder, comparablesSection, comparablesStarted } from './comparables-section.ts';
import { analyzeMarket, type MarketAnalysis } from '../market/analysis.ts';
import { marketCitationOrder, marketReport } from './market-section.ts';
import { adjustedPricesChart } from '../charts/comparables-charts.ts';
import { priceSizeChart } from '../charts/price-size-chart.ts';
import type { ComparablesAnalysis } from '../comparables/model.ts';
import { titleResearchCitationOrder, titleResearchSection, type TitleResearchInput } from './title-research-section.ts';
import { isRecord } from '../json-data.ts';
import { reportChoicesOf, resolveFromAnswers } from '../comparables/subject/resolve.ts';
import { readAnswers, strings, type Answers, type Json } from './subject/answers.ts';
import { Builder, type SectionContext } from './subject/builder.ts';
import {
  assessmentSection,
  buildingSection,
  identitySection,
  landSection,
  ownershipSection,
  permitsSection,
  taxSection,
  transferSection,
} from './subject/sections.ts';

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
  /** Each null when its price is not known on the connection. */
  prices: { subjectReportMicroUsd: number | null; summaryMicroUsd: number | null };
  /**
   * The assignment's comparables: its saved workfile and the kept v3 report_comparables_v1 envelopes
   * of its last search, page by page (a page not kept is absent); null when no search was run.
   */
  comparables?: { workfile: ComparablesWorkfile; pages: unknown[]; lotAnswers?: unknown[]; /** The market-sales search's kept pages (market conditions). */ marketPages?: unknown[] } | null;
  /** The appraiser's choices of the subject's characteristics (the comparables workfile's `subjectChoices`), kept whether or not a search was run; else the comparables workfile's. */
  subjectChoices?: ComparablesWorkfile['subjectChoices'];
  /** Who the appraiser's figures (rates, lump sums, the indicated value) are cited to: the report's signer; "The appraiser" when not known. */
  appraiser?: string;
  /**
   * The answers of title research the assignment keeps (graph traversals and connected calls, entity
   * records, owner searches, record searches; each with its request parts) and the researcher's
   * decisions on links; null or absent when there are none.
   */
  titleResearch?: TitleResearchInput | null;
  /**
   * Set when some of the answers above came in a workfile, not from a purchase: the sentence saying
   * where from (shared/workfile/received.ts) and the labels of those answers. Every citation's note
   * then says it, since the file's word is all that stands behind its values.
   */
  received?: { note: string; text: string; answers: string[] } | null;
}

// ---------------------------------------------------------------------------------------------
// The document

export function buildSubjectReport(input: SubjectReportInput): ReportDocument {
  const answers = readAnswers(input.subject, input.summary);
  // One book for the subject's sections and the comparables: a source both cite is one endnote.
  const book = new CitationBook();
  // The appraiser's choices of the subject's characteristics are kept in the comparables workfile and
  // apply here as everywhere (shared/comparables/subject/); they replace a report choice of the same field.
  const subjectChoices = input.subjectChoices ?? input.comparables?.workfile.subjectChoices;
  const workfileChoices = reportChoicesOf(subjectChoices);
  const choices = [...input.choices.filter((choice) => !workfileChoices.some((c) => c.field === choice.field)), ...workfileChoices];
  const b = new Builder(answers, choices, book);
  const item = answers.item;
  const resolved = resolveFromAnswers(answers, input.assignment.details.effectiveDate, subjectChoices);
  const ctx: SectionContext = {
    b,
    item,
    sections: isRecord(item?.sections) ? (item.sections as Json) : {},
    problems: answers.problems,
    itemLimitations: strings(item?.limitations),
    contradictions: resolved.contradictions,
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
  const analysis = started
    ? analyzeComparables({ subjectEnvelope: input.subject, subjectSummary: input.summary, pages: started.pages, lotAnswers: started.lotAnswers ?? [], workfile: started.workfile, effectiveDate: details.effectiveDate, subjectUseCode, appraiser: input.appraiser }, book)
    : null;
  const comparables =
    started && analysis
      ? withMarket(
          comparablesSection(analysis, started.workfile, { subjectUseCode }),
          analysis,
          analyzeMarket(
            { subjectEnvelope: input.subject, marketPages: started.marketPages ?? [], compsPages: started.pages, workfile: started.workfile, effectiveDate: details.effectiveDate, subjectUseCode },
            book,
          ),
          started.workfile,
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
  const received = input.received ?? null;
  const citations = numberInOrderOfUse(
    sections,
    [
      ...(comparables ? comparablesCitationOrder(comparables) : []),
      ...(comparables?.market ? marketCitationOrder(comparables.market) : []),
      ...(titleResearch ? titleResearchCitationOrder(titleResearch) : []),
    ],
    b.allCitations(),
  ).map((citation) => (received ? { ...citation, note: [citation.note, received.note].filter((note) => note !== null).join(' ') } : citation));
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
      dataAsOf: dataAsOf([...citations, ...[...answers.sources.values()].map((view) => documentCitation({ ...view, recordRef: null, extra: {} }))]),
    },
    sections,
    comparables,
    titleResearch,
    citations,
    queryLog: [...input.queryLog].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
    spend: { totalMicroUsd: input.spentMicroUsd, capMicroUsd: input.assignment.capMicroUsd },
    missing: missingSources(input, answers),
    received: received && { text: received.text, answers: received.answers },
  };
}

/** The comparables section with its market conditions, once any sales are read (the comps search's or the market-sales search's), and the comps' charts. */
function withMarket(section: ComparablesSection, analysis: ComparablesAnalysis, market: MarketAnalysis, workfile: ComparablesWorkfile): ComparablesSection {
  const charts = [adjustedPricesChart(analysis, workfile), priceSizeChart(analysis, workfile)].filter((chart) => chart !== null);
  return { ...section, ...(market.source.kind === 'none' ? {} : { market: marketReport(market, workfile) }), ...(charts.length > 0 ? { charts } : {}) };
}

/** The endnotes: every citation a printed value or limitation uses, numbered in the order a reader meets them. */
function numberInOrderOfUse(sections: readonly ReportSection[], after: readonly string[], all: readonly Citation[]): ReportDocument['citations'] {
  const byId = new Map(all.map((citation) => [citation.id, citation]));
  const { ids, use, visit, visitTable } = citationOrder();
  for (const section of sections) {
    // A section prints its limitations under its heading, before its values.
    for (const limitation of section.limitations) use(limitation.citationIds);
    section.values.forEach(visit);
    section.tables.forEach(visitTable);
  }
  // The comparables section, then the title research, print after the subject's sections.
  use(after);
  return ids.flatMap((id, index) => {
    const citation = byId.get(id);
    return citation ? [{ ...citation, number: index + 1 }] : [];
  });
}

/**
 * Each source once, with its as-of date: "DC Office of Tax and Revenue, Real Property Tax Database…: as
 * of 2017-02-05". From the endnotes, then every source the answers held list (a source bought is named
 * even where no printed value cites it). A source the answers do not name a publisher for is listed by
 * its id: an answer held never reads as "no sources bought".
 */
function dataAsOf(citations: readonly CitationFields[]): string[] {
  const lines: string[] = [];
  for (const citation of citations) {
    const name = citation.publisher ?? (citation.sourceId ? `Source ${citation.sourceId} (publisher not named in the answer)` : null);
    if (name === null) continue;
    const line = `${name}${citation.dataset ? `, ${citation.dataset}` : ''}: ${citation.asOf ? `as of ${formatDay(citation.asOf)}` : 'undated'}`;
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
