// The subject and the candidate sales, read from the kept answers (`report_subject_v1`, and the pages
// of `report_comparables_v1` in page order), each grid value cited; then screened against the
// criteria. Nothing is dropped: a sale that does not fit is flagged with Plat's reason, and every
// candidate the appraiser did not choose is listed as analyzed, not used (UAD 3.6).
import { formatDay } from '../format-date.ts';
import { formatDollarsAndCents } from '../format/dollars.ts';
import { isRecord } from '../json-data.ts';
import { publisherName, type CitationFields } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { CitedValue } from '../cited/value.ts';
import { derivedValue } from '../cited/derived.ts';
import {
  amountOf,
  areaMeasureWords,
  areaRowLabel,
  citationForRef,
  citedValue,
  dataSourceValue,
  emptyIndex,
  gridPropertyBase,
  gridRowLabels,
  indexSources,
  locationOf,
  num,
  priceDisplay,
  record,
  sourceCitation,
  sqft,
  strings,
  text,
  unavailableValue,
  type AnswerIndex,
  type ItemLocation,
  type Json,
} from './answer-values.ts';
import { compassDirection, distanceMiles, proximityText } from './geometry.ts';
import type {
  CandidateSet,
  ComparableSale,
  ComparablesWorkfile,
  CompSearchCriteria,
  GridProperty,
  NotUsedEntry,
  SubjectProperty,
} from './model.ts';
import { readSaleMarket } from './sale-market.ts';
import { notUsedEntries as notUsedOf, screenSales, screeningLimitations, type SaleRead, type ScreenContext } from './screening.ts';
import { formatCount } from '../format/number.ts';

export { gridRowLabels } from './answer-values.ts';

const OTR_PRIORS = "The sample holds only each lot's last recorded sale (OTR); no earlier transfers.";
const CAMA_PRIORS = 'DC CAMA publishes a price without a date; no transfer history.';

/** The answer's data when it is an ok v3 envelope. */
function okData(envelope: unknown): Json | null {
  if (!isRecord(envelope) || envelope.status !== 'ok') return null;
  return record(envelope.data);
}

const transferOf = (item: Json): Json | null => record(record(item.sections)?.transfer);

// ---------------------------------------------------------------------------------------------
// The subject

/** The subject as its grid column shows it, from the kept `report_subject_v1` answer; null when that answer holds no subject. */
export function readSubject(subjectEnvelope: unknown, cite: Cite): SubjectProperty | null {
  const data = okData(subjectEnvelope);
  const item = record(Array.isArray(data?.items) ? data.items[0] : null);
  if (!data || !item || text(item.outcome) !== 'ok') return null;
  const index = emptyIndex();
  indexSources(index, data);
  const ref = text(item.property_ref) ?? 'subject';
  const { property, values } = gridPropertyBase(item, index, cite, ref, 'Subject (no address in the records)');
  const transfer = transferOf(item);
  const transferRefs = strings(transfer?.source_refs);
  const lastDate = text(transfer?.sale_date);
  const lastDay = lastDate !== null ? formatDay(lastDate) : null;
  const lastPrice = amountOf(transfer?.price_dollars)?.published ?? null;
  const lastSale = lastDate !== null && lastPrice !== null ? ` (its last recorded sale, ${lastDay} for ${priceDisplay(lastPrice)}, is under prior sales)` : '';
  const notSold = `The subject is being appraised, not sold${lastSale}.`;
  const identityRefs = strings(record(record(item.sections)?.identity)?.source_refs);
  const priors = lastDate !== null && lastPrice !== null ? [priorSale(lastDate, lastPrice, transferRefs, index, cite)] : [];
  return {
    ...property,
    values: {
      ...values,
      proximity: unavailableValue('proximity', 'The subject itself.'),
      salePrice: unavailableValue('salePrice', notSold),
      pricePerSqft: unavailableValue('pricePerSqft', notSold),
      saleType: unavailableValue('saleType', notSold),
      saleDate: unavailableValue('saleDate', notSold),
      dataSource: dataSourceValue(item, identityRefs.length > 0 ? identityRefs : transferRefs, index, cite),
    },
    priorSales: priors,
    priorSalesNote:
      priors.length === 0
        ? 'The subject report gives no recorded sale for the subject.'
        : text(transfer?.sale_type) === 'last_recorded_sale'
          ? `The sample holds only each lot's last recorded sale (OTR): the subject's, ${lastDay}, is listed; no earlier transfers.`
          : `The subject report gives one sale, ${lastDay}: earlier transfers are not in the answer.`,
  };
}

