// The whole comparables analysis of an assignment, from its kept answers and its workfile: the
// subject and the candidates (each value cited), the chosen comps in column order, the grid, the
// regression's support, the sales analyzed and not used, and what does not add up. The Comparables
// view and the report both call this one function, so the screen and the PDF cannot disagree.
import { isRecord } from '../json-data.ts';
import type { CitationBook } from '../cited/citation-book.ts';
import type { Citation, CitedValue } from '../cited/value.ts';
import { computeGrid } from './adjustments.ts';
import { citedGridValues, citeGrid } from './grid-cited.ts';
import { notUsedEntries, readCandidates, readSubject } from './candidates.ts';
import type { CandidateSet, CitedGrid, ComparableSale, ComparablesAnalysis, ComparablesWorkfile, GridProperty, GridResult, RegressionSupport } from './model.ts';
import { regressionSupport } from './regression.ts';
import { regressionScreen } from './screening.ts';
import { applyResolvedSubject } from './subject/grid-subject.ts';
import { resolveSubject } from './subject/resolve.ts';

export interface ComparablesAnalysisInput {
  /** The kept v3 `report_subject_v1` envelope (the subject's grid column), or null when not bought. */
  subjectEnvelope: unknown | null;
  /** The kept `report_comparables_v1` envelopes of the last search, page 1 first (a page not kept is absent). */
  pages: unknown[];
  workfile: ComparablesWorkfile;
  /** The assignment's effective date: the date window, the time adjustments and the ages are judged against it. */
  effectiveDate: string;
  /**
   * The kept v4 summary envelope of the subject, or null/absent when not bought: with the subject's
   * answer it resolves the one subject (shared/comparables/subject/) whose values the grid's subject
   * column shows where the answers disagree or the appraiser chose (`workfile.subjectChoices`).
   */
  subjectSummary?: unknown | null;
  /** The subject's use code when the caller knows it; else read from the subject's answer. */
  subjectUseCode?: string | null;
  /**
   * The kept v4 sale-record searches of the assignment (envelopes): those by a deed's date and price
   * name a sale's other lots beyond the answer (lot-check.ts). Read by each record's own field names,
   * so the screen and the report read them alike.
   */
  lotAnswers?: readonly unknown[];
  /** Who the appraiser's own figures are cited to (grid-cited.ts); "The appraiser" when not named. */
  appraiser?: string;
}

/** The subject's use code as its `report_subject_v1` answer gives it (identity section). */
export function useCodeOf(subjectEnvelope: unknown): string | null {
  if (!isRecord(subjectEnvelope) || !isRecord(subjectEnvelope.data)) return null;
  const items = subjectEnvelope.data.items;
  const item = Array.isArray(items) && isRecord(items[0]) ? items[0] : null;
  const identity = item && isRecord(item.sections) && isRecord(item.sections.identity) ? item.sections.identity : null;
  const code = identity?.use_code;
  return typeof code === 'string' && code.trim() !== '' ? code.trim() : null;
}

const noCandidates = (subject: CandidateSet['subject']): CandidateSet => ({
  subject,
  candidates: [],
  total: 0,
  truncated: false,
  nextCursor: null,
  dataAsOf: null,
  limitations: [],
});

const EMPTY_GRID: GridResult = { columns: [], adjustedRange: null };

