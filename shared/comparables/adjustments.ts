// The sales comparison grid's arithmetic: each comp's adjustments from the appraiser's rates, the net
// and gross, the adjusted price, and the reconciliation's checks. Pure and cheap: the screen recomputes
// it on every keystroke in a rate, and the report and exports print the very numbers it returns.
//
// Direction: an adjustment makes the comp like the subject. A comp inferior to the subject gets +, a
// superior one −. Every adjustment is rounded to whole dollars before it is added up, so the net printed
// under a column is always the sum of the adjustments printed above it.
import { calendarDateOf } from '../format-date.ts';
import { formatDollars } from '../money.ts';
import { formatFixed, formatNumber } from '../format/number.ts';
import { formatPercentRate, formatShareOfPrice } from '../format/percent.ts';
import { formatDollarsAsEntered } from '../format/dollars.ts';
import { DAYS_PER_MONTH, formatAdjustment, grossOf, netOf, percentOfPrice, rateTimesDifference, roundDollars, timeAdjustment } from './grid-arithmetic.ts';
import { drivesNumbers } from './synthetic-use.ts';
import { areaShortLabel } from './answer-values.ts';
import type { Derivation } from '../cited/derivation.ts';
import {
  gridRowKeys,
  manualRows,
  rateLabels,
  rateRow,
  type AdjustmentRates,
  type ComparableSale,
  type ComparablesWorkfile,
  type FeatureNumbers,
  type GridProperty,
  type GridColumnResult,
  type GridResult,
  type GridRowKey,
  type RateKey,
  type SubjectProperty,
} from './model.ts';

// ---------------------------------------------------------------------------------------------
// Time

const MS_PER_DAY = 86_400_000;
export { DAYS_PER_MONTH, formatAdjustment };

/** Days since 1970-01-01 of a calendar date (`2016-04-21`, or midnight UTC), null when it is not one. */
function dayNumber(text: string): number | null {
  const day = calendarDateOf(text);
  return day === null ? null : dayNumberOfDay(day);
}