function priorSale(date: string, price: number | string, refs: string[], index: AnswerIndex, cite: Cite): GridProperty['priorSales'][number] {
  const citations = refs.map((ref) => citationForRef(index, ref));
  const cell = (row: 'saleDate' | 'salePrice' | 'dataSource', raw: string | number, display: string): CitedValue => ({
    ...citedValue(row, { raw, display, status: 'reported', citations }, cite),
    field: `comparables.prior.${row}`,
  });
  const source = citations[0];
  return {
    date: cell('saleDate', date, formatDay(date)),
    price: cell('salePrice', price, priceDisplay(price)),
    source: cell('dataSource', refs[0] ?? '', source ? `${publisherName(source.publisher)} record ${refs[0]}` : '—'),
  };
}

// ---------------------------------------------------------------------------------------------
// The candidates

/** What the candidates are read and screened against (screening.ts). */
export type CandidateContext = ScreenContext;

interface SubjectPoint {
  lonLat: [number, number];
  approximate: boolean;
  words: string;
  citations: CitationFields[];
}

function readSale(item: Json, index: AnswerIndex, subjectPoint: SubjectPoint | null, cite: Cite): SaleRead {
  const transfer = transferOf(item) ?? {};
  const refs = strings(transfer.source_refs);
  const recordRef = text(item.record_ref) ?? refs[0] ?? text(item.property_ref) ?? 'unknown sale';
  const saleCitations = refs.map((ref) => citationForRef(index, ref));
  const camaSale = text(transfer.sale_type) === 'cama_extract_sale';
  const missingAddress = camaSale ? `DC CAMA sale ${recordRef} (no address published)` : `Sale ${recordRef} (no address in the answer)`;
  const { property, values, location, glaCitations } = gridPropertyBase(item, index, cite, recordRef, missingAddress);
  if (camaSale && values.address.status === 'unavailable') values.address.limitation = 'DC CAMA publishes no address for its sales: located by the record’s point only.';

  const saleDate = text(transfer.sale_date);
  const amount = amountOf(transfer.price_dollars);
  const price = amount?.dollars ?? null;
  const acceptanceBasis = text(transfer.acceptance_basis);
  const reading = readSaleMarket({ saleType: transfer.sale_type, acceptanceCode: transfer.acceptance_code, price });
  const reported = (row: 'saleDate' | 'salePrice', raw: string | number, display: string) => citedValue(row, { raw, display, status: 'reported', citations: saleCitations }, cite);

  const dateValue = saleDate !== null ? reported('saleDate', saleDate, formatDay(saleDate)) : unavailableValue('saleDate', camaSale ? 'DC CAMA publishes a price without a date: no sale date.' : 'Not in the sample.');
  const priceValue = amount !== null ? reported('salePrice', amount.published, priceDisplay(amount.published)) : unavailableValue('salePrice', 'Not in the sample.');
  // A code Plat does not recognise is shown as published (reported, not Plat's reading), and said so.
  const saleType =
    reading.published !== null || reading.status === 'no_price'
      ? citedValue(
          'saleType',
          {
            raw: reading.published ?? (price === null ? '' : price),
            display: reading.display,
            // As published, unless the service says how it read the record, or no code was published and
            // the reading is the recorded price's (0 or none: non-market or no price).
            status: reading.status !== 'unknown' && (acceptanceBasis !== null || reading.published === null) ? 'derived' : 'reported',
            citations: saleCitations,
            ...(reading.status === 'unknown'
              ? { limitation: reading.notRecognised }
              : acceptanceBasis !== null
                ? { derivedFrom: acceptanceBasis }
                : reading.published === null
                  ? { derivedFrom: 'the recorded price' }
                  : {}),
          },
          cite,
        )
      : unavailableValue('saleType', 'The answer does not say whether the sale was at market.');

  const gla = property.numbers.gla;
  const areaWords = areaMeasureWords[property.areaMeasure ?? 'unstated'].value;
  const pricePerSqft =
    price !== null && price > 0 && gla !== null && gla > 0 && values.gla.status !== 'unavailable'
      ? derivedValue(
          {
            field: 'comparables.pricePerSqft',
            label: areaRowLabel('pricePerSqft', [property]),
            raw: Math.round((price / gla) * 100) / 100,
            display: `${formatDollarsAndCents(price / gla)} per sq ft`,
            rule: `Sale price ${priceDisplay(amount?.published ?? price)} ÷ ${areaWords} ${sqft(gla)}, by Plat`,
            inputs: [
              { name: 'the sale price', citations: saleCitations },
              { name: `the ${areaWords}`, citations: glaCitations },
            ],
            limitation: values.gla.status === 'synthetic' ? `Computed with a synthetic ${areaWords} (copied by the sample from another building): not a market fact.` : null,
          },
          cite,
        )
      : unavailableValue('pricePerSqft', price === null || price === 0 ? 'No market price to divide.' : 'No living area to divide by.');

  const answerMiles = num(item.distance_miles);
  let distance = answerMiles ?? 0;
  let direction: string | null = null;
  let proximity: CitedValue = unavailableValue('proximity', 'The answer gives no location for this sale or the subject.');
  if (location && subjectPoint) {
    distance = distanceMiles(subjectPoint.lonLat, location.lonLat);
    direction = compassDirection(subjectPoint.lonLat, location.lonLat);
    proximity = derivedValue(
      {
        field: 'comparables.proximity',
        label: gridRowLabels.proximity,
        raw: Math.round(distance * 1000) / 1000,
        display: proximityText(distance, direction),
        rule: `Great-circle distance and compass direction, by Plat, from the subject (${subjectPoint.words}) to the sale (${location.words})`,
        inputs: [
          { name: "the subject's location", citations: subjectPoint.citations },
          { name: "the sale's location", citations: location.citations },
        ],
        limitation: subjectPoint.approximate || location.approximate ? 'Approximate: tax-square centroids are a median of about 100 m from the lot.' : null,
      },
      cite,
    );
  }

  const sale: ComparableSale = {
    ...property,
    values: { ...values, proximity, salePrice: priceValue, pricePerSqft, saleType, saleDate: dateValue, dataSource: dataSourceValue(item, refs, index, cite) },
    priorSales: [],
    priorSalesNote: camaSale ? CAMA_PRIORS : text(transfer.sale_type) === 'last_recorded_sale' ? OTR_PRIORS : 'The answer gives no earlier transfers for this sale.',
    recordRef,
    saleDate,
    priceDollars: price ?? 0,
    market: reading.status === 'market',
    marketStatus: reading.status,
    distanceMiles: distance,
    direction: direction ?? '',
    flags: [],
    screens: [],
    screenedOut: null,
    relatedLots: [],
    lotsChecked: false,
  };
  const identity = record(record(item.sections)?.identity);
  return { sale, useCode: text(identity?.use_code), ssl: text(identity?.ssl), location };
}

