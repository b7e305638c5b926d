// Adjustment support: a suggestion for each rate from the sales the search returned, by multiple
// regression of sale price on the features (ordinary least squares with an intercept), each with its
// 95 % confidence interval, the sales it rests on and its standing (regression-standing.ts): only a
// supported suggestion is offered; the others show why not. The appraiser accepts a suggestion or
// keeps their own rate; the report prints the support beside each rate.
//
// A predictor counts only where it is observed on the sale itself: a value the sample copied from
// another house is missing unless the appraiser accepted copied values for that row (synthetic-use.ts).
// Plat only chooses the sales and the predictors; the fit is shared/stats/ols.ts.
import { calendarDateOf } from '../format-date.ts';
import { formatDollars } from '../money.ts';
import { explainedByOthers, olsFit, rateEstimate } from '../stats/ols.ts';
import { monthsBetween } from './adjustments.ts';
import {
  rateKeys,
  rateRow,
  type AnalyzedSale,
  type ComparableSale,
  type ComparablesWorkfile,
  type GridRowKey,
  type PredictorSource,
  type RateKey,
  type RateSuggestion,
  type RegressionSupport,
} from './model.ts';
import { regressionFigures, rateScale } from './regression-figures.ts';
import { suggestionStanding } from './regression-standing.ts';
import { drivesNumbers, syntheticAcceptanceFor } from './synthetic-use.ts';

export interface RegressionOptions {
  /** Plat's screening (multi-parcel, duplicate …): why a sale stays out of the regression, or null. */
  excludedBy?: (sale: ComparableSale) => string | null;
  /** The appraiser's acts: copied values accepted per row, screened sales taken in. */
  workfile?: Pick<ComparablesWorkfile, 'syntheticAccepted' | 'takenIn'>;
}

/** A sale the regression may use: arm's length, dated, priced. */
interface UsableSale {
  sale: ComparableSale;
  /** Months from the sale to the effective date. */
  months: number | null;
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
  { rate: 'glaPerSqft', name: 'gross living area (sq ft)', value: ({ sale }) => (sale.numbers.gla === null || sale.numbers.gla <= 0 ? null : sale.numbers.gla) },
  { rate: 'timePctPerMonth', name: 'months since sale', value: ({ months }) => months },
  { rate: 'perYearOfAge', name: 'age (years)', value: ({ sale }, year) => (sale.numbers.yearBuilt === null ? null : year - sale.numbers.yearBuilt) },
  { rate: 'perBath', name: 'baths (half baths count ½)', value: ({ sale }) => sale.numbers.baths },
  { rate: 'perBedroom', name: 'bedrooms', value: ({ sale }) => sale.numbers.bedrooms },
  { rate: 'perGradeStep', name: 'grade step', value: ({ sale }) => sale.numbers.gradeStep },
  { rate: 'perConditionStep', name: 'condition step', value: ({ sale }) => sale.numbers.conditionStep },
];

/** Each predictor in words, as the method, the reasons and the exports name it. */
export const predictorNames = Object.fromEntries(predictors.map((predictor) => [predictor.rate, predictor.name])) as Record<RateKey, string>;

/** A predictor missing on at most this share of the sales costs those sales; missing on more, it is left out. */
const MAX_SHARE_OF_SALES_DROPPED = 0.1;
/** The regression needs this many more sales than predictors (the intercept and four degrees of freedom) to be fitted at all. */
const SALES_BEYOND_PREDICTORS = 5;
/** A predictor the others explain to within this (1 − R²) cannot be told apart from them. */
const COLLINEAR_TOLERANCE = 1e-8;

const METHOD_LIBRARIES =
  'Fitted with ml-regression-multivariate-linear; 95 % confidence intervals from Student’s t quantiles computed with jStat.';

function noSuggestion(rate: RateKey, why: string): RateSuggestion {
  const bare = { rate, value: null, ciLow: null, ciHigh: null, coefficient: null, stdError: null, why };
  return { ...bare, standing: suggestionStanding(bare, { n: 0, p: 0, copiedAccepted: {} }) };
}

function allWithout(why: string): Record<RateKey, RateSuggestion> {
  return Object.fromEntries(rateKeys.map((rate) => [rate, noSuggestion(rate, why)])) as Record<RateKey, RateSuggestion>;
}

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
  return rounded === 0 ? 0 : rounded;
};

