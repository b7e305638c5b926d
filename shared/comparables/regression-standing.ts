// Whether a regression's suggested rate is supported, the one place it is decided: the Rates panel
// offers "Accept" only for a supported suggestion, the report and the exports print the standing and
// its reasons. A suggestion is supported only when the sales leave enough degrees of freedom beyond
// the predictors, the estimate has the expected sign, its 95 % interval does not straddle zero and
// the fit rests on values observed on the sales themselves (none copied from another house).
import { rateLabels, type ComparablesWorkfile, type RateKey, type RateStanding, type RateSuggestion } from './model.ts';

/** Degrees of freedom (sales − predictors − 1) below which no rate is supported: fewer make an estimate one sale's whim. */
export const MIN_DEGREES_OF_FREEDOM = 10;

/** The sign a sound estimate has, in the grid's sense (rates.ts): +1 positive, 0 either. */
export const expectedSign: Record<RateKey, { sign: 1 | 0; words: string }> = {
  timePctPerMonth: { sign: 0, words: 'either sign: a market may rise or fall' },
  glaPerSqft: { sign: 1, words: 'positive: more living area is worth more' },
  perBedroom: { sign: 1, words: 'positive: another bedroom is worth more' },
  perBath: { sign: 1, words: 'positive: another bath is worth more' },
  perYearOfAge: { sign: 1, words: 'positive: an older house is worth less (the rate is what a year of age takes off)' },
  perGradeStep: { sign: 1, words: 'positive: a higher grade is worth more' },
  perConditionStep: { sign: 1, words: 'positive: better condition is worth more' },
};

export interface StandingContext {
  /** Sales in the fit. */
  n: number;
  /** Predictors in the fit (the intercept not counted). */
  p: number;
  /** Per predictor in the fit: how many of its values are copied values the appraiser accepted. */
  copiedAccepted: Partial<Record<RateKey, number>>;
}

const predictorWords = (rate: RateKey) => rateLabels[rate].label.toLowerCase();

/** The standing of one suggestion: supported, or not with every reason. */
export function suggestionStanding(suggestion: Pick<RateSuggestion, 'rate' | 'value' | 'ciLow' | 'ciHigh' | 'why'>, context: StandingContext): RateStanding {
  const { rate } = suggestion;
  const expected = expectedSign[rate];
  if (suggestion.value === null) return { supported: false, expectedSign: expected.words, reasons: [suggestion.why ?? 'Not estimated.'] };
  const reasons: string[] = [];
  const df = context.n - context.p - 1;
  if (df < MIN_DEGREES_OF_FREEDOM) {
    reasons.push(
      `Too few sales: ${context.n} sales for ${context.p} predictor${context.p === 1 ? '' : 's'} and the intercept leave ${df} degree${df === 1 ? '' : 's'} of freedom; at least ${MIN_DEGREES_OF_FREEDOM} are needed.`,
    );
  }
  if (expected.sign === 1 && suggestion.value <= 0) reasons.push(`Against the expected sign: the estimate is ${suggestion.value < 0 ? 'negative' : 'zero'}, and the expected sign is ${expected.words}.`);
  if (suggestion.ciLow !== null && suggestion.ciHigh !== null && suggestion.ciLow <= 0 && suggestion.ciHigh >= 0) {
    reasons.push('The 95 % confidence interval straddles zero: the sales do not tell whether the feature adds value or takes it away.');
  }
  if (suggestion.ciLow === null || suggestion.ciHigh === null) reasons.push('No confidence interval could be computed.');
  const own = context.copiedAccepted[rate] ?? 0;
  if (own > 0) reasons.push(`Not observed on the sales: ${own} of the ${context.n} values of ${predictorWords(rate)} are copied from another house (accepted by the appraiser).`);
  const others = Object.entries(context.copiedAccepted).filter(([other, count]) => other !== rate && (count ?? 0) > 0);
  if (others.length > 0) {
    reasons.push(`The fit also rests on copied values (accepted by the appraiser) of ${others.map(([other, count]) => `${predictorWords(other as RateKey)} (${count} of ${context.n})`).join(', ')}.`);
  }
  return { supported: reasons.length === 0, expectedSign: expected.words, reasons };
}

/** Whether the appraiser may take this suggestion: supported, or not supported with their written reason. */
export function suggestionMayBeUsed(suggestion: RateSuggestion, workfile: Pick<ComparablesWorkfile, 'unsupportedRateReasons'>): boolean {
  if (suggestion.value === null) return false;
  return suggestion.standing.supported || workfile.unsupportedRateReasons?.[suggestion.rate] !== undefined;
}

/** How many of the regression's estimates are offered (supported) and how many are shown as not supported. */
export function suggestionCounts(suggestions: Readonly<Record<RateKey, RateSuggestion>>): { offered: number; notSupported: number } {
  const estimated = Object.values(suggestions).filter((suggestion) => suggestion.value !== null);
  const offered = estimated.filter((suggestion) => suggestion.standing.supported).length;
  return { offered, notSupported: estimated.length - offered };
}
