// Market conditions for the assignment's market area, shaped after Fannie Mae's Market Conditions
// Addendum (1004MC): for 0–3, 4–6 and 7–12 months before the effective date, and the prior 12 months
// for context, the number of sales, their median price and their median price per square foot where
// the records publish an area, with the trend by a stated rule. Every figure is a derived value with a
// named rule (shared/market/market-rules.ts) and names the sales it was computed from; sales screened
// out (multi-parcel, non-market or no price), sales without a date and sales outside the area or of
// another type are left out and counted. The screen, the report, the CSV and the UAD JSON read this.
import type { Cite } from '../cited/citation-book.ts';
import { derivedValue } from '../cited/derived.ts';
import type { CitedValue } from '../cited/value.ts';
import { searchWindow } from '../comparables/search.ts';
import type { ComparableSale } from '../comparables/model.ts';
import { derive } from '../cited/derivation.ts';
import { median } from './simple-regression.ts';

/** Why a sale is left out of the market's figures (multi-parcel, non-market…), or null when it counts. */
export type ScreenedOut = (sale: ComparableSale) => string | null;

/** Plat's screens (shared/comparables/screening.ts) that keep a sale out of the market's figures: not one market sale of one property. */
const MARKET_SCREENS: ReadonlySet<string> = new Set(['multi_parcel', 'duplicate', 'non_market']);

/**
 * The screening the market figures use: the sale's market reading (non-market, or OTR's price 0
 * "non-market or no price") and Plat's multi-parcel and duplicate screens, whatever else the sale is
 * screened for (the size band and the comps' window do not apply to the market). A sale whose code
 * Plat does not recognise is not screened out (unknown is never "not at market").
 */
export const defaultScreenedOut: ScreenedOut = (sale) => {
  if (sale.marketStatus === 'non_market') return 'Not arm’s length';
  if (sale.marketStatus === 'no_price') return 'Non-market or no price';
  const screen = sale.screens.find((candidate) => candidate.reason !== null && MARKET_SCREENS.has(candidate.reason));
  return screen ? screen.note : null;
};

/** The 1004MC's periods, in months before the effective date: (from, to]. */
export const MARKET_PERIODS = [
  { key: 'months0to3', label: 'Current – 3 months', fromMonths: 0, toMonths: 3 },
  { key: 'months4to6', label: 'Prior 4–6 months', fromMonths: 3, toMonths: 6 },
  { key: 'months7to12', label: 'Prior 7–12 months', fromMonths: 6, toMonths: 12 },
  { key: 'months13to24', label: 'Prior 13–24 months (context)', fromMonths: 12, toMonths: 24 },
] as const;
export type MarketPeriodKey = (typeof MARKET_PERIODS)[number]['key'];

/** The trend: beyond ± this many percent between the two medians is increasing or declining, within it stable. */
export const PRICE_TREND_THRESHOLD_PCT = 5;
/** The count's trend: beyond ± this many percent between the sales of the two half-years. */
export const COUNT_TREND_THRESHOLD_PCT = 10;
/** Fewer sales than this in either half-year: no trend is stated. */
export const MIN_TREND_SALES = 3;

export const TREND_RULE =
  `The median of the sales 0–6 months before the effective date against the median of those 7–12 months before: ` +
  `more than ${PRICE_TREND_THRESHOLD_PCT} % higher is increasing, more than ${PRICE_TREND_THRESHOLD_PCT} % lower declining, else stable; ` +
  `the number of sales the same way (the two half-years compared directly) at ± ${COUNT_TREND_THRESHOLD_PCT} %. ` +
  `No trend is stated with fewer than ${MIN_TREND_SALES} sales in either half-year.`;

/** The area measure behind $/sq ft: DC CAMA publishes gross building area (GBA), not a GLA. */
export const AREA_MEASURE =
  'The building area the records publish (DC CAMA: gross building area, GBA, not gross living area). Areas the sample copied from another house (synthetic) are not published and are left out.';

/** A sale as the market's figures use it, with the citations of its date and price (and area). */
export interface MarketSale {
  id: string;
  address: string;
  saleDate: string;
  /** Days before the effective date (0 on the date). */
  daysBefore: number;
  priceDollars: number;
  /** The published area in sq ft, or null (not published, copied, or none). */
  areaSqft: number | null;
  citationIds: string[];
}

