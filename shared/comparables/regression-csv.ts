// The regression behind the suggested rates as CSV, so a reviewer can refit it in a spreadsheet or a
// statistics package: the method, the fit (n, R², degrees of freedom, t), the intercept and every
// coefficient with its standard error, interval and standing, then every sale analyzed (used and left
// out, with the reason) with the response and each predictor's value and where it comes from
// (observed, copied and accepted, copied and not used, missing). Numbers are written in full
// precision; every cell goes through shared/csv.ts.
import { csvField } from '../csv.ts';
import { rateKeys, rateLabels, type RegressionSupport } from './model.ts';
import { predictorNames } from './regression.ts';
import { predictorSourceMeanings } from './uad-export.ts';

type Cell = string | number | boolean | null;

/** Headings of the analyzed-sales table that a refit reads by name. */
export const REGRESSION_CSV_COLUMNS = { id: 'Sale id', used: 'Used in the fit', response: 'Sale price (response, $)' } as const;
export const predictorColumn = (rate: string) => `${rate} value`;
export const predictorSourceColumn = (rate: string) => `${rate} source`;

export function regressionCsv(support: RegressionSupport): string {
  const rows: Cell[][] = [];
  rows.push(['Regression behind the suggested rates']);
  rows.push(['Method', support.method]);
  if (support.message !== null) rows.push(['Not run', support.message]);
  rows.push(['Response', 'Sale price in whole US dollars']);
  rows.push(['n', support.n]);
  rows.push(['R²', support.r2]);
  rows.push(['Adjusted R²', support.adjustedR2]);
  rows.push(['Degrees of freedom', support.fit?.df ?? null]);
  rows.push(['Student’s t (95 %)', support.fit?.t ?? null]);
  rows.push(['Mean sale price ($)', support.fit?.meanPrice ?? null]);

  rows.push([]);
  rows.push(['Coefficients']);
  rows.push(['Term', 'Design column', 'Predictor', 'Coefficient', 'Std. error', 'Rate', 'Rate unit', '95 % CI low', '95 % CI high', 'Supported', 'Expected sign', 'Why not supported']);
  if (support.fit) rows.push(['intercept', '', 'intercept', support.fit.intercept, support.fit.interceptStdError]);
  support.predictors.forEach((rate, column) => {
    const suggestion = support.suggestions[rate];
    rows.push([
      rate,
      column,
      predictorNames[rate],
      suggestion.coefficient,
      suggestion.stdError,
      suggestion.value,
      rateLabels[rate].unit,
      suggestion.ciLow,
      suggestion.ciHigh,
      suggestion.standing.supported ? 'yes' : 'no',
      suggestion.standing.expectedSign,
      suggestion.standing.reasons.join(' '),
    ]);
  });
  for (const rate of rateKeys.filter((key) => !support.predictors.includes(key))) rows.push([rate, '', predictorNames[rate], null, null, null, rateLabels[rate].unit, null, null, 'no', '', support.suggestions[rate].why ?? '']);

  rows.push([]);
  rows.push(['Analyzed sales']);
  rows.push([
    REGRESSION_CSV_COLUMNS.id,
    'Address',
    'Sale date',
    REGRESSION_CSV_COLUMNS.response,
    REGRESSION_CSV_COLUMNS.used,
    'Left out because',
    'Taken in because',
    ...rateKeys.flatMap((rate) => [predictorColumn(rate), predictorSourceColumn(rate)]),
  ]);
  for (const sale of support.analyzed) {
    rows.push([
      sale.id,
      sale.address,
      sale.saleDate,
      sale.priceDollars,
      sale.used ? 'yes' : 'no',
      sale.why,
      sale.takenIn,
      ...rateKeys.flatMap((rate) => [sale.values[rate].value, sale.values[rate].source]),
    ]);
  }

  rows.push([]);
  rows.push(['Predictor sources']);
  for (const [source, meaning] of Object.entries(predictorSourceMeanings)) rows.push([source, meaning]);

  const width = Math.max(...rows.map((row) => row.length));
  const lines = rows.map((row) => Array.from({ length: width }, (_, index) => csvField(row[index] ?? null)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
