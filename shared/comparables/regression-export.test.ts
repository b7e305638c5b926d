// A reviewer refits the regression from Plat's exports alone (the UAD-shaped JSON and the regression
// CSV), with the library Plat fits with, and gets Plat's n, R², every coefficient, standard error and
// interval: the exports carry every analyzed sale's predictors, not only the chosen comps'.
import MultivariateLinearRegression from 'ml-regression-multivariate-linear';
import jStat from 'jstat';
import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import subjectFixture from '../report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import { analyzeComparables } from './analysis.ts';
import defaultSearch1708 from './fixtures/dc-1708-comps-default-2017-02-01.json' with { type: 'json' };
import { DEFAULT_CRITERIA, emptyComparablesWorkfile, gridRowKeys, type ComparablesAnalysis, type ComparablesWorkfile } from './model.ts';
import { predictorColumn, predictorSourceColumn, REGRESSION_CSV_COLUMNS, regressionCsv } from './regression-csv.ts';
import { comps2016Run } from './test-kit.ts';
import { salesComparisonUad } from './uad-export.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// 1708 21st St NW, default search for 2017-02-01, copied characteristics accepted for the whole grid:
// nine sales used, four sales left out (non-market), four predictors.
function analysis1708(): { analysis: ComparablesAnalysis; workfile: ComparablesWorkfile } {
  const workfile: ComparablesWorkfile = {
    ...emptyComparablesWorkfile(),
    searches: [comps2016Run({ criteria: DEFAULT_CRITERIA, effectiveDate: '2017-02-01', pages: [defaultSearch1708.request] })],
    syntheticAccepted: gridRowKeys.map((row) => ({ row, compId: null, reason: 'Checked against the MLS sheets.', at: '2026-11-27T21:30:00Z' })),
    rates: { ...emptyComparablesWorkfile().rates, perBath: -249_052 },
    rateSource: { perBath: 'suggestion' },
    unsupportedRateReasons: { perBath: { reason: 'Paired sales on the block agree.', at: '2026-11-27T21:50:00Z' } },
  };
  const analysis = analyzeComparables({ subjectEnvelope: subjectFixture.subject, pages: [defaultSearch1708.envelope], workfile, effectiveDate: '2017-02-01' }, new CitationBook());
  return { analysis, workfile };
}

interface Refit {
  n: number;
  r2: number;
  coefficients: number[];
  stdErrors: number[];
  low: number[];
  high: number[];
}

/** The fit a reviewer makes: the library, R² by hand, t from jStat. */
function refit(x: number[][], y: number[]): Refit {
  const model = new MultivariateLinearRegression(x, y.map((value) => [value]), { intercept: true, statistics: true });
  const fitted = model.predict(x).map((row) => row[0] ?? Number.NaN);
  const mean = y.reduce((sum, value) => sum + value, 0) / y.length;
  const residual = y.reduce((sum, value, index) => sum + (value - (fitted[index] ?? 0)) ** 2, 0);
  const total = y.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  const p = x[0]?.length ?? 0;
  const t = jStat.studentt.inv(0.975, y.length - p - 1);
  const coefficients = model.weights.map((row) => row[0] ?? Number.NaN);
  const stdErrors = [...model.stdErrors];
  return {
    n: y.length,
    r2: 1 - residual / total,
    coefficients,
    stdErrors,
    low: coefficients.map((value, index) => value - t * (stdErrors[index] ?? 0)),
    high: coefficients.map((value, index) => value + t * (stdErrors[index] ?? 0)),
  };
}

/** A rate and its interval in the grid's sense, as the export documents it (age negated; time −coefficient ÷ mean price × 100). */
function inRateUnits(key: string, coefficient: number, low: number, high: number, meanPrice: number) {
  if (key === 'timePctPerMonth') {
    const scale = (value: number) => Math.round((-value / meanPrice) * 100 * 100) / 100;
    return [scale(coefficient), scale(high), scale(low)];
  }
  if (key === 'perYearOfAge') return [Math.round(-coefficient), Math.round(-high), Math.round(-low)];
  return [Math.round(coefficient), Math.round(low), Math.round(high)];
}

