// Sale screening: for each sale a comparables search returned, the screens it fails and why, with a
// reason code (UAD 3.6's reasons for a sale analyzed and not used). The one place this is decided:
// candidates.ts applies it as it reads the answer; the candidate list, the map, the not-used list, the
// PDF, the CSV and UAD exports and the regression read what it decided (`flags`, `screenedOut`,
// `relatedLots`), and `analysisExclusion` tells the regression which sales it may not fit on.
//
// Screens: a duplicate record of one sale; non-market or no price (sale-market.ts reads it: unknown is
// never a negative); a multi-parcel sale (one deed over several lots: the same recordation date and
// price on several lots, the other lots named and cited); outside the dates; outside the area; a
// different use; outside the living-area band; no living area.
//
// Multi-parcel sales are found among the sales the answer holds (free), and beyond it in the kept record
// searches by a deed's date and price (lot-check.ts: priced, asked for by the appraiser). A lot of the
// same deed that neither holds (another property type when the search asked for the subject's, or one
// beyond the radius) is not seen: the set's limitations say so, and Plat never guesses it either way.
import { formatDay } from '../format-date.ts';
import { formatCount } from '../format/number.ts';
import { isIsoDate } from '../service/common.ts';
import { areaMeasureWords, priceDisplay, sqft, type ItemLocation } from './answer-values.ts';
import { isCopied } from './synthetic-use.ts';
import { areaPolygons, pointInPolygons } from './geometry.ts';
import type { Cite } from '../cited/citation-book.ts';
import { lotsFromChecks, type LotAnswer } from './lot-check.ts';
import { notUsedReasonLabels } from './model.ts';
import type { ComparableSale, SaleScreen, ComparablesWorkfile, CompSearchCriteria, NotUsedEntry, NotUsedReason, RelatedLot, SubjectProperty } from './model.ts';
import { livingAreaBand, searchWindow } from './search.ts';

/** What a sale is screened against: the search as run and the assignment's effective date as it is now. */
export interface ScreenContext {
  subject: SubjectProperty | null;
  criteria: CompSearchCriteria;
  effectiveDate: string;
  subjectUseCode: string | null;
  /** Kept record searches by a deed's date and price (lot-check.ts): the other lots beyond the answer. */
  lotAnswers?: readonly LotAnswer[];
}

/** A sale as read from the answer, with the facts the screens need beyond the grid values. */
export interface SaleRead {
  sale: ComparableSale;
  useCode: string | null;
  /** The lot's SSL as the answer gives it (identity), null when it gives none. */
  ssl: string | null;
  location: ItemLocation | null;
}

type Screen = SaleScreen;

const capitalise = (words: string): string => words.charAt(0).toUpperCase() + words.slice(1);

// ---------------------------------------------------------------------------------------------
// One sale against the criteria

