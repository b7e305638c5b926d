// Adjustment support: a suggestion for each rate from the sales the search returned, by multiple
// regression of sale price on the features (ordinary least squares with an intercept), each with its
// 95 % confidence interval and the sales it rests on. The appraiser accepts a suggestion or keeps
// their own rate; the report prints the support beside each rate.
//
// The algebra is ml-regression-multivariate-linear's and the t quantiles are jStat's: Plat only
// chooses the sales and the predictors, and turns coefficients into rates in the grid's own sign
// convention (adjustments.ts).
import MultivariateLinearRegression from 'ml-regression-multivariate-linear';
import jStat from 'jstat';
import { calendarDateOf } from '../format-date.ts';
import { formatDollars } from '../money.ts';
import { monthsBetween } from './adjustments.ts';
import { rateKeys, type ComparableSale, type RateKey, type RateSuggestion, type RegressionSupport } from './model.ts';

/** A sale the regression may use: arm's length, dated, priced, with a living area. */
interface UsableSale {
  sale: ComparableSale;
  /** Months from the sale to the effective date. */
  months: number;
}

interface Predictor {
  rate: RateKey;
  /** The predictor in words, for the method and the reasons. */
  name: string;
  value: (sale: UsableSale, effectiveYear: number) => number | null;
}

// In the order they are kept: when two cannot be told apart the first stays, and when the sales
// support fewer predictors than vary, the first ones (those appraisers adjust for most) are fitted.
const predictors: Predictor[] = [
  { rate: 'glaPerSqft', name: 'gross living area (sq ft)', value: ({ sale }) => sale.numbers.gla },
  { rate: 'timePctPerMonth', name: 'months since sale', value: ({ months }) => months },
  { rate: 'perYearOfAge', name: 'age (years)', value: ({ sale }, year) => (sale.numbers.yearBuilt === null ? null : year - sale.numbers.yearBuilt) },
  { rate: 'perBath', name: 'baths (half baths count ½)', value: ({ sale }) => sale.numbers.baths },
  { rate: 'perBedroom', name: 'bedrooms', value: ({ sale }) => sale.numbers.bedrooms },
  { rate: 'perGradeStep', name: 'grade step', value: ({ sale }) => sale.numbers.gradeStep },
  { rate: 'perConditionStep', name: 'condition step', value: ({ sale }) => sale.numbers.conditionStep },
];

/** A predictor missing on at most this share of the sales costs those sales; missing on more, it is left out. */
const MAX_SHARE_OF_SALES_DROPPED = 0.1;
/** The regression needs this many more sales than predictors (the intercept and four degrees of freedom): fewer make intervals too wide to support anything. */
const SALES_BEYOND_PREDICTORS = 5;
/** A predictor the others explain to within this (1 − R²) cannot be told apart from them. */
const COLLINEAR_TOLERANCE = 1e-8;
const CONFIDENCE = 0.95;

const METHOD_LIBRARIES =
  'Fitted with ml-regression-multivariate-linear; 95 % confidence intervals from Student’s t quantiles computed with jStat.';

function noSuggestion(rate: RateKey, why: string): RateSuggestion {
  return { rate, value: null, ciLow: null, ciHigh: null, coefficient: null, stdError: null, why };
}

function allWithout(why: string): Record<RateKey, RateSuggestion> {
  return Object.fromEntries(rateKeys.map((rate) => [rate, noSuggestion(rate, why)])) as Record<RateKey, RateSuggestion>;
}

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
  return rounded === 0 ? 0 : rounded;
};

/** Why a sale cannot be used, or null when it can. */
function exclusionReason(sale: ComparableSale): string | null {
  const reasons: string[] = [];
  if (sale.marketStatus === 'unknown') reasons.push('whether it sold at market is not recognised by Plat');
  else if (!sale.market) reasons.push('not arm’s length');
  if (sale.saleDate === null) reasons.push('no sale date');
  else if (calendarDateOf(sale.saleDate) === null) reasons.push(`sale date "${sale.saleDate}" is not a calendar date`);
  if (sale.priceDollars <= 0) reasons.push(`sale price ${formatDollars(sale.priceDollars)} (non-market or no price)`);
  if (sale.numbers.gla === null || sale.numbers.gla <= 0) reasons.push('no living area');
  return reasons.length > 0 ? reasons.join('; ') : null;
}

/** 1 − SSres/SStot of fitted values against observed ones. */
function rSquared(observed: number[], fitted: number[]): number {
  const mean = observed.reduce((sum, value) => sum + value, 0) / observed.length;
  let residual = 0;
  let total = 0;
  observed.forEach((value, index) => {
    residual += (value - (fitted[index] ?? Number.NaN)) ** 2;
    total += (value - mean) ** 2;
  });
  return total === 0 ? Number.NaN : 1 - residual / total;
}