export interface MarketPeriod {
  key: MarketPeriodKey;
  label: string;
  /** First and last day of the period, both included. */
  fromDate: string;
  toDate: string;
  /** False when the sales read do not reach back over the whole period (the search's window is shorter). */
  covered: boolean;
  sales: MarketSale[];
  count: CitedValue;
  medianPrice: CitedValue;
  medianPricePerSqft: CitedValue;
  /** Sales of the period left out of $/sq ft: no published area. */
  withoutPublishedArea: number;
}

export interface LeftOut {
  id: string;
  address: string;
  why: string;
  citationIds: string[];
}

export interface MarketConditions {
  effectiveDate: string;
  /** The market area and property type, in words (the comps search's). */
  marketArea: string;
  propertyType: string | null;
  /** How far back the sales read reach, in months (the search's window); null when unknown. */
  monthsRead: number | null;
  periods: MarketPeriod[];
  trend: { rule: string; price: CitedValue; count: CitedValue; pricePerSqft: CitedValue };
  areaMeasure: string;
  /** Sales left out and why: screened out, no sale date, after the effective date, outside the area or type. */
  leftOut: LeftOut[];
  leftOutCounts: Array<{ why: string; count: number }>;
  /** 1004MC lines the records cannot say, each with why. */
  notAvailable: Array<{ line: string; why: string }>;
  /** Caveats in words (a period the search does not cover). */
  notes: string[];
}

export interface MarketConditionsInput {
  /** The sales read for the market area (the comps search's candidates). */
  sales: readonly ComparableSale[];
  effectiveDate: string;
  marketArea: string;
  propertyType: string | null;
  /** How many months before the effective date the sales read reach (the search's window), or null. */
  monthsRead: number | null;
  /** Which sales are screened out; defaults to today's screening. */
  screenedOut?: ScreenedOut;
  /** The domains the service's catalog covers (its coverage facet), when read: decides what cannot be said. */
  catalogDomains?: readonly string[] | null;
  /** The sales already read by `marketSales` (the trend reads the same): read here when absent. */
  read?: MarketSalesRead;
  cite: Cite;
}

export interface MarketSalesRead {
  used: MarketSale[];
  leftOut: LeftOut[];
}

const DAY_MS = 86_400_000;
/** An ISO date's day number (UTC), read by its digits: thousands of sales are read per recompute. */
const dayNumber = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
/** Whole days from `date` to `effectiveDate` (both ISO dates). */
export const daysBetween = (date: string, effectiveDate: string): number => dayNumber(effectiveDate) - dayNumber(date);

/** The day before an ISO date. */
const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/**
 * A period's days, both included: from the same day `toMonths` months before the effective date
 * (as the comps search's window counts), to the day before the same day `fromMonths` months before
 * it (the effective date itself for the current period). So a 12-month search covers 0–12 exactly.
 */
export function periodDates(effectiveDate: string, fromMonths: number, toMonths: number): { fromDate: string; toDate: string } {
  const fromDate = searchWindow(effectiveDate, toMonths).fromDate;
  const toDate = fromMonths === 0 ? effectiveDate : dayBefore(searchWindow(effectiveDate, fromMonths).fromDate);
  return { fromDate, toDate };
}

function unavailable(field: string, label: string, why: string): CitedValue {
  return { field, label, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: why, alternatives: [], choice: null };
}

const MARKET_LEFT_OUT = { area: 'Outside the market area', type: 'Another property type', undated: 'No sale date', after: 'After the effective date', noPrice: 'No price' } as const;

/** The sale as the figures use it, or why it is left out. */
function readMarketSale(sale: ComparableSale, effectiveDate: string, screenedOut: ScreenedOut): MarketSale | { why: string } {
  if (sale.flags.includes('outside_market_area')) return { why: MARKET_LEFT_OUT.area };
  if (sale.flags.includes('other_use_code')) return { why: MARKET_LEFT_OUT.type };
  const screened = screenedOut(sale);
  if (screened !== null) return { why: `Screened out: ${screened}` };
  if (sale.saleDate === null) return { why: MARKET_LEFT_OUT.undated };
  if (sale.saleDate > effectiveDate) return { why: MARKET_LEFT_OUT.after };
  if (!(sale.priceDollars > 0)) return { why: MARKET_LEFT_OUT.noPrice };
  const gla = sale.values.gla;
  const areaSqft = gla.status === 'reported' && sale.numbers.gla !== null && sale.numbers.gla > 0 ? sale.numbers.gla : null;
  const citationIds = [...new Set([...sale.values.saleDate.citationIds, ...sale.values.salePrice.citationIds])];
  return { id: sale.id, address: sale.address, saleDate: sale.saleDate, daysBefore: daysBetween(sale.saleDate, effectiveDate), priceDollars: sale.priceDollars, areaSqft, citationIds };
}

