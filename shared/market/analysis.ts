// The market of an assignment, from its kept answers and its workfile: which sales it reads (the
// market-sales search when bought, else the comps search's own answer), the market-conditions table
// and the time trend. The Comparables view, the report, the CSV and the UAD JSON all call
// `analyzeMarket`, so they cannot disagree.
import type { CitationBook } from '../cited/citation-book.ts';
import type { Citation } from '../cited/value.ts';
import { useCodeOf } from '../comparables/analysis.ts';
import { readCandidates, readSubject } from '../comparables/candidates.ts';
import type { CompSearchCriteria, CompSearchRun, ComparableSale, ComparablesWorkfile } from '../comparables/model.ts';
import { comparablesRequestBody, describeCriteria, type ComparablesRequestBody } from '../comparables/search.ts';
import type { LonLat } from '../comparables/model.ts';
import { defaultScreenedOut, marketConditions, marketSales, type MarketConditions, type ScreenedOut } from './conditions.ts';
import { DEFAULT_TREND_WINDOW, marketTrend, type MarketTrend, type TrendWindow } from './trend.ts';

/** The market-sales search reaches back this far: the 1004MC's 24 months and the trend's widest window. */
export const MARKET_SEARCH_MONTHS = 36;

/**
 * The market-sales search: the comps search's area and property type, 36 months, any size (the
 * living-area band is Plat's screen, not sent), dated sales only. Non-market sales come back and are
 * screened out and counted, as in the comps search.
 */
export function marketSearchCriteria(criteria: CompSearchCriteria): CompSearchCriteria {
  return { ...criteria, monthsBack: MARKET_SEARCH_MONTHS, sameUseCode: true, includeUndated: false };
}

/** The v3 body of the market-sales search (page 1): the comparables request with the market criteria. */
export function marketRequestBody(subjectRef: string, criteria: CompSearchCriteria, effectiveDate: string, subjectUseCode: string | null, subjectLonLat: LonLat | null): ComparablesRequestBody {
  return comparablesRequestBody(subjectRef, marketSearchCriteria(criteria), effectiveDate, subjectUseCode, undefined, subjectLonLat);
}

export interface MarketAnalysisInput {
  subjectEnvelope: unknown | null;
  /** The kept pages of the market-sales search (workfile.marketSearch), page 1 first. */
  marketPages: unknown[];
  /** The kept pages of the last comps search: read when no market-sales search was bought. */
  compsPages: unknown[];
  workfile: ComparablesWorkfile;
  effectiveDate: string;
  subjectUseCode?: string | null;
  /** Issue 21's screening (multi-parcel, non-market); today's by default. */
  screenedOut?: ScreenedOut;
  /** The catalog's coverage domains, when read. */
  catalogDomains?: readonly string[] | null;
}

export interface MarketAnalysis {
  /** Which sales were read, in words, and the run they came from. */
  source: {
    kind: 'market-search' | 'comps-search' | 'none';
    run: CompSearchRun | null;
    words: string;
    /** The market-sales search's next page, when the service has more sales than were read (a further purchase). */
    nextCursor: string | null;
  };
  sales: ComparableSale[];
  conditions: MarketConditions;
  trend: MarketTrend;
  /** What does not add up (a page not kept, a run for another effective date). */
  problems: string[];
  /** Every citation the market's figures refer to (ids from the book it was built with). */
  citations: Citation[];
}

export function analyzeMarket(input: MarketAnalysisInput, book: CitationBook): MarketAnalysis {
  const { workfile, effectiveDate } = input;
  const cite = book.cite;
  const subject = readSubject(input.subjectEnvelope, cite);
  const subjectUseCode = input.subjectUseCode ?? useCodeOf(input.subjectEnvelope);
  const marketRun = workfile.marketSearch ?? null;
  const compsRun = workfile.searches.at(-1) ?? null;
  const run = marketRun ?? compsRun;
  const pages = marketRun ? input.marketPages : input.compsPages;
  const kind = marketRun ? 'market-search' : compsRun ? 'comps-search' : 'none';
  const problems: string[] = [];
  const answers = run === null ? null : readCandidates(pages, { subject, criteria: run.criteria, effectiveDate, subjectUseCode }, cite);
  const sales = answers?.candidates ?? [];
  // Only a market-sales search whose every page is kept can go on where it stopped.
  const nextCursor = marketRun !== null && answers !== null && pages.length === marketRun.pages.length ? answers.nextCursor : null;
  // The comps search's own missing pages are said by the comps analysis; the market-sales search's here.
  if (marketRun !== null && pages.length < marketRun.pages.length) problems.push(`${marketRun.pages.length - pages.length} of the ${marketRun.pages.length} pages of the market-sales search are not kept with this assignment: their sales are not counted.`);
  if (marketRun !== null && marketRun.effectiveDate !== effectiveDate) problems.push(`The sales were read for the effective date ${marketRun.effectiveDate}; the assignment’s is now ${effectiveDate}: buy the market sales again.`);
  if (marketRun !== null && marketRun.total > marketRun.returned) problems.push(`${marketRun.total} sales match but ${marketRun.returned} were read: the figures count the sales read only.`);
  const areaWords = run ? describeCriteria(run.criteria, run.effectiveDate, run)[0]! : 'No market area searched yet';
  const propertyType = run === null ? null : run.criteria.sameUseCode && subjectUseCode ? `Use code ${subjectUseCode} (the subject’s)` : 'Any property type';
  const words =
    kind === 'market-search'
      ? `The market-sales search: ${areaWords}, ${MARKET_SEARCH_MONTHS} months before the effective date, any size.`
      : kind === 'comps-search'
        ? `The comps search’s own sales (${run!.criteria.monthsBack} months, any size): buy the market sales for ${MARKET_SEARCH_MONTHS} months of the area’s sales.`
        : 'No sales read yet: run the comps search or buy the market sales.';
  const monthsRead = run?.criteria.monthsBack ?? 0;
  const windowMonths: TrendWindow = workfile.marketTrend?.windowMonths ?? DEFAULT_TREND_WINDOW;
  // The sales are read and screened once; the table and the trend share them.
  const read = marketSales(sales, effectiveDate, input.screenedOut ?? defaultScreenedOut);
  const common = { sales, effectiveDate, read, cite };
  const conditions = marketConditions({ ...common, marketArea: areaWords, propertyType, monthsRead, catalogDomains: input.catalogDomains ?? null });
  const trend = marketTrend({ ...common, monthsRead, windowMonths });
  const used = new Set([...conditions.periods.flatMap((period) => period.sales), ...trend.price.sales].flatMap((sale) => sale.citationIds));
  for (const entry of conditions.leftOut) for (const id of entry.citationIds) used.add(id);
  return { source: { kind, run, words, nextCursor }, sales, conditions, trend, problems, citations: book.all().filter((citation) => used.has(citation.id)) };
}