/** R² of one predictor's column explained by the others (with an intercept): near 1 means it adds nothing of its own. */
function explainedByOthers(columns: number[][], index: number): number {
  const rows = columns[0]?.length ?? 0;
  const others = columns.filter((_, column) => column !== index);
  const target = columns[index] ?? [];
  const x = Array.from({ length: rows }, (_, row) => others.map((column) => column[row] ?? Number.NaN));
  const model = new MultivariateLinearRegression(x, target.map((value) => [value]), { intercept: true, statistics: false });
  const fitted = model.predict(x).map((row) => row[0] ?? Number.NaN);
  return rSquared(target, fitted);
}

/**
 * Suggested rates from the candidates: sales that are arm's length, dated, priced and have a living
 * area; predictors that vary across them and are known on all of them. Nothing is suggested (and
 * `message` says why) when there are too few sales for the predictors.
 */
export function regressionSupport(candidates: ComparableSale[], effectiveDate: string): RegressionSupport {
  const excluded: RegressionSupport['excluded'] = [];
  const effectiveDay = calendarDateOf(effectiveDate);
  const empty = (message: string, method = 'Ordinary least squares of sale price on the sales’ features, with an intercept (not run).'): RegressionSupport => ({
    method,
    n: 0,
    r2: null,
    adjustedR2: null,
    predictors: [],
    suggestions: allWithout(message),
    salesUsed: [],
    excluded,
    message,
  });
  if (effectiveDay === null) return empty(`The effective date "${effectiveDate}" is not a calendar date: set it in the assignment to compute adjustment support.`);
  const effectiveYear = Number(effectiveDay.slice(0, 4));

  let usable: UsableSale[] = [];
  for (const sale of candidates) {
    const why = exclusionReason(sale);
    if (why !== null) excluded.push({ id: sale.id, address: sale.address, why });
    else usable.push({ sale, months: monthsBetween(sale.saleDate as string, effectiveDay) });
  }
  if (usable.length === 0) {
    return empty(
      candidates.length === 0
        ? 'The search returned no sales: nothing to compute adjustment support from.'
        : 'None of the sales the search returned is arm’s length, dated and priced with a living area: nothing to compute adjustment support from.',
    );
  }

  // Predictors missing on a few sales cost those sales; missing on many, the predictor is left out.
  const why = new Map<RateKey, string>();
  const kept: Predictor[] = [];
  const salesMissing = new Map<string, string[]>();
  const base = usable.length;
  for (const predictor of predictors) {
    const missing = usable.filter((sale) => predictor.value(sale, effectiveYear) === null);
    if (missing.length === 0) kept.push(predictor);
    else if (missing.length <= Math.floor(base * MAX_SHARE_OF_SALES_DROPPED)) {
      kept.push(predictor);
      for (const { sale } of missing) salesMissing.set(sale.id, [...(salesMissing.get(sale.id) ?? []), predictor.name]);
    } else {
      why.set(
        predictor.rate,
        `${capitalize(predictor.name)} is not in the sample for ${missing.length} of ${base} sales: left out of the regression rather than leaving out those sales.`,
      );
    }
  }
  if (salesMissing.size > 0) {
    usable = usable.filter(({ sale }) => {
      const lacking = salesMissing.get(sale.id);
      if (lacking) excluded.push({ id: sale.id, address: sale.address, why: `${lacking.join(', ')} not in the sample` });
      return !lacking;
    });
  }

  // A predictor that does not vary says nothing.
  let used = kept.filter((predictor) => {
    const first = predictor.value(usable[0] as UsableSale, effectiveYear);
    if (usable.every((sale) => predictor.value(sale, effectiveYear) === first)) {
      why.set(predictor.rate, `All ${usable.length} sales have ${predictor.name} = ${round(first ?? 0, 2)}: nothing to estimate it from.`);
      return false;
    }
    return true;
  });

  const n = usable.length;
  const needed = (count: number) => count + SALES_BEYOND_PREDICTORS;
  if (used.length === 0 || n < needed(1)) {
    const message =
      used.length === 0
        ? `No feature varies across the ${n} usable sales: nothing to estimate.`
        : `${n} usable sale${n === 1 ? '' : 's'}: at least ${needed(1)} are needed to estimate even one rate. Widen the search to get more sales.`;
    return { ...empty(message), suggestions: withReasons(allWithout(message), why) };
  }
  // Fewer sales than the varying features need: fit the first ones, say why the rest are not estimated.
  const supported = n - SALES_BEYOND_PREDICTORS;
  if (used.length > supported) {
    for (const predictor of used.slice(supported)) {
      why.set(
        predictor.rate,
        `Not estimated: ${n} usable sales support at most ${supported} predictor${supported === 1 ? '' : 's'} (${SALES_BEYOND_PREDICTORS} more sales than predictors are needed); ${used
          .slice(0, supported)
          .map((p) => p.name)
          .join(', ')} came first. Widen the search to estimate it.`,
      );
    }
    used = used.slice(0, supported);
  }

  // Predictors the others explain entirely cannot be told apart from them: the later ones go.
  const columnOf = (predictor: Predictor) => usable.map((sale) => predictor.value(sale, effectiveYear) as number);
  for (let index = used.length - 1; index >= 0 && used.length > 1; index--) {
    const predictor = used[index] as Predictor;
    if (1 - explainedByOthers(used.map(columnOf), index) < COLLINEAR_TOLERANCE) {
      const others = used.filter((other) => other !== predictor).map((other) => other.name);
      why.set(predictor.rate, `In these ${n} sales ${predictor.name} is fixed by ${others.join(', ')}: its own effect cannot be told apart.`);
      used = used.filter((other) => other !== predictor);
    }
  }

  const x = usable.map((sale) => used.map((predictor) => predictor.value(sale, effectiveYear) as number));
  const prices = usable.map(({ sale }) => sale.priceDollars);
  const model = new MultivariateLinearRegression(x, prices.map((price) => [price]), { intercept: true, statistics: true });
  const fitted = model.predict(x).map((row) => row[0] ?? Number.NaN);
  const r2 = rSquared(prices, fitted);
  const p = used.length;
  const df = n - p - 1;
  const adjustedR2 = 1 - ((1 - r2) * (n - 1)) / df;
  const t = jStat.studentt.inv(1 - (1 - CONFIDENCE) / 2, df);
  const meanPrice = prices.reduce((sum, price) => sum + price, 0) / n;

  const suggestions = withReasons(allWithout('Not a predictor in the regression.'), why);
  for (const [index, predictor] of used.entries()) {
    const coefficient = model.weights[index]?.[0] ?? Number.NaN;
    const stdError = model.stdErrors[index] ?? Number.NaN;
    if (!Number.isFinite(coefficient) || !Number.isFinite(stdError)) {
      suggestions[predictor.rate] = noSuggestion(predictor.rate, 'The regression gave no finite estimate for it.');
      continue;
    }
    suggestions[predictor.rate] = { rate: predictor.rate, ...toRate(predictor.rate, coefficient, stdError, t, meanPrice), coefficient, stdError, why: null };
  }

  const method =
    `Ordinary least squares of sale price on ${used.map((predictor) => predictor.name).join(', ')}, with an intercept, over ${n} arm’s-length dated sales the search returned ` +
    `(${df} degrees of freedom, t = ${t.toFixed(3)}). ${METHOD_LIBRARIES} Months since sale = days from the sale to the effective date ${effectiveDay} ÷ 30.4375. ` +
    `Rates in the grid’s sense: the time rate is −(coefficient of months since sale) ÷ the mean sale price ${formatDollars(Math.round(meanPrice))} × 100 (% per month); ` +
    `the age rate is −(coefficient of age), so older is worth less for a positive rate; the others are the coefficients (dollars per unit).`;

  return {
    method,
    n,
    r2: Number.isFinite(r2) ? r2 : null,
    adjustedR2: Number.isFinite(adjustedR2) ? adjustedR2 : null,
    predictors: used.map((predictor) => predictor.rate),
    suggestions,
    salesUsed: salesUsedOf(usable),
    excluded,
    message: null,
  };
}