/** Why a sale cannot be used at all, or null when it can. */
function exclusionReason(sale: ComparableSale): string | null {
  const reasons: string[] = [];
  if (sale.marketStatus === 'unknown') reasons.push('whether it sold at market is not recognised by Plat');
  else if (!sale.market) reasons.push('not arm’s length');
  if (sale.saleDate === null) reasons.push('no sale date');
  else if (calendarDateOf(sale.saleDate) === null) reasons.push(`sale date "${sale.saleDate}" is not a calendar date`);
  if (sale.priceDollars <= 0) reasons.push(`sale price ${formatDollars(sale.priceDollars)} (non-market or no price)`);
  return reasons.length > 0 ? reasons.join('; ') : null;
}

/** The grid row a predictor's value is read from (time is the sale's own date: always observed). */
const rowOf = (rate: RateKey): GridRowKey | null => (rate === 'timePctPerMonth' ? null : rateRow[rate]);

/** A predictor's value on a sale and where it comes from. */
function observe(predictor: Predictor, sale: UsableSale, year: number, workfile: RegressionOptions['workfile']): { value: number | null; source: PredictorSource } {
  const value = predictor.value(sale, year);
  const row = rowOf(predictor.rate);
  if (value === null) return { value: null, source: 'missing' };
  if (row === null) return { value, source: 'observed' };
  const status = sale.sale.values[row].status;
  if (status === 'unavailable') return { value: null, source: 'missing' };
  if (status !== 'synthetic') return { value, source: 'observed' };
  return { value, source: drivesNumbers(sale.sale, row, workfile ?? {}) ? 'copied-accepted' : 'copied' };
}

const fits = (source: PredictorSource) => source === 'observed' || source === 'copied-accepted';

/**
 * Suggested rates from the candidates: sales that are arm's length, dated and priced and not
 * screened out; predictors that vary across them and are observed (or copied and accepted) on all of
 * them. Nothing is suggested (and `message` says why) when there are too few sales for the predictors.
 */
