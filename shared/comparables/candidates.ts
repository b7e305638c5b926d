// The subject and the candidate sales, read from the kept answers (`report_subject_v1`, and the pages
// of `report_comparables_v1` in page order), each grid value cited; then screened against the
// criteria. Nothing is dropped: a sale that does not fit is flagged with Plat's reason, and every
// candidate the appraiser did not choose is listed as analyzed, not used (UAD 3.6).
import { formatDay } from '../format-date.ts';
import { formatDollarsAndCents } from '../format/dollars.ts';
import { isRecord } from '../json-data.ts';
import { isIsoDate } from '../service/common.ts';
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
import { areaPolygons, compassDirection, distanceMiles, pointInPolygons, proximityText } from './geometry.ts';
import type {
  CandidateFlag,
  CandidateSet,
  ComparableSale,
  ComparablesWorkfile,
  CompSearchCriteria,
  GridProperty,
  NotUsedEntry,
  NotUsedReason,
  SubjectProperty,
} from './model.ts';
import { readSaleMarket } from './sale-market.ts';
import { livingAreaBand, searchWindow } from './search.ts';
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

export interface CandidateContext {
  subject: SubjectProperty | null;
  criteria: CompSearchCriteria;
  effectiveDate: string;
  subjectUseCode: string | null;
}

interface SubjectPoint {
  lonLat: [number, number];
  approximate: boolean;
  words: string;
  citations: CitationFields[];
}

interface SaleRead {
  sale: ComparableSale;
  useCode: string | null;
  location: ItemLocation | null;
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
    screenedOut: null,
  };
  return { sale, useCode: text(record(record(item.sections)?.identity)?.use_code), location };
}

// ---------------------------------------------------------------------------------------------
// Screening

interface Screen {
  flag: CandidateFlag;
  reason: NotUsedReason | null;
  note: string;
}

function screensFor(read: SaleRead, ctx: CandidateContext): Screen[] {
  const { sale, useCode, location } = read;
  const { criteria } = ctx;
  const screens: Screen[] = [];
  if (sale.marketStatus === 'unknown') {
    // Not a negative: never screened out on it, but the appraiser is asked before it is used.
    screens.push({ flag: 'market_unknown', reason: null, note: `Whether it sold at market is not known: ${sale.values.saleType.display}.` });
  } else if (sale.marketStatus === 'no_price') {
    screens.push({ flag: 'no_price', reason: criteria.armsLengthOnly ? 'non_market' : null, note: `Non-market or no price: ${sale.values.saleType.display}.` });
  } else if (!sale.market) {
    const what = sale.values.saleType.display;
    screens.push({ flag: 'non_market', reason: criteria.armsLengthOnly ? 'non_market' : null, note: `Not arm’s length: ${what}.` });
  }
  if (sale.saleDate === null) {
    screens.push({ flag: 'undated', reason: 'no_date', note: 'No sale date (DC CAMA publishes none): it cannot be placed in the sale period.' });
  } else if (isIsoDate(ctx.effectiveDate) && Number.isInteger(criteria.monthsBack) && criteria.monthsBack >= 1) {
    const { fromDate, toDate } = searchWindow(ctx.effectiveDate, criteria.monthsBack);
    if (sale.saleDate < fromDate || sale.saleDate > toDate) {
      screens.push({ flag: 'outside_window', reason: 'date', note: `Sold ${formatDay(sale.saleDate)}, outside the sale period ${fromDate} to ${toDate}.` });
    }
  }
  if (criteria.sameUseCode && ctx.subjectUseCode && useCode && useCode !== ctx.subjectUseCode) {
    screens.push({ flag: 'other_use_code', reason: 'property_type', note: `Use code ${useCode}; the subject’s is ${ctx.subjectUseCode}.` });
  }
  const polygons = areaPolygons(criteria.area);
  if (polygons && location && !pointInPolygons(location.lonLat, polygons)) {
    screens.push({ flag: 'outside_market_area', reason: 'proximity', note: 'Outside the market area.' });
  } else if (criteria.area.kind === 'radius' && sale.values.proximity.status !== 'unavailable' && sale.distanceMiles > criteria.area.radiusMiles + 0.005) {
    screens.push({
      flag: 'outside_market_area',
      reason: 'proximity',
      note: `Outside the market area: ${sale.distanceMiles.toFixed(2)} mi from the subject, beyond the ${criteria.area.radiusMiles} mi radius.`,
    });
  }
  const subjectGla = ctx.subject?.numbers.gla ?? null;
  const gla = sale.numbers.gla;
  if (gla === null) {
    screens.push({ flag: 'no_living_area', reason: 'data', note: 'No living area in the sample: its size cannot be compared with the subject’s.' });
  } else if (subjectGla !== null && subjectGla > 0) {
    const band = livingAreaBand(subjectGla, criteria.livingAreaBandPct);
    if (gla < band.low || gla > band.high) {
      screens.push({
        flag: 'outside_area_band',
        reason: 'size',
        note: `Living area ${sqft(gla)}, outside ${formatCount(band.low)}–${sqft(band.high)} (±${criteria.livingAreaBandPct} % of the subject’s ${sqft(subjectGla)}).`,
      });
    }
  }
  if (location?.approximate) screens.push({ flag: 'approximate_location', reason: null, note: 'Located at its tax square’s centroid (approximate).' });
  if (sale.syntheticCharacteristics) screens.push({ flag: 'synthetic_characteristics', reason: null, note: 'Building characteristics are synthetic (copied by the sample from a DC CAMA record near the lot’s tax square).' });
  return screens;
}

