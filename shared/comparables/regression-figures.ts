// The regression's figures as derived values: n, R², each suggested rate and its 95 % interval, each
// made by a rule of shared/cited/derivation.ts from the design it was fitted on (predictors row by
// row and the sale prices), so the report prints them with the derived marker, citations.json carries
// the inputs and "Verify a report" refits them. Their citations are the sales' own (prices and the
// characteristics fitted).
import { derive, type Derivation } from '../cited/derivation.ts';
import { derivedValue } from '../cited/derived.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { CitedValue } from '../cited/value.ts';
import { flattenDesign, type RateScale } from '../stats/ols.ts';
import { rateLabels, type RateKey, type RegressionFigures } from './model.ts';

export const rateScale: Record<RateKey, RateScale> = {
  timePctPerMonth: 'percent-of-mean',
  glaPerSqft: 'dollars',
  perBedroom: 'dollars',
  perBath: 'dollars',
  perYearOfAge: 'negated-dollars',
  perGradeStep: 'dollars',
  perConditionStep: 'dollars',
};

/** A rate's unit in words after the number: "per sq ft", "per bath", "per month". */
export function rateUnitWords(rate: RateKey): string {
  return rateLabels[rate].unit.replace(/^[$%]\s*/, '').replace(/\s*\(.*\)$/, '');
}

// Every input of these values is cited by id (the sales' own citations): nothing new to cite.
const citedById: Cite = () => {
  throw new Error('the regression’s figures cite their inputs by id');
};

export interface FiguresInput {
  predictors: readonly RateKey[];
  x: readonly (readonly number[])[];
  y: readonly number[];
  /** The citation ids of the sales' prices and of the characteristics fitted. */
  citationIds: readonly string[];
  /** The rates that have an estimate (a coefficient and standard error). */
  estimated: ReadonlySet<RateKey>;
}

export function regressionFigures(input: FiguresInput): RegressionFigures {
  const design = flattenDesign(input.x, input.y);
  const sales = { name: `the ${input.y.length} sales’ prices and fitted characteristics`, citationIds: input.citationIds };
  const value = (field: string, label: string, derivation: Derivation, rule: string): CitedValue => {
    const display = derive(derivation);
    return derivedValue({ field, label, raw: display, display, rule, inputs: [sales], derivation }, citedById);
  };
  const fitted = input.predictors.map((rate) => rateLabels[rate].label.toLowerCase()).join(', ');
  const rates: RegressionFigures['rates'] = {};
  input.predictors.forEach((rate, column) => {
    if (!input.estimated.has(rate)) return;
    const inputs = [rateScale[rate], rateUnitWords(rate), column, ...design];
    const label = rateLabels[rate].label;
    rates[rate] = {
      value: value(
        `comparables.regression.${rate}.suggested`,
        `Regression: suggested rate, ${label}`,
        { rule: 'ols-rate', inputs },
        `Coefficient of ${label.toLowerCase()} in the least-squares fit of sale price on ${fitted}, with an intercept, by Plat`,
      ),
      interval: value(
        `comparables.regression.${rate}.interval`,
        `Regression: 95 % confidence interval, ${label}`,
        { rule: 'ols-rate-interval', inputs },
        `Coefficient ± Student’s t (95 %) × its standard error, in the same fit, by Plat`,
      ),
    };
  });
  return {
    n: value('comparables.regression.n', 'Regression: sales fitted (n)', { rule: 'ols-n', inputs: design }, 'The sales in the regression’s design, counted by Plat'),
    r2: value('comparables.regression.r2', 'Regression: R²', { rule: 'ols-r2', inputs: design }, `1 − residual ÷ total sum of squares of the fit of sale price on ${fitted}, by Plat`),
    rates,
  };
}