// ---------------------------------------------------------------------------------------------
// The answer's own sentences, cited to the sources they speak about

const SOURCE_WORDS: Array<[RegExp, RegExp]> = [
  [/^dc_otr/, /\bOTR\b/],
  [/square_points/, /square|centroid/i],
  [/synthetic/, /synthetic/i],
  [/cama/, /\bCAMA\b/],
];

function limitationCitations(line: string, index: AnswerIndex, cite: Cite): string[] {
  const about = [...index.sources.values()].filter((view) => {
    const id = view.sourceId ?? '';
    return line.includes(id) || SOURCE_WORDS.some(([idPattern, words]) => idPattern.test(id) && words.test(line));
  });
  // A sentence about a source the answer did not draw on (CAMA, when no CAMA sale came back) cites nothing.
  return [...new Set(about.map((view) => cite(sourceCitation(view))))];
}

// ---------------------------------------------------------------------------------------------
// Reading the pages

/**
 * The candidates of a search from its kept pages (page 1 first). A page that is an error is said so
 * under the list; a sale listed twice is kept and marked duplicate, so nothing the answer said is lost.
 */
export function readCandidates(pages: unknown[], ctx: CandidateContext, cite: Cite): CandidateSet {
  const index = emptyIndex();
  const limitations: CandidateSet['limitations'] = [];
  const lines: string[] = [];
  const items: Json[] = [];
  let total: number | null = null;
  let truncated = false;
  let nextCursor: string | null = null;
  let dataAsOf: string | null = null;
  let answerSubject: ItemLocation | null = null;
  pages.forEach((page, pageIndex) => {
    const data = okData(page);
    if (!data) {
      const error = record(isRecord(page) ? page.error : null);
      const why = error ? `${text(error.code) ?? 'error'}: ${text(error.message) ?? 'no message'}` : 'not an answer Plat can read';
      limitations.push({ text: `Page ${pageIndex + 1} of the answer is not usable (${why}): its sales are not listed.`, citationIds: [] });
      return;
    }
    indexSources(index, data);
    for (const item of Array.isArray(data.items) ? data.items : []) if (isRecord(item)) items.push(item);
    total ??= num(data.total);
    dataAsOf ??= text(data.snapshot);
    answerSubject ??= locationOf(record(data.subject)?.location, index);
    for (const line of strings(data.limitations)) if (!lines.includes(line)) lines.push(line);
    const meta = isRecord(page) ? record(page.meta) : null;
    truncated ||= meta?.truncated === true;
    // The last readable page's cursor: a page that failed can be asked for again with it.
    nextCursor = text(meta?.next_cursor);
  });

  const subjectPoint = subjectPointOf(ctx.subject, answerSubject);
  const reads = items.map((item) => readSale(item, index, subjectPoint, cite));
  screenSales(reads, ctx, cite);
  const candidates = reads.map((read) => read.sale);

  for (const line of lines) limitations.push({ text: line, citationIds: limitationCitations(line, index, cite) });
  if (candidates.length > 0) for (const line of screeningLimitations(ctx.criteria, ctx.subjectUseCode)) limitations.push({ text: line, citationIds: [] });
  if (ctx.subject === null || ctx.subject.numbers.gla === null) {
    limitations.push({ text: 'The subject’s living area is not known: the living-area band was not applied.', citationIds: [] });
  }
  const returned = candidates.length;
  const stated = total ?? returned;
  if (nextCursor !== null) {
    limitations.push({
      text: `${formatCount(returned)} of the ${formatCount(stated)} sales found are listed: the rest are on further pages, each a further purchase.`,
      citationIds: [],
    });
  }
  return { subject: ctx.subject, candidates, total: stated, truncated, nextCursor, dataAsOf, limitations };
}