export function regressionSupport(candidates: ComparableSale[], effectiveDate: string, options: RegressionOptions = {}): RegressionSupport {
  const { workfile } = options;
  const excluded: RegressionSupport['excluded'] = [];
  const effectiveDay = calendarDateOf(effectiveDate);
  const effectiveYear = effectiveDay === null ? Number.NaN : Number(effectiveDay.slice(0, 4));
  const takenInReason = (sale: ComparableSale) => workfile?.takenIn?.[sale.id]?.reason ?? null;

  // Every sale analyzed, with every predictor's value, for the method, the exports and a reviewer's refit.
  const monthsOf = (sale: ComparableSale) =>
    effectiveDay !== null && sale.saleDate !== null && calendarDateOf(sale.saleDate) !== null ? monthsBetween(sale.saleDate, effectiveDay) : null;
  const analyzed = new Map<string, AnalyzedSale>(
    candidates.map((sale) => {
      const usable = { sale, months: monthsOf(sale) };
      const values = Object.fromEntries(
        rateKeys.map((rate) => [rate, observe(predictors.find((p) => p.rate === rate) as Predictor, usable, effectiveYear, workfile)]),
      ) as AnalyzedSale['values'];
      return [sale.id, { id: sale.id, address: sale.address, saleDate: sale.saleDate, priceDollars: sale.priceDollars, used: false, why: null, takenIn: null, values }];
    }),
  );
  const leaveOut = (sale: ComparableSale, why: string) => {
    excluded.push({ id: sale.id, address: sale.address, why });
    const row = analyzed.get(sale.id);
    if (row) row.why = why;
  };
  const finish = (support: Omit<RegressionSupport, 'analyzed'>): RegressionSupport => ({ ...support, analyzed: [...analyzed.values()] });
  const empty = (message: string, method = 'Ordinary least squares of sale price on the sales’ features, with an intercept (not run).'): RegressionSupport =>
    finish({ method, n: 0, r2: null, adjustedR2: null, predictors: [], suggestions: allWithout(message), salesUsed: [], excluded, fit: null, figures: null, message });
  if (effectiveDay === null) return empty(`The effective date "${effectiveDate}" is not a calendar date: set it in the assignment to compute adjustment support.`);

  let usable: UsableSale[] = [];
  const takenIn: string[] = [];
  for (const sale of candidates) {
    const screened = options.excludedBy?.(sale) ?? null;
    const taken = screened === null ? null : takenInReason(sale);
    if (taken !== null) {
      takenIn.push(`${sale.address} (${screened}; taken in by the appraiser: ${taken})`);
      const row = analyzed.get(sale.id);
      if (row) row.takenIn = taken;
    }
    const why = [screened !== null && taken === null ? `screened out by Plat: ${screened}` : null, exclusionReason(sale)].filter((reason) => reason !== null).join('; ');
    if (why !== '') leaveOut(sale, why);
    else usable.push({ sale, months: monthsOf(sale) });
  }
  if (usable.length === 0) {
    return empty(
      candidates.length === 0
        ? 'The search returned no sales: nothing to compute adjustment support from.'
        : 'None of the sales the search returned is arm’s length, dated and priced and not screened out: nothing to compute adjustment support from.',
    );
  }

  // Predictors not observed on a few sales cost those sales; on many, the predictor is left out.
  const why = new Map<RateKey, string>();
  const leftOutWords: string[] = [];
  const kept: Predictor[] = [];
  const salesMissing = new Map<string, string[]>();
  const base = usable.length;
  const sourceOf = (sale: UsableSale, predictor: Predictor) => analyzed.get(sale.sale.id)?.values[predictor.rate].source ?? 'missing';
  for (const predictor of predictors) {
    const lacking = usable.filter((sale) => !fits(sourceOf(sale, predictor)));
    if (lacking.length === 0) kept.push(predictor);
    else if (lacking.length <= Math.floor(base * MAX_SHARE_OF_SALES_DROPPED)) {
      kept.push(predictor);
      for (const sale of lacking) {
        const copied = sourceOf(sale, predictor) === 'copied';
        salesMissing.set(sale.sale.id, [...(salesMissing.get(sale.sale.id) ?? []), `${predictor.name} ${copied ? 'copied from another house (not accepted)' : 'not in the sample'}`]);
      }
    } else {
      const copied = lacking.filter((sale) => sourceOf(sale, predictor) === 'copied').length;
      const absent = lacking.length - copied;
      const parts = [
        copied > 0 ? `copied from another house on ${copied} of ${base} sales` : null,
        absent > 0 ? `not in the sample for ${absent} of ${base} sales` : null,
      ].filter((part) => part !== null);
      const reason = `${capitalize(predictor.name)} is ${parts.join(' and ')}: left out of the regression rather than leaving out those sales${copied > 0 ? ' (a copied value drives no numbers unless the appraiser accepts copied values for the row)' : ''}.`;
      why.set(predictor.rate, reason);
      leftOutWords.push(`${predictor.name} (${parts.join(' and ')})`);
    }
  }
  if (salesMissing.size > 0) {
    usable = usable.filter(({ sale }) => {
      const lacking = salesMissing.get(sale.id);
      if (lacking) leaveOut(sale, lacking.join(', '));
      return !lacking;
    });
  }

  // A predictor that does not vary says nothing.
  let used = kept.filter((predictor) => {
    const first = predictor.value(usable[0] as UsableSale, effectiveYear);
    if (usable.every((sale) => predictor.value(sale, effectiveYear) === first)) {
      why.set(predictor.rate, `All ${usable.length} sales have ${predictor.name} = ${round(first ?? 0, 2)}: nothing to estimate it from.`);
      leftOutWords.push(`${predictor.name} (the same on every sale)`);
      return false;
    }
    return true;
  });

  const n = usable.length;
  const needed = (count: number) => count + SALES_BEYOND_PREDICTORS;
  if (used.length === 0 || n < needed(1)) {
    const message =
      used.length === 0
        ? `No feature observed on the sales varies across the ${n} usable sales: nothing to estimate.`
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
      leftOutWords.push(`${predictor.name} (too few sales)`);
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
      leftOutWords.push(`${predictor.name} (fixed by the others)`);
      used = used.filter((other) => other !== predictor);
    }
  }

  const x = usable.map((sale) => used.map((predictor) => predictor.value(sale, effectiveYear) as number));
  const prices = usable.map(({ sale }) => sale.priceDollars);
  const fit = olsFit(x, prices);
  const p = used.length;
  for (const { sale } of usable) {
    const row = analyzed.get(sale.id);
    if (row) row.used = true;
  }

  const copiedAccepted: Partial<Record<RateKey, number>> = {};
  for (const predictor of used) {
    const count = usable.filter((sale) => sourceOf(sale, predictor) === 'copied-accepted').length;
    if (count > 0) copiedAccepted[predictor.rate] = count;
  }
  const suggestions = withReasons(allWithout('Not a predictor in the regression.'), why);
  const estimated = new Set<RateKey>();
  for (const [index, predictor] of used.entries()) {
    const coefficient = fit.coefficients[index] ?? Number.NaN;
    const stdError = fit.stdErrors[index] ?? Number.NaN;
    if (!Number.isFinite(coefficient) || !Number.isFinite(stdError)) {
      suggestions[predictor.rate] = noSuggestion(predictor.rate, 'The regression gave no finite estimate for it.');
      continue;
    }
    estimated.add(predictor.rate);
    const bare = { rate: predictor.rate, ...rateEstimate(rateScale[predictor.rate], coefficient, stdError, fit.t, fit.meanResponse), coefficient, stdError, why: null };
    suggestions[predictor.rate] = { ...bare, standing: suggestionStanding(bare, { n, p, copiedAccepted }) };
  }

  const citationIds = [
    ...new Set(
      usable.flatMap(({ sale }) => [
        ...sale.values.salePrice.citationIds,
        ...used.flatMap((predictor) => {
          const row = rowOf(predictor.rate);
          return row === null ? sale.values.saleDate.citationIds : sale.values[row].citationIds;
        }),
      ]),
    ),
  ];

  return finish({
    method: methodText({ used, n, df: fit.df, t: fit.t, effectiveDay, meanPrice: fit.meanResponse, usable, workfile, leftOutWords, takenIn, sourceOf }),
    n,
    r2: Number.isFinite(fit.r2) ? fit.r2 : null,
    adjustedR2: Number.isFinite(fit.adjustedR2) ? fit.adjustedR2 : null,
    predictors: used.map((predictor) => predictor.rate),
    suggestions,
    salesUsed: salesUsedOf(usable),
    excluded,
    fit: Number.isFinite(fit.intercept)
      ? { intercept: fit.intercept, interceptStdError: fit.interceptStdError, df: fit.df, t: fit.t, meanPrice: fit.meanResponse }
      : null,
    figures: regressionFigures({ predictors: used.map((predictor) => predictor.rate), x, y: prices, citationIds, estimated }),
    message: null,
  });
}

