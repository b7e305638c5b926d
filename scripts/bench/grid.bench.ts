// The sales comparison grid as the screen recomputes it on each keystroke in a rate: computeGrid
// with 20 comps (every rate set, lump sums on some, workings written) and the reconciliation's checks;
// and the regression's support over a search's 100 candidates. Target: grid recompute ≤ 16 ms (one
// frame); it should be far under a millisecond.
import { computeGrid, reconciliationProblems } from '../../shared/comparables/adjustments.ts';
import type { AdjustmentRates, ComparablesWorkfile } from '../../shared/comparables/model.ts';
import { regressionSupport } from '../../shared/comparables/regression.ts';
import { comparableSale, subjectProperty, workfileWith } from '../../shared/comparables/test-kit.ts';
import { atMostMs, latencyFigures, type BenchOptions, type LatencyFigures } from './measure.ts';

const EFFECTIVE = '2017-01-01';
const GRADES = ['Average', 'Above Average', 'Good Quality', 'Very Good', 'Excellent'];
const CONDITIONS = ['Average', 'Good', 'Very Good'];

/** Sales of 2016 around the subject, varied in every feature the grid adjusts (deterministic). */
function sales(count: number) {
  return Array.from({ length: count }, (_, index) =>
    comparableSale({
      id: `sale${index + 1}`,
      address: `${1600 + index * 2} 21ST ST NW`,
      gla: 1_600 + ((index * 137) % 1_900),
      bedrooms: 2 + (index % 5),
      fullBaths: 1 + (index % 4),
      halfBaths: index % 2,
      yearBuilt: 1880 + ((index * 7) % 45),
      grade: GRADES[(index * 3) % GRADES.length] ?? 'Average',
      condition: CONDITIONS[(index * 2) % CONDITIONS.length] ?? 'Good',
      saleDate: `2016-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + ((index * 5) % 28)).padStart(2, '0')}`,
      priceDollars: 900_000 + ((index * 91_357) % 1_400_000),
      landAreaSqft: 1_200 + index * 40,
    }),
  );
}

function timed(iterations: number, run: (iteration: number) => unknown, warmups = 1_000): number[] {
  for (let warmup = 0; warmup < warmups; warmup++) run(warmup);
  const samples: number[] = [];
  for (let iteration = 0; iteration < iterations; iteration++) {
    const started = performance.now();
    run(iteration);
    samples.push(performance.now() - started);
  }
  return samples;
}

export async function benchGrid({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  const subject = subjectProperty({ id: 'subject', address: '1708 21ST ST NW', gla: 2_400, bedrooms: 4, fullBaths: 3, halfBaths: 1, yearBuilt: 1900, grade: 'Very Good', condition: 'Good' });
  const comps = sales(20);
  const workfile: ComparablesWorkfile = workfileWith({
    chosen: comps.map((comp) => comp.id),
    manual: Object.fromEntries(comps.filter((_, index) => index % 3 === 0).map((comp) => [comp.id, { site: 10_000, exterior: -5_000 }])),
    weights: { sale1: 'most', sale2: 'none' },
    reconciliation: { indicatedValueDollars: 1_650_000, comment: 'Bench.' },
  });
  const base: AdjustmentRates = { timePctPerMonth: 0.4, glaPerSqft: 150, perBedroom: 10_000, perBath: 7_500, perYearOfAge: 400, perGradeStep: 40_000, perConditionStep: 25_000 };

  const grid = timed(smoke ? 20 : 5_000, (iteration) => {
    // A rate change as typed: the GLA rate moves on every recompute.
    const rates = { ...base, glaPerSqft: 100 + (iteration % 100) };
    const result = computeGrid({ subject, comps, rates, manual: workfile.manual, weights: workfile.weights, effectiveDate: EFFECTIVE });
    return reconciliationProblems(workfile, result);
  }, smoke ? 5 : 1_000);

  const candidates = sales(100);
  const support = timed(smoke ? 5 : 300, () => regressionSupport(candidates, EFFECTIVE), smoke ? 1 : 1_000);
  const fit = regressionSupport(candidates, EFFECTIVE);
  console.log(`grid: 20 comps, 7 rates, lump sums on 7 comps; regression: ${fit.n} sales, ${fit.predictors.length} predictors, R² ${fit.r2?.toFixed(3) ?? '—'}`);

  return [
    latencyFigures('grid recompute after a rate change (computeGrid + reconciliationProblems, 20 comps)', grid, { target: atMostMs(16) }),
    latencyFigures('adjustment support (regressionSupport, 100 candidates)', support),
  ];
}