// Plat's default reason is the first that applies, the plainest first: a sale that is not at market
// or has no date is out whatever else it is.
const SCREEN_ORDER: readonly NotUsedReason[] = ['non_market', 'no_date', 'date', 'property_type', 'proximity', 'size', 'data'];

/** What the appraiser should read before using a sale (its screened reason first, then every other flag). */
function screenedOut(screens: readonly Screen[]): ComparableSale['screenedOut'] {
  for (const reason of SCREEN_ORDER) {
    const screen = screens.find((s) => s.reason === reason);
    if (screen) return { reason, note: screen.note };
  }
  return null;
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
  // The first listing of a sale is the one used; a later one (the same record, or the same address,
  // date and price under another record) is kept and marked, its id made unique for choosing.
  const firstByRef = new Map<string, ComparableSale>();
  const firstBySale = new Map<string, ComparableSale>();
  const copiesByRef = new Map<string, number>();
  const candidates = items.map((item) => {
    const read = readSale(item, index, subjectPoint, cite);
    const screens = screensFor(read, ctx);
    const sale = read.sale;
    sale.flags = screens.map((s) => s.flag);
    const saleKey =
      sale.saleDate !== null && sale.values.address.status !== 'unavailable'
        ? `${sale.address.toUpperCase().replace(/\s+/g, ' ')}|${sale.saleDate}|${sale.priceDollars}`
        : null;
    const first = firstByRef.get(sale.recordRef) ?? (saleKey === null ? undefined : firstBySale.get(saleKey));
    const copies = (copiesByRef.get(sale.recordRef) ?? 0) + 1;
    copiesByRef.set(sale.recordRef, copies);
    if (copies > 1) sale.id = `${sale.recordRef}#${copies}`;
    if (first) {
      sale.screenedOut = { reason: 'duplicate', note: `The same sale as ${first.address} (record ${first.recordRef}), listed first.` };
      return sale;
    }
    firstByRef.set(sale.recordRef, sale);
    if (saleKey !== null) firstBySale.set(saleKey, sale);
    sale.screenedOut = screenedOut(screens);
    return sale;
  });

  for (const line of lines) limitations.push({ text: line, citationIds: limitationCitations(line, index, cite) });
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

/**
 * Every candidate not chosen, with the appraiser's reason when given, else Plat's screening reason,
 * else "other" and a note asking for one (UAD 3.6 wants a reason for every analyzed sale).
 */
export function notUsedEntries(set: CandidateSet, workfile: ComparablesWorkfile): NotUsedEntry[] {
  const chosen = new Set(workfile.chosen);
  return set.candidates
    .filter((candidate) => !chosen.has(candidate.id))
    .map((candidate): NotUsedEntry => {
      const given = workfile.notUsed[candidate.id];
      if (given) return { candidate, reason: given.reason, note: given.note, by: 'appraiser' };
      if (candidate.screenedOut) return { candidate, reason: candidate.screenedOut.reason, note: candidate.screenedOut.note, by: 'plat' };
      return { candidate, reason: 'other', note: 'Not chosen; no reason given yet.', by: 'plat' };
    });
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