interface MethodFacts {
  used: Predictor[];
  n: number;
  df: number;
  t: number;
  effectiveDay: string;
  meanPrice: number;
  usable: UsableSale[];
  workfile: RegressionOptions['workfile'];
  leftOutWords: string[];
  takenIn: string[];
  sourceOf: (sale: UsableSale, predictor: Predictor) => PredictorSource;
}

/** The method in words: the fit, which predictors are observed on the sales, which copied and accepted (by whom, why), which left out and why. */
function methodText(facts: MethodFacts): string {
  const { used, n, df, t, effectiveDay, meanPrice, usable } = facts;
  const observed: string[] = [];
  const accepted: string[] = [];
  for (const predictor of used) {
    const copied = usable.filter((sale) => facts.sourceOf(sale, predictor) === 'copied-accepted');
    if (copied.length === 0) {
      observed.push(predictor.name);
      continue;
    }
    const row = rowOf(predictor.rate) as GridRowKey;
    const acts = [...new Set(copied.map(({ sale }) => syntheticAcceptanceFor(facts.workfile ?? {}, row, sale.id)).filter((act) => act !== null))];
    const because = acts.map((act) => `${act.compId === null ? 'for the whole grid' : `for ${usable.find(({ sale }) => sale.id === act.compId)?.sale.address ?? act.compId}`}: “${act.reason}”`).join('; ');
    accepted.push(`${predictor.name} on ${copied.length} of ${n} sales, accepted by the appraiser (${because})`);
  }
  const sentences = [
    `Ordinary least squares of sale price on ${used.map((predictor) => predictor.name).join(', ')}, with an intercept, over ${n} arm’s-length dated sales the search returned ` +
      `(${df} degrees of freedom, t = ${t.toFixed(3)}).`,
    METHOD_LIBRARIES,
    observed.length > 0 ? `Observed on the sales themselves: ${observed.join(', ')}.` : 'No predictor is observed on every sale itself.',
    accepted.length > 0 ? `Copied from other houses and accepted: ${accepted.join('; ')}.` : 'No copied (synthetic) value drives the fit.',
    facts.leftOutWords.length > 0 ? `Left out: ${facts.leftOutWords.join('; ')}.` : null,
    facts.takenIn.length > 0 ? `Screened out by Plat and taken in: ${facts.takenIn.join('; ')}.` : null,
    `Months since sale = days from the sale to the effective date ${effectiveDay} ÷ 30.4375. ` +
      `Rates in the grid’s sense: the time rate is −(coefficient of months since sale) ÷ the mean sale price ${formatDollars(Math.round(meanPrice))} × 100 (% per month); ` +
      `the age rate is −(coefficient of age), so older is worth less for a positive rate; the others are the coefficients (dollars per unit).`,
  ];
  return sentences.filter((sentence) => sentence !== null).join(' ');
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