function subjectPointOf(subject: SubjectProperty | null, answerSubject: ItemLocation | null): SubjectPoint | null {
  // The comparables answer locates the subject itself and cites it: preferred, so the distance cites the answer it came with.
  if (answerSubject) return { lonLat: answerSubject.lonLat, approximate: answerSubject.approximate, words: answerSubject.words, citations: answerSubject.citations };
  if (!subject?.location) return null;
  return {
    lonLat: subject.location.lonLat,
    approximate: subject.location.approximate,
    words: subject.location.approximate ? 'the centroid of its tax square (approximate)' : 'its location in the subject report',
    citations: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Not used, and second thoughts

/** Every candidate not chosen and why (screening.ts decides who decided). */
export function notUsedEntries(set: CandidateSet, workfile: ComparablesWorkfile): NotUsedEntry[] {
  return notUsedOf(set.candidates, workfile);
}

/**
 * Why choosing this sale needs a second thought, in words for a confirmation; null when it fits the
 * criteria. A non-market or undated sale is never used silently.
 */
export function choosableProblem(candidate: ComparableSale, criteria: CompSearchCriteria): string | null {
  const problems: string[] = [];
  if (candidate.marketStatus === 'unknown') {
    problems.push(`Market or not: ${candidate.values.saleType.display}. Confirm from the record that it was an arm’s-length sale before using it.`);
  } else if (candidate.marketStatus === 'no_price') {
    problems.push('Non-market or no price: a sale recorded without a market price is not a comparable unless you say why.');
  } else if (!candidate.market) problems.push('Not arm’s length: a non-market sale is not a comparable unless you say why.');
  if (candidate.saleDate === null) {
    problems.push(
      `No sale date: it cannot be shown to have sold in the ${criteria.monthsBack} months before the effective date, nor adjusted for market conditions (time), unless you say how.`,
    );
  }
  const screened = candidate.screenedOut;
  if (screened && screened.reason !== 'non_market' && screened.reason !== 'no_date') {
    problems.push(screened.reason === 'duplicate' ? `Duplicate: ${screened.note}` : `${screened.note} It does not fit the search’s criteria.`);
  }
  return problems.length > 0 ? problems.join(' ') : null;
}