function criteriaScreens(read: SaleRead, ctx: ScreenContext): Screen[] {
  const { sale, useCode, location } = read;
  const { criteria } = ctx;
  const screens: Screen[] = [];
  if (sale.marketStatus === 'unknown') {
    // Not a negative: never screened out on it, but the appraiser is asked before it is used.
    screens.push({ flag: 'market_unknown', reason: null, note: `Whether it sold at market is not known: ${sale.values.saleType.display}.` });
  } else if (sale.marketStatus === 'no_price') {
    screens.push({ flag: 'no_price', reason: criteria.armsLengthOnly ? 'non_market' : null, note: `Non-market or no price: ${sale.values.saleType.display}.` });
  } else if (!sale.market) {
    screens.push({ flag: 'non_market', reason: criteria.armsLengthOnly ? 'non_market' : null, note: `Not arm’s length: ${sale.values.saleType.display}.` });
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
  const copiedArea = [
    ...(ctx.subject && isCopied(ctx.subject, 'gla') ? ['the subject'] : []),
    ...(isCopied(sale, 'gla') ? ['this sale'] : []),
  ];
  if (gla === null) {
    screens.push({ flag: 'no_living_area', reason: 'data', note: 'No building area in the sample: its size cannot be compared with the subject’s.' });
  } else if (subjectGla !== null && subjectGla > 0 && copiedArea.length > 0) {
    // A copied value drives no numbers (synthetic-use.ts): nor does it screen a sale out.
    screens.push({
      flag: 'size_not_compared',
      reason: null,
      note: `Size not compared with the ±${criteria.livingAreaBandPct} % band: the area of ${copiedArea.join(' and ')} is copied from another house (synthetic), and a copied value screens nothing out.`,
    });
  } else if (subjectGla !== null && subjectGla > 0) {
    const band = livingAreaBand(subjectGla, criteria.livingAreaBandPct);
    if (gla < band.low || gla > band.high) {
      screens.push({
        flag: 'outside_area_band',
        reason: 'size',
        note: `${capitalise(areaMeasureWords[sale.areaMeasure ?? 'unstated'].value)} ${sqft(gla)}, outside ${formatCount(band.low)}–${sqft(band.high)} (±${criteria.livingAreaBandPct} % of the subject’s ${sqft(subjectGla)}).`,
      });
    }
  }
  if (location?.approximate) screens.push({ flag: 'approximate_location', reason: null, note: 'Located at its tax square’s centroid (approximate).' });
  if (sale.syntheticCharacteristics) screens.push({ flag: 'synthetic_characteristics', reason: null, note: 'Building characteristics are synthetic (copied by the sample from a DC CAMA record near the lot’s tax square).' });
  return screens;
}

// Plat's default reason is the first that applies, the plainest first: a second listing of a sale is
// out whatever else it is; then a sale not at market, a deed over several lots (its price is not one
// lot's), a sale without a date.
const SCREEN_ORDER: readonly NotUsedReason[] = ['duplicate', 'non_market', 'multi_parcel', 'no_date', 'date', 'property_type', 'proximity', 'size', 'data'];

function screenedOutOf(screens: readonly Screen[]): ComparableSale['screenedOut'] {
  for (const reason of SCREEN_ORDER) {
    const screen = screens.find((s) => s.reason === reason);
    if (screen) return { reason, note: screen.note };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Sales against each other: duplicates and multi-parcel deeds

const addressKey = (address: string) => address.toUpperCase().replace(/\s+/g, ' ').trim();
const sslKey = (ssl: string) => ssl.toUpperCase().replace(/\s+/g, ' ').trim();

/** The lot a sale is of: its SSL, else its property (when the answer names one apart from the sale record), else its address. */
function lotKey(read: SaleRead): string | null {
  if (read.ssl !== null) return `ssl:${sslKey(read.ssl)}`;
  const { sale } = read;
  if (sale.propertyRef !== sale.recordRef) return `ref:${sale.propertyRef}`;
  return sale.values.address.status !== 'unavailable' ? `address:${addressKey(sale.address)}` : null;
}

/** A deed's recordation date and price: dated, priced sales only (a price of 0 says nothing about a deed). */
const deedKey = (sale: ComparableSale): string | null => (sale.saleDate !== null && sale.priceDollars > 0 ? `${sale.saleDate}|${sale.priceDollars}` : null);

function relatedLotOf(read: SaleRead): RelatedLot {
  const { sale } = read;
  return {
    candidateId: sale.id,
    address: sale.address,
    ssl: read.ssl,
    recordRef: sale.recordRef,
    useCode: read.useCode,
    citationIds: [...new Set([...sale.values.salePrice.citationIds, ...sale.values.saleDate.citationIds])],
  };
}

/** "1719 CORCORAN ST NW (SSL 0156 0082)" */
export function relatedLotWords(lot: RelatedLot): string {
  const ssl = lot.ssl !== null ? `SSL ${lot.ssl}` : `record ${lot.recordRef}`;
  return `${lot.address} (${ssl}${lot.useCode !== null ? `, use code ${lot.useCode}` : ''})`;
}

/** A lot's tax square (with its suffix) from its canonical SSL ("0134    0158" → "0134"), or null. */
const squareOf = (ssl: string | null): string | null => (ssl === null ? null : (ssl.trim().split(/\s+/)[0] ?? null));

function multiParcelNote(sale: ComparableSale, ownSsl: string | null, others: readonly RelatedLot[]): string {
  const day = sale.saleDate !== null ? formatDay(sale.saleDate) : '';
  const lots = others.map(relatedLotWords).join('; ');
  const where = others.length === 1 ? 'another lot' : `${others.length} other lots`;
  const square = squareOf(ownSsl);
  // Lots of one deed are nearly always in one square; the same day and price on a lot squares away may be chance.
  const apart = square !== null && others.some((lot) => lot.ssl !== null && squareOf(lot.ssl) !== square);
  const meaning = apart
    ? 'Lots in different squares: one deed over lots apart, or the same day and price by chance; the deed says which.'
    : 'One deed over several lots: the price is not this lot’s alone.';
  return `Multi-parcel sale: the same recordation date (${day}) and price (${priceDisplay(sale.priceDollars)}) are recorded on ${where}: ${lots}. ${meaning}`;
}

/**
 * Screens every sale the answer holds, in the answer's order, and sets its `flags`, `screenedOut`
 * and `relatedLots`. The first listing of a sale is the one used; a later one (the same record, or the
 * same lot, date and price under another record) is a duplicate, its id made unique for choosing.
 */
export function screenSales(reads: readonly SaleRead[], ctx: ScreenContext, cite: Cite): void {
  const firstByRef = new Map<string, SaleRead>();
  const firstByLotSale = new Map<string, SaleRead>();
  const copiesByRef = new Map<string, number>();
  const originals: SaleRead[] = [];
  const screensById = new Map<string, Screen[]>();
  for (const read of reads) {
    const { sale } = read;
    const screens = criteriaScreens(read, ctx);
    const copies = (copiesByRef.get(sale.recordRef) ?? 0) + 1;
    copiesByRef.set(sale.recordRef, copies);
    if (copies > 1) sale.id = `${sale.recordRef}#${copies}`;
    const lot = lotKey(read);
    const deed = deedKey(sale);
    const lotSale = lot !== null && deed !== null ? `${lot}|${deed}` : null;
    const first = firstByRef.get(sale.recordRef) ?? (lotSale === null ? undefined : firstByLotSale.get(lotSale));
    if (first) {
      screens.unshift({
        flag: 'duplicate_record',
        reason: 'duplicate',
        note: `A duplicate record of one sale: the same sale as ${first.sale.address} (record ${first.sale.recordRef}), listed first.`,
      });
    } else {
      firstByRef.set(sale.recordRef, read);
      if (lotSale !== null) firstByLotSale.set(lotSale, read);
      originals.push(read);
    }
    screensById.set(sale.id, screens);
  }

  // One deed over several lots: the same date and price on more than one lot among the first listings.
  const byDeed = new Map<string, SaleRead[]>();
  for (const read of originals) {
    const deed = deedKey(read.sale);
    if (deed === null) continue;
    byDeed.set(deed, [...(byDeed.get(deed) ?? []), read]);
  }
  const lotsById = new Map<string, RelatedLot[]>();
  for (const group of byDeed.values()) {
    const lots = new Set(group.map((read) => lotKey(read) ?? read.sale.recordRef));
    if (lots.size < 2) continue;
    for (const read of group) {
      const own = lotKey(read) ?? read.sale.recordRef;
      lotsById.set(read.sale.id, group.filter((other) => (lotKey(other) ?? other.sale.recordRef) !== own).map(relatedLotOf));
    }
  }
  // Beyond the answer: what kept record searches by the deed's date and price name (never guessed).
  for (const read of originals) {
    const checked = lotsFromChecks(read.sale, read.ssl, ctx.lotAnswers ?? [], cite);
    if (checked === null) continue;
    read.sale.lotsChecked = true;
    const known = lotsById.get(read.sale.id) ?? [];
    const isKnown = (lot: RelatedLot) => known.some((k) => (k.ssl !== null && lot.ssl !== null ? sslKey(k.ssl) === sslKey(lot.ssl) : k.recordRef === lot.recordRef));
    const more = checked.filter((lot) => !isKnown(lot));
    if (known.length + more.length > 0) lotsById.set(read.sale.id, [...known, ...more]);
  }
  for (const read of originals) {
    const others = lotsById.get(read.sale.id);
    if (!others) continue;
    read.sale.relatedLots = others;
    screensById.get(read.sale.id)?.push({ flag: 'multi_parcel', reason: 'multi_parcel', note: multiParcelNote(read.sale, read.ssl, others) });
  }

  for (const read of reads) {
    const screens = screensById.get(read.sale.id) ?? [];
    read.sale.screens = screens;
    read.sale.flags = [...new Set(screens.map((s) => s.flag))];
    read.sale.screenedOut = screenedOutOf(screens);
  }
}

/**
 * What the set's reader should know about the multi-parcel screen: it sees only the lots the answer
 * holds. Said when the search asked the service for the subject's use code only (a deed's other lots
 * are often a parking space or a vacant lot of another use).
 */
export function screeningLimitations(criteria: CompSearchCriteria, subjectUseCode: string | null): string[] {
  const radius = criteria.area.kind === 'radius' ? `${criteria.area.radiusMiles} mi` : 'the searched radius';
  const filtered = criteria.sameUseCode && subjectUseCode !== null;
  return [
    filtered
      ? `Multi-parcel sales are found among the sales this search returned: it asked for use code ${subjectUseCode} only, so another lot of the same deed of another use (a parking space, a vacant lot) or beyond ${radius} is not seen unless the sale is checked (a record search by its date and price, priced) or the search asks for any property type.`
      : `Multi-parcel sales are found among the sales this search returned: another lot of the same deed beyond ${radius} is not seen unless the sale is checked (a record search by its date and price, priced).`,
  ];
}

// ---------------------------------------------------------------------------------------------
// What the appraiser did with the screens

/** Whether Plat screened the sale out (it is not chosen without a written reason, nor analyzed). */
export const isScreenedOut = (sale: ComparableSale): boolean => sale.screenedOut !== null;

/** The appraiser's written reason for taking a screened-out sale in, or null. */
export function takenInAct(sale: ComparableSale, workfile: Pick<ComparablesWorkfile, 'takenIn'>): { reason: string; at: string } | null {
  return workfile.takenIn?.[sale.id] ?? null;
}

/**
 * Why choosing this sale needs the appraiser's written reason (a screened-out sale not yet taken in),
 * in words for the dialog; null when it may be chosen as it is.
 */
export function takeInNeeded(sale: ComparableSale, workfile: Pick<ComparablesWorkfile, 'takenIn'>): string | null {
  if (sale.screenedOut === null || takenInAct(sale, workfile) !== null) return null;
  return sale.screens.filter((screen) => screen.reason !== null).map((screen) => screen.note).join(' ');
}

/**
 * Screens that keep a sale out of the regression: it is not a market sale of one property in the market
 * area and window. Market status and the sale date the regression judges itself (regression.ts). The
 * living-area band is not one of them: it narrows the choice of comps, while the regression needs the
 * spread of sizes to estimate what size is worth.
 */
const REGRESSION_SCREENS: ReadonlySet<NotUsedReason> = new Set<NotUsedReason>(['multi_parcel', 'duplicate', 'date', 'property_type', 'proximity']);

/** The screen that keeps this sale out of the regression, in words ("multi-parcel sale: …"), whether or not the appraiser took it in; null when none does. */
export function regressionScreen(sale: ComparableSale): string | null {
  const screen = sale.screens.find((candidate) => candidate.reason !== null && REGRESSION_SCREENS.has(candidate.reason));
  if (!screen || screen.reason === null) return null;
  return `${screen.reason === 'multi_parcel' ? 'multi-parcel sale' : notUsedReasonLabels[screen.reason].toLowerCase()}: ${screen.note}`;
}

/**
 * Whether the regression may fit on this sale: null when it may; else why not, in words. A sale Plat
 * screened out is analyzed only when the appraiser took it in with a written reason.
 */
export function analysisExclusion(sale: ComparableSale, workfile: Pick<ComparablesWorkfile, 'takenIn'>): string | null {
  if (takenInAct(sale, workfile) !== null) return null;
  const screen = regressionScreen(sale);
  return screen === null ? null : `screened out by Plat (${screen})`;
}

/** The take-in act in words, for the report and the not-used list: "Taken in by the appraiser on 27 Nov 2026: …". */
export function takenInWords(sale: ComparableSale, workfile: Pick<ComparablesWorkfile, 'takenIn'>): string | null {
  const act = takenInAct(sale, workfile);
  if (act === null || sale.screenedOut === null) return null;
  const day = isIsoDate(act.at.slice(0, 10)) ? ` on ${formatDay(act.at.slice(0, 10))}` : '';
  return `Screened out by Plat (${sale.screenedOut.note}) and taken in by the appraiser${day}: “${act.reason}”`;
}

export const NOT_CHOSEN_NOTE = 'Not chosen by the appraiser.';

/**
 * Every candidate not chosen: the appraiser's reason when given; else Plat's screen when it screened
 * the sale out; else "not chosen by the appraiser", with no reason made up (the appraiser can give one).
 */
export function notUsedEntries(candidates: readonly ComparableSale[], workfile: ComparablesWorkfile): NotUsedEntry[] {
  const chosen = new Set(workfile.chosen);
  return candidates
    .filter((candidate) => !chosen.has(candidate.id))
    .map((candidate): NotUsedEntry => {
      const given = workfile.notUsed[candidate.id];
      if (given) return { candidate, reason: given.reason, note: given.note, by: 'appraiser' };
      if (candidate.screenedOut) return { candidate, reason: candidate.screenedOut.reason, note: candidate.screenedOut.note, by: 'plat' };
      return { candidate, reason: null, note: NOT_CHOSEN_NOTE, by: 'not_chosen' };
    });
}

/** Who decided a sale was not used, in words (list, PDF, exports). */
export const notUsedByLabels: Record<NotUsedEntry['by'], string> = {
  plat: 'Screened out by Plat',
  appraiser: 'The appraiser’s reason',
  not_chosen: 'Not chosen by the appraiser',
};