/** Days since 1970-01-01 of a checked `YYYY-MM-DD`. */
function dayNumberOfDay(day: string): number {
  const date = new Date(0);
  date.setUTCFullYear(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  return Math.round(date.getTime() / MS_PER_DAY);
}

/** Whole days from one calendar date to another (negative when `toDay` is earlier). */
export function daysBetween(fromDay: string, toDay: string): number {
  const from = dayNumber(fromDay);
  const to = dayNumber(toDay);
  if (from === null) throw new RangeError(`"${fromDay}" is not a calendar date (YYYY-MM-DD)`);
  if (to === null) throw new RangeError(`"${toDay}" is not a calendar date (YYYY-MM-DD)`);
  return to - from;
}

/** Months from the sale date to the effective date, fractional: days ÷ (365.25 / 12). */
export function monthsBetween(fromDay: string, toDay: string): number {
  return daysBetween(fromDay, toDay) / DAYS_PER_MONTH;
}

// ---------------------------------------------------------------------------------------------
// Formatting for the workings: numbers, dollars and percentages through shared/format/ (hand-rolled
// there: the grid writes a few hundred numbers per recompute and Intl's formatters were most of its time).

/** Whole dollars as publishers print them: "$1,250,000". */
const dollars = (value: number): string => `$${formatNumber(Math.abs(value))}`;

/** A rate in dollars, cents kept when it has them: "$150", "$152.50", "−$500". */
const formatRateDollars = formatDollarsAsEntered;

// ---------------------------------------------------------------------------------------------
// The grid

export interface GridInput {
  subject: SubjectProperty;
  comps: ComparableSale[];
  rates: AdjustmentRates;
  manual: ComparablesWorkfile['manual'];
  weights: ComparablesWorkfile['weights'];
  effectiveDate: string;
  /** Copied (synthetic) values the appraiser accepted to drive adjustments; absent is none (copied values adjust nothing). */
  syntheticAccepted?: ComparablesWorkfile['syntheticAccepted'];
}

/** A rate adjusting (subject − comp): the number it compares and how the workings name its unit. */
interface FeatureRate {
  rate: RateKey;
  row: GridRowKey;
  number: (numbers: FeatureNumbers) => number | null;
  unit: string;
  per: string;
}

const featureRates: FeatureRate[] = [
  { rate: 'glaPerSqft', row: 'gla', number: (n) => n.gla, unit: 'sq ft', per: 'per sq ft' },
  { rate: 'perBedroom', row: 'bedrooms', number: (n) => n.bedrooms, unit: 'bedrooms', per: 'per bedroom' },
  { rate: 'perBath', row: 'baths', number: (n) => n.baths, unit: 'baths', per: 'per bath' },
  { rate: 'perGradeStep', row: 'quality', number: (n) => n.gradeStep, unit: 'grade steps', per: 'per grade step' },
  { rate: 'perConditionStep', row: 'condition', number: (n) => n.conditionStep, unit: 'condition steps', per: 'per condition step' },
];

/** Which side lacks a feature, in words. */
function missingSide(subjectKnown: boolean, compKnown: boolean): string {
  if (!subjectKnown && !compKnown) return 'the subject and this comp';
  return subjectKnown ? 'this comp' : 'the subject';
}

function unknownFeatureWarning(rate: RateKey, subjectKnown: boolean, compKnown: boolean): string {
  return `${rateLabels[rate].label}: not in the sample for ${missingSide(subjectKnown, compKnown)}, so no adjustment.`;
}

/**
 * Why a row's values may not drive an adjustment, or null when they may: a copied value is shown,
 * marked, but drives nothing until the appraiser accepts it for the row (synthetic-use.ts decides;
 * the report prints the acceptance beside the grid).
 */
function copiedNotAccepted(row: GridRowKey, label: string, subject: GridProperty, comp: GridProperty, workfile: SyntheticUse): string | null {
  const blocked = [
    { property: subject, name: 'the subject' },
    { property: comp, name: 'this comp' },
  ].filter(({ property }) => !drivesNumbers(property, row, workfile));
  return blocked.length === 0 ? null : `${label}: copied from another house (synthetic) for ${blocked.map(({ name }) => name).join(' and ')}, not accepted: no adjustment.`;
}

type SyntheticUse = Pick<ComparablesWorkfile, 'syntheticAccepted'>;

/**
 * Each chosen comp's adjustments from the appraiser's rates and lump sums, its net and gross (as
 * dollars and as a percent of its sale price), its adjusted price and weight, and the range of the
 * adjusted prices. A rate of null adjusts nothing; a feature unknown on either side, or copied from
 * another house and not accepted by the appraiser, adjusts nothing and says so in the comp's warnings.
 */
export function computeGrid(input: GridInput): GridResult {
  const { subject, rates, effectiveDate } = input;
  const syntheticUse: SyntheticUse = { syntheticAccepted: input.syntheticAccepted };
  const effectiveDayNumber = dayNumber(effectiveDate);
  const effectiveDay = effectiveDayNumber === null ? null : calendarDateOf(effectiveDate);
  const effectiveYear = effectiveDay === null ? null : Number(effectiveDay.slice(0, 4));

  const columns = input.comps.map((comp): GridColumnResult => {
    const adjustments: Partial<Record<GridRowKey, number>> = {};
    const workings: Partial<Record<GridRowKey, string>> = {};
    const derivations: Partial<Record<GridRowKey, Derivation>> = {};
    const warnings: string[] = [];
    const price = comp.priceDollars;
    if (price <= 0) {
      const time = rates.timePctPerMonth === null ? '' : 'no time adjustment, and ';
      warnings.push(`Sale price is ${formatDollars(price)} (non-market or no price): ${time}net and gross cannot be a percent of it.`);
    }

    // Market conditions (time): from the sale date to the effective date.
    const timeRate = rates.timePctPerMonth;
    if (timeRate !== null) {
      const saleDay = comp.saleDate === null ? null : calendarDateOf(comp.saleDate);
      if (comp.saleDate === null) warnings.push('No sale date: no market-conditions (time) adjustment.');
      else if (saleDay === null) warnings.push(`Sale date "${comp.saleDate}" is not a calendar date: no time adjustment.`);
      else if (effectiveDayNumber === null) warnings.push(`The effective date "${effectiveDate}" is not a calendar date: no time adjustment.`);
      else if (price > 0) {
        const days = effectiveDayNumber - dayNumberOfDay(saleDay);
        const months = days / DAYS_PER_MONTH;
        const amount = timeAdjustment(price, timeRate, days);
        adjustments.saleDate = amount;
        derivations.saleDate = { rule: 'adjustment-time', inputs: [price, timeRate, days] };
        workings.saleDate = `${dollars(price)} × ${formatPercentRate(timeRate)} per month × ${formatFixed(months, 2)} months (${formatNumber(days)} days ÷ 30.4375, ${saleDay} to ${effectiveDay}) = ${formatAdjustment(amount)}`;
        if (days < 0) warnings.push(`Sold after the effective date (${effectiveDay}): the time adjustment runs backwards.`);
      }
    }

    // Age: a newer comp is superior, so a positive rate per year gives it a negative adjustment.
    const ageRate = rates.perYearOfAge;
    if (ageRate !== null) {
      const subjectBuilt = subject.numbers.yearBuilt;
      const compBuilt = comp.numbers.yearBuilt;
      const copied = copiedNotAccepted('actualAge', rateLabels.perYearOfAge.label, subject, comp, syntheticUse);
      if (subjectBuilt === null || compBuilt === null) warnings.push(unknownFeatureWarning('perYearOfAge', subjectBuilt !== null, compBuilt !== null));
      else if (copied !== null) warnings.push(copied);
      else if (effectiveYear === null) warnings.push(`The effective date "${effectiveDate}" is not a calendar date: no age adjustment.`);
      else {
        const subjectAge = effectiveYear - subjectBuilt;
        const compAge = effectiveYear - compBuilt;
        const amount = rateTimesDifference(ageRate, compAge, subjectAge);
        adjustments.actualAge = amount;
        derivations.actualAge = { rule: 'adjustment-rate-times-difference', inputs: [ageRate, compAge, subjectAge] };
        workings.actualAge = `(comp ${formatNumber(compAge)} − subject ${formatNumber(subjectAge)}) years of age × ${formatRateDollars(ageRate)} per year = ${formatAdjustment(amount)}; age = ${effectiveYear} − year built (comp ${compBuilt}, subject ${subjectBuilt})`;
      }
    }

    // Features: (subject − comp) × rate.
    for (const feature of featureRates) {
      const rate = rates[feature.rate];
      if (rate === null) continue;
      const subjectValue = feature.number(subject.numbers);
      const compValue = feature.number(comp.numbers);
      if (subjectValue === null || compValue === null) {
        warnings.push(unknownFeatureWarning(feature.rate, subjectValue !== null, compValue !== null));
        continue;
      }
      const copied = copiedNotAccepted(feature.row, feature.row === 'gla' ? areaShortLabel([subject, comp]) : rateLabels[feature.rate].label, subject, comp, syntheticUse);
      if (copied !== null) {
        warnings.push(copied);
        continue;
      }
      const amount = rateTimesDifference(rate, subjectValue, compValue);
      adjustments[feature.row] = amount;
      derivations[feature.row] = { rule: 'adjustment-rate-times-difference', inputs: [rate, subjectValue, compValue] };
      const steps =
        feature.row === 'quality' || feature.row === 'condition'
          ? ` (subject ${subject.values[feature.row].display}, comp ${comp.values[feature.row].display})`
          : '';
      workings[feature.row] = `(subject ${formatNumber(subjectValue)} − comp ${formatNumber(compValue)}) ${feature.unit} × ${formatRateDollars(rate)} ${feature.per} = ${formatAdjustment(amount)}${steps}`;
    }

    // The appraiser's lump sums for the rows no rate covers.
    const manual = input.manual[comp.id];
    if (manual) {
      for (const row of manualRows) {
        const amount = manual[row];
        if (amount === undefined) continue;
        adjustments[row] = roundDollars(amount);
        derivations[row] = { rule: 'appraiser-adjustment', inputs: [amount] };
        workings[row] = `Lump sum entered by the appraiser: ${formatAdjustment(roundDollars(amount))}`;
      }
    }

    const amounts = Object.values(inRowOrder(adjustments));
    const net = netOf(amounts);
    const gross = grossOf(amounts);
    return {
      compId: comp.id,
      adjustments: inRowOrder(adjustments),
      workings,
      derivations,
      net,
      gross,
      netPct: percentOfPrice(net, price),
      grossPct: percentOfPrice(gross, price),
      adjustedPrice: price + net,
      weight: input.weights[comp.id] ?? 'less',
      warnings,
    };
  });

  return { columns, adjustedRange: adjustedRange(columns) };
}

/** The rows that take an adjustment, in the grid's order (so every rendering lists them alike). */
const adjustedRowOrder: GridRowKey[] = gridRowKeys.filter(
  (row) => (manualRows as readonly GridRowKey[]).includes(row) || Object.values(rateRow).includes(row),
);

function inRowOrder(adjustments: Partial<Record<GridRowKey, number>>): Partial<Record<GridRowKey, number>> {
  const ordered: Partial<Record<GridRowKey, number>> = {};
  for (const row of adjustedRowOrder) {
    const amount = adjustments[row];
    if (amount !== undefined) ordered[row] = amount;
  }
  return ordered;
}

/** Lowest and highest adjusted price of the comps given weight; of all comps when none has any. */
function adjustedRange(columns: GridColumnResult[]): GridResult['adjustedRange'] {
  if (columns.length === 0) return null;
  const weighted = columns.filter((column) => column.weight !== 'none');
  const counted = weighted.length > 0 ? weighted : columns;
  let low = Infinity;
  let high = -Infinity;
  for (const column of counted) {
    if (column.adjustedPrice < low) low = column.adjustedPrice;
    if (column.adjustedPrice > high) high = column.adjustedPrice;
  }
  return { low, high, compIds: counted.map((column) => column.compId) };
}

// ---------------------------------------------------------------------------------------------
// Reconciliation

/** URAR review guidelines (not rules): a comp adjusted by more than these needs explaining. */
export const NET_GUIDELINE_PCT = 15;
export const GROSS_GUIDELINE_PCT = 25;

/**
 * What the reconciliation still lacks or should explain, in sentences for the appraiser: a missing
 * indicated value or comment (required), an indicated value outside the adjusted range, comps past
 * the net 15 % / gross 25 % guidelines (warnings: the appraiser may explain rather than change them).
 */
export function reconciliationProblems(workfile: Pick<ComparablesWorkfile, 'reconciliation'>, grid: GridResult): string[] {
  const problems: string[] = [];
  const { indicatedValueDollars, comment } = workfile.reconciliation;
  if (grid.columns.length === 0) problems.push('No comparable sales are in the grid: choose the sales the indicated value rests on.');
  if (indicatedValueDollars === null) problems.push('Enter the indicated value by the sales comparison approach.');
  if (comment.trim() === '') {
    problems.push('Say how you reconciled the adjusted prices into the indicated value (which comps weighed most, and why): the comment is required.');
  }
  const range = grid.adjustedRange;
  if (indicatedValueDollars !== null && range !== null && (indicatedValueDollars < range.low || indicatedValueDollars > range.high)) {
    problems.push(
      `The indicated value ${formatDollars(indicatedValueDollars)} is outside the range of adjusted prices (${formatDollars(range.low)} to ${formatDollars(range.high)}): say why in the comment.`,
    );
  }
  grid.columns.forEach((column, index) => {
    const name = `Comp ${index + 1}`;
    if (Math.abs(column.netPct) > NET_GUIDELINE_PCT) {
      problems.push(`${name}: net adjustment ${formatShareOfPrice(column.netPct)} of the sale price is past the ${NET_GUIDELINE_PCT} % guideline (a review guideline, not a rule: explain it or reconsider the comp).`);
    }
    if (column.grossPct > GROSS_GUIDELINE_PCT) {
      problems.push(`${name}: gross adjustment ${formatShareOfPrice(column.grossPct)} of the sale price is past the ${GROSS_GUIDELINE_PCT} % guideline (a review guideline, not a rule: explain it or reconsider the comp).`);
    }
  });
  return problems;
}