/**
 * A coefficient and its interval in the rate's own unit and sign: dollars per unit for features,
 * −coefficient per year of age, and −coefficient ÷ mean price × 100 for time (% per month). A sign
 * flip swaps the interval's ends. Rates are rounded as an appraiser writes them: whole dollars, and
 * hundredths of a percent for time.
 */
function toRate(rate: RateKey, coefficient: number, stdError: number, t: number, meanPrice: number) {
  const low = coefficient - t * stdError;
  const high = coefficient + t * stdError;
  if (rate === 'timePctPerMonth') {
    const scale = (value: number) => round((-value / meanPrice) * 100, 2);
    return { value: scale(coefficient), ciLow: scale(high), ciHigh: scale(low) };
  }
  if (rate === 'perYearOfAge') return { value: round(-coefficient, 0), ciLow: round(-high, 0), ciHigh: round(-low, 0) };
  return { value: round(coefficient, 0), ciLow: round(low, 0), ciHigh: round(high, 0) };
}

function withReasons(suggestions: Record<RateKey, RateSuggestion>, why: Map<RateKey, string>): Record<RateKey, RateSuggestion> {
  for (const [rate, reason] of why) suggestions[rate] = noSuggestion(rate, reason);
  return suggestions;
}

function salesUsedOf(usable: UsableSale[]): RegressionSupport['salesUsed'] {
  return usable.map(({ sale }) => ({
    id: sale.id,
    address: sale.address,
    priceDollars: sale.priceDollars,
    saleDate: sale.saleDate,
    citationIds: sale.values.salePrice.citationIds,
  }));
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