/** RFC 4180 back into rows (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index++;
    } else field += char;
  }
  return rows;
}

describe('refitting the regression from its exports', () => {
  it('the UAD-shaped JSON holds every analyzed sale’s predictors, and a refit matches n, R², every coefficient, SE and interval', () => {
    const { analysis, workfile } = analysis1708();
    const json = JSON.parse(
      JSON.stringify(
        salesComparisonUad(analysis, { assignment: { name: '1708', effectiveDate: '2017-02-01', subjectRef: 'prop' }, generatedAt: 'now', appVersion: 'test', workfile }),
      ),
    ) as Json;
    const support = json.salesComparisonApproach.adjustmentSupport as Json;
    expect(support.analyzedSales).toHaveLength(13);
    expect((support.analyzedSales as Json[]).filter((sale) => !sale.used).map((sale) => sale.excludedBecause)).toEqual(Array(4).fill('not arm’s length; sale price $0 (non-market or no price)'));
    const used = (support.analyzedSales as Json[]).filter((sale) => sale.used);
    const keys = (support.predictors as Json[]).map((predictor) => predictor.key as string);
    expect(keys).toEqual(['glaPerSqft', 'timePctPerMonth', 'perYearOfAge', 'perBath']);
    expect(used[0]?.predictors.perBath.source).toBe('copied-accepted');
    expect(used[0]?.predictors.timePctPerMonth.source).toBe('observed');

    const fit = refit(
      used.map((sale) => keys.map((key) => sale.predictors[key].value as number)),
      used.map((sale) => sale.priceDollars as number),
    );
    expect(fit.n).toBe(support.n);
    expect(fit.n).toBe(9);
    expect(fit.r2).toBeCloseTo(support.r2, 12);
    (support.coefficients as Json[]).forEach((coefficient, column) => {
      expect(fit.coefficients[column]).toBeCloseTo(coefficient.coefficient, 6);
      expect(fit.stdErrors[column]).toBeCloseTo(coefficient.stdError, 6);
      const rate = inRateUnits(coefficient.key, fit.coefficients[column]!, fit.low[column]!, fit.high[column]!, support.meanSalePriceDollars);
      expect(rate).toEqual([coefficient.rate.value, coefficient.rate.ciLow, coefficient.rate.ciHigh]);
    });
    expect(fit.coefficients[keys.length]).toBeCloseTo(support.intercept.coefficient, 4);
    expect(fit.stdErrors[keys.length]).toBeCloseTo(support.intercept.stdError, 4);

    const bath = (json.salesComparisonApproach.adjustmentRates as Json[]).find((rate) => rate.key === 'perBath');
    expect(bath?.support.value).toBe(-249_052);
    expect(bath?.support.standing.supported).toBe(false);
    expect(bath?.unsupportedUseReason).toEqual({ reason: 'Paired sales on the block agree.', at: '2026-11-27T21:50:00Z' });
  });

  it('the regression CSV holds the same, and a refit from it matches', () => {
    const { analysis } = analysis1708();
    const rows = parseCsv(regressionCsv(analysis.support));
    const valueOf = (label: string) => Number(rows.find((row) => row[0] === label)?.[1]);
    const coefficientsAt = rows.findIndex((row) => row[0] === 'Term');
    const terms: string[][] = [];
    for (let index = coefficientsAt + 1; rows[index]?.[0]; index++) terms.push(rows[index]!);
    const fitted = terms.filter((row) => row[1] !== '' && row[0] !== 'intercept').sort((a, b) => Number(a[1]) - Number(b[1]));
    const keys = fitted.map((row) => row[0]!);
    expect(keys).toEqual(['glaPerSqft', 'timePctPerMonth', 'perYearOfAge', 'perBath']);

    const headerAt = rows.findIndex((row) => row[0] === REGRESSION_CSV_COLUMNS.id);
    const header = rows[headerAt]!;
    const column = (name: string) => header.indexOf(name);
    const sales: string[][] = [];
    for (let index = headerAt + 1; rows[index]?.[0]; index++) sales.push(rows[index]!);
    expect(sales).toHaveLength(13);
    const used = sales.filter((sale) => sale[column(REGRESSION_CSV_COLUMNS.used)] === 'yes');
    expect(used.every((sale) => sale[column(predictorSourceColumn('perBath'))] === 'copied-accepted')).toBe(true);

    const fit = refit(
      used.map((sale) => keys.map((key) => Number(sale[column(predictorColumn(key))]))),
      used.map((sale) => Number(sale[column(REGRESSION_CSV_COLUMNS.response)])),
    );
    expect(fit.n).toBe(valueOf('n'));
    expect(fit.r2).toBeCloseTo(valueOf('R²'), 12);
    fitted.forEach((row, index) => {
      expect(fit.coefficients[index]).toBeCloseTo(Number(row[3]), 6);
      expect(fit.stdErrors[index]).toBeCloseTo(Number(row[4]), 6);
      const rate = inRateUnits(row[0]!, fit.coefficients[index]!, fit.low[index]!, fit.high[index]!, valueOf('Mean sale price ($)'));
      expect(rate).toEqual([Number(row[5]), Number(row[7]), Number(row[8])]);
    });
    const intercept = terms.find((row) => row[0] === 'intercept')!;
    expect(fit.coefficients[keys.length]).toBeCloseTo(Number(intercept[3]), 4);
  });
});