export function analyzeComparables(input: ComparablesAnalysisInput, book: CitationBook): ComparablesAnalysis {
  const { workfile, effectiveDate } = input;
  const cite = book.cite;
  const run = workfile.searches.at(-1) ?? null;
  const problems: string[] = [];
  const read = readSubject(input.subjectEnvelope, cite);
  const resolved = resolveSubject({ subject: input.subjectEnvelope, summary: input.subjectSummary ?? null, effectiveDate, choices: workfile.subjectChoices });
  const subject = read === null ? null : applyResolvedSubject(read, resolved, cite);
  const subjectUseCode = input.subjectUseCode ?? useCodeOf(input.subjectEnvelope);

  let set: CandidateSet;
  if (run === null) set = noCandidates(subject);
  else {
    // Screened against the criteria as run, and the assignment's effective date as it is now.
    const lotAnswers = (input.lotAnswers ?? []).map((envelope) => ({ envelope }));
    set = readCandidates(input.pages, { subject, criteria: run.criteria, effectiveDate, subjectUseCode, lotAnswers }, cite);
    if (input.pages.length === 0) {
      problems.push('The answer of the last search is not kept with this assignment: run the search again to list its sales.');
    } else if (input.pages.length < run.pages.length) {
      const missing = run.pages.length - input.pages.length;
      problems.push(`${missing} of the ${run.pages.length} pages of the last search ${missing === 1 ? 'is' : 'are'} not kept with this assignment: ${missing === 1 ? 'its' : 'their'} sales are not listed.`);
    }
    if (run.effectiveDate !== effectiveDate) {
      problems.push(
        `The last search ran for the effective date ${run.effectiveDate}; the assignment’s effective date is now ${effectiveDate}: run the search again so its date window ends there.`,
      );
    }
  }

  // Chosen comps in the workfile's column order; one the answers do not hold cannot be shown or adjusted.
  const byId = new Map(set.candidates.map((candidate) => [candidate.id, candidate]));
  const chosen: ComparableSale[] = [];
  workfile.chosen.forEach((id, index) => {
    const candidate = byId.get(id);
    if (!candidate) {
      problems.push(`Comp ${index + 1} as saved (record ${id}) is not in the current search’s answer: dropped from the grid.`);
      return;
    }
    if (chosen.includes(candidate)) {
      problems.push(`Comp ${index + 1} as saved is ${candidate.address} again: listed once.`);
      return;
    }
    chosen.push(candidate);
  });
  let grid = EMPTY_GRID;
  let cited: CitedGrid | null = null;
  if (chosen.length > 0 && subject === null) {
    problems.push('The subject report (report_subject_v1) is not bought: the grid cannot compare the comps with the subject. Buy it from the Report view.');
  } else if (chosen.length > 0 && subject !== null) {
    grid = computeGrid({ subject, comps: chosen, rates: workfile.rates, manual: workfile.manual, weights: workfile.weights, effectiveDate, syntheticAccepted: workfile.syntheticAccepted });
    cited = citeGrid({ subject, comps: chosen, grid, workfile, appraiser: input.appraiser }, cite);
  }

  // Screened-out sales (multi-parcel, duplicate, non-market, …) stay out of the fit unless taken in.
  const support = regressionSupport(set.candidates, effectiveDate, { workfile, excludedBy: regressionScreen });
  const notUsed = notUsedEntries(set, { ...workfile, chosen: chosen.map((comp) => comp.id) });
  return { run, set, chosen, grid, support, notUsed, problems, citations: citationsUsed(book.all(), set, support, cited), cited };
}

/** The citations the analysis's values, limitations and regression refer to, in the book's order. */
function citationsUsed(all: readonly Citation[], set: CandidateSet, support: RegressionSupport, cited: CitedGrid | null): Citation[] {
  const used = new Set<string>();
  const useValue = (value: CitedValue) => {
    for (const id of value.citationIds) used.add(id);
    for (const alternative of value.alternatives) for (const id of alternative.citationIds) used.add(id);
  };
  const useProperty = (property: GridProperty) => {
    Object.values(property.values).forEach(useValue);
    for (const prior of property.priorSales) [prior.date, prior.price, prior.source].forEach(useValue);
  };
  if (set.subject) useProperty(set.subject);
  set.candidates.forEach(useProperty);
  for (const limitation of set.limitations) for (const id of limitation.citationIds) used.add(id);
  for (const sale of support.salesUsed) for (const id of sale.citationIds) used.add(id);
  if (cited) citedGridValues(cited).forEach(useValue);
  for (const figure of support.figures ? [support.figures.n, support.figures.r2, ...Object.values(support.figures.rates).flatMap((rate) => [rate.value, rate.interval])] : []) useValue(figure);
  return all.filter((citation) => used.has(citation.id));
}