/** The sales of the market area the figures use, and the ones left out (shared with the trend). */
export function marketSales(sales: readonly ComparableSale[], effectiveDate: string, screenedOut: ScreenedOut = defaultScreenedOut): MarketSalesRead {
  const used: MarketSale[] = [];
  const leftOut: LeftOut[] = [];
  for (const sale of sales) {
    const read = readMarketSale(sale, effectiveDate, screenedOut);
    if ('why' in read) leftOut.push({ id: sale.id, address: sale.address, why: read.why, citationIds: [...new Set([...sale.values.saleDate.citationIds, ...sale.values.salePrice.citationIds])] });
    else used.push(read);
  }
  // Newest first; a day's sales by id, so the order never depends on the answer's.
  used.sort((a, b) => a.daysBefore - b.daysBefore || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { used, leftOut };
}

const saleInputs = (sales: readonly MarketSale[]) => sales.map((sale) => ({ name: `the sale of ${sale.address} on ${sale.saleDate}`, citationIds: sale.citationIds }));

function countValue(period: { key: string; label: string }, sales: readonly MarketSale[], allIds: readonly string[], cite: Cite): CitedValue {
  const derivation = { rule: 'count-of-sales', inputs: sales.map((sale) => sale.id) };
  return derivedValue(
    {
      field: `market.${period.key}.count`,
      label: `Number of sales, ${period.label}`,
      raw: sales.length,
      display: derive(derivation),
      rule: 'The number of the market area’s screened sales of the type dated in the period, by Plat',
      // A period without a sale still rests on the sales read: it cites them.
      inputs: sales.length > 0 ? saleInputs(sales) : [{ name: 'the sales read for the market area', citationIds: allIds }],
      derivation,
    },
    cite,
  );
}

function medianPriceValue(period: { key: string; label: string }, sales: readonly MarketSale[], cite: Cite): CitedValue {
  const field = `market.${period.key}.medianPrice`;
  const label = `Median sale price, ${period.label}`;
  if (sales.length === 0) return unavailable(field, label, 'No sale in this period.');
  const derivation = { rule: 'median-of-dollars', inputs: sales.map((sale) => sale.priceDollars) };
  return derivedValue(
    { field, label, raw: median(derivation.inputs), display: derive(derivation), rule: `The median of ${sales.length} sale prices, by Plat`, inputs: saleInputs(sales), derivation },
    cite,
  );
}

function medianPerSqftValue(period: { key: string; label: string }, sales: readonly MarketSale[], cite: Cite): CitedValue {
  const field = `market.${period.key}.medianPricePerSqft`;
  const label = `Median sale price per sq ft, ${period.label}`;
  const published = sales.filter((sale) => sale.areaSqft !== null);
  const leftOut = sales.length - published.length;
  if (published.length === 0) {
    return unavailable(field, label, sales.length === 0 ? 'No sale in this period.' : `None of the ${sales.length} sales has a published area (copied or missing areas are left out).`);
  }
  const derivation = { rule: 'median-of-price-per-sqft', inputs: published.flatMap((sale) => [sale.priceDollars, sale.areaSqft!]) };
  return derivedValue(
    {
      field,
      label,
      raw: median(published.map((sale) => sale.priceDollars / sale.areaSqft!)),
      display: derive(derivation),
      rule: `The median of sale price ÷ published building area (GBA) over ${published.length} sales, by Plat`,
      inputs: saleInputs(published),
      limitation: leftOut > 0 ? `${leftOut} of the period’s ${sales.length} sales have no published area: left out.` : null,
      derivation,
    },
    cite,
  );
}

function trendValue(
  field: string,
  label: string,
  recent: { figure: number | null; sales: readonly MarketSale[] },
  prior: { figure: number | null; sales: readonly MarketSale[] },
  thresholdPct: number,
  what: string,
  cite: Cite,
): CitedValue {
  if (recent.sales.length < MIN_TREND_SALES || prior.sales.length < MIN_TREND_SALES || recent.figure === null || prior.figure === null || !(prior.figure > 0)) {
    return unavailable(field, label, `Not stated: ${recent.sales.length} sales 0–6 months and ${prior.sales.length} sales 7–12 months before the effective date${what === 'price per sq ft' ? ' with a published area' : ''}; at least ${MIN_TREND_SALES} are needed in each.`);
  }
  const derivation = { rule: 'trend-by-threshold', inputs: [recent.figure, prior.figure, thresholdPct] };
  return derivedValue(
    {
      field,
      label,
      raw: derive(derivation).split(' ')[0]!.toLowerCase(),
      display: derive(derivation),
      rule: `The ${what} 0–6 months before the effective date against 7–12 months before, ± ${thresholdPct} % (${TREND_RULE}), by Plat`,
      inputs: saleInputs([...recent.sales, ...prior.sales]),
      derivation,
    },
    cite,
  );
}

/** What the records cannot say: listings and inventory are no domain of the catalog's coverage. */
function notAvailableLines(domains: readonly string[] | null | undefined): MarketConditions['notAvailable'] {
  const listings = (domains ?? []).some((domain) => /listing|inventory|mls/i.test(domain));
  const why = listings
    ? 'The catalog lists a listings domain, but Plat does not read listings: not available.'
    : domains
      ? `Listings and inventory are not in the records (the catalog covers ${domains.join(', ')}): not available.`
      : 'Listings and inventory are not in the records: not available.';
  return ['Total # of comparable active listings', 'Absorption rate (total sales / months)', 'Months of housing supply', 'Median comparable list price', 'Median days on market', 'Median sale price as % of list price', 'Seller concessions'].map(
    (line) => ({ line, why }),
  );
}

export function marketConditions(input: MarketConditionsInput): MarketConditions {
  const { effectiveDate, cite } = input;
  const { used, leftOut } = input.read ?? marketSales(input.sales, effectiveDate, input.screenedOut ?? defaultScreenedOut);
  const allIds = [...new Set(used.flatMap((sale) => sale.citationIds))];
  const notes: string[] = [];
  const periods: MarketPeriod[] = MARKET_PERIODS.map((period) => {
    const { fromDate, toDate } = periodDates(effectiveDate, period.fromMonths, period.toMonths);
    const sales = used.filter((sale) => sale.saleDate >= fromDate && sale.saleDate <= toDate);
    const covered = input.monthsRead === null || input.monthsRead >= period.toMonths;
    if (!covered) {
      notes.push(`${period.label}: the sales read reach back ${input.monthsRead} months only; widen the search’s period to ${period.toMonths} months to count this period fully.`);
    }
    return {
      key: period.key,
      label: period.label,
      fromDate,
      toDate,
      covered,
      sales,
      count: countValue(period, sales, allIds, cite),
      medianPrice: medianPriceValue(period, sales, cite),
      medianPricePerSqft: medianPerSqftValue(period, sales, cite),
      withoutPublishedArea: sales.filter((sale) => sale.areaSqft === null).length,
    };
  });
  const [p0, p1, p2] = periods as [MarketPeriod, MarketPeriod, MarketPeriod, MarketPeriod];
  const recent = [...p0.sales, ...p1.sales];
  const prior = p2.sales;
  const area = (sales: readonly MarketSale[]) => sales.filter((sale) => sale.areaSqft !== null);
  const perSqft = (sales: readonly MarketSale[]) => median(area(sales).map((sale) => sale.priceDollars / sale.areaSqft!));
  const price = (sales: readonly MarketSale[]) => median(sales.map((sale) => sale.priceDollars));
  const trend = {
    rule: TREND_RULE,
    price: trendValue('market.trend.medianPrice', 'Median sale price trend', { figure: price(recent), sales: recent }, { figure: price(prior), sales: prior }, PRICE_TREND_THRESHOLD_PCT, 'median sale price', cite),
    count: trendValue('market.trend.count', 'Number of sales trend', { figure: recent.length, sales: recent }, { figure: prior.length, sales: prior }, COUNT_TREND_THRESHOLD_PCT, 'number of sales', cite),
    pricePerSqft: trendValue(
      'market.trend.medianPricePerSqft',
      'Median sale price per sq ft trend',
      { figure: perSqft(recent), sales: area(recent) },
      { figure: perSqft(prior), sales: area(prior) },
      PRICE_TREND_THRESHOLD_PCT,
      'price per sq ft',
      cite,
    ),
  };
  const counts = new Map<string, number>();
  for (const entry of leftOut) counts.set(entry.why, (counts.get(entry.why) ?? 0) + 1);
  return {
    effectiveDate,
    marketArea: input.marketArea,
    propertyType: input.propertyType,
    monthsRead: input.monthsRead,
    periods,
    trend,
    areaMeasure: AREA_MEASURE,
    leftOut,
    leftOutCounts: [...counts].map(([why, count]) => ({ why, count })).sort((a, b) => b.count - a.count || (a.why < b.why ? -1 : 1)),
    notAvailable: notAvailableLines(input.catalogDomains),
    notes,
  };
}
