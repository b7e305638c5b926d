// The sales comparison as JSON shaped after the sales comparison section of UAD 3.6 (the redesigned
// URAR): the subject and each comparable with its characteristics and adjustments, net and gross,
// adjusted prices and weights, the research summary, the sales analyzed and not used with reasons, the
// adjustment rates with their support, and the reconciliation. Every value keeps Plat's status
// (reported / derived / synthetic / unavailable) and its citations. It imitates the section's
// content for reading and review; it is not a MISMO/UAD file (docs/uad-sales-comparison.md).
import type { CitedValue } from '../cited/value.ts';
import type { MarketAnalysis } from '../market/analysis.ts';
import { marketConditionsUad } from '../market/uad.ts';
import { reconciliationProblems } from './adjustments.ts';
import { areaRowLabel, gridProperties, rateLabelFor } from './answer-values.ts';
import { copiedAcceptances, THE_APPRAISER } from './grid-cited.ts';
import { weightLabels } from './grid-csv.ts';
import { predictorNames } from './regression.ts';
import { notUsedByLabels } from './screening.ts';
import {
  gridRowKeys,
  manualRows,
  notUsedReasonLabels,
  rateKeys,
  rateRow,
  type ComparableSale,
  type ComparablesAnalysis,
  type ComparablesWorkfile,
  type GridColumnResult,
  type GridProperty,
  type GridRowKey,
  type PredictorSource,
  type RateKey,
  type RegressionSupport,
} from './model.ts';

export const UAD_NOTICE = 'Shaped after the UAD 3.6 sales comparison section for reading and review; not a certified UAD file and not valid for GSE delivery.';

export interface UadExportContext {
  assignment: { name: string; effectiveDate: string; subjectRef: string };
  generatedAt: string;
  appVersion: string;
  /** The appraiser's rates, where each came from, and the reconciliation (the analysis does not carry them). */
  workfile: Pick<ComparablesWorkfile, 'rates' | 'rateSource' | 'reconciliation' | 'marketTrend' | 'syntheticAccepted'> & Partial<Pick<ComparablesWorkfile, 'unsupportedRateReasons'>>;
  /** The market conditions and the time trend (shared/market/analysis.ts): written as their own section when given. */
  market?: MarketAnalysis | null;
}

const statusMeanings = {
  reported: 'As the publisher printed it.',
  derived: 'Computed by Plat or the service from the cited inputs (see derivedFrom); not as published.',
  synthetic: 'Made up by Plat’s sample (building characteristics of OTR sales copied from a DC CAMA record near the lot’s tax square); not a public record of this property.',
  unavailable: 'Not in the sample or not published (see limitation).',
};

/** A cited value as the export writes it: the value, how it reads, its status and citations. */
function citedJson(value: CitedValue) {
  return {
    value: value.raw,
    display: value.display,
    status: value.status,
    citationIds: value.citationIds,
    derivedFrom: value.derivedFrom,
    limitation: value.limitation,
    alternatives: value.alternatives.map((alternative) => ({ display: alternative.display, status: alternative.status, citationIds: alternative.citationIds, note: alternative.note })),
    choice: value.choice,
    // A figure Plat or the appraiser worked out by a named rule: its rule and inputs, so a reviewer can make it again.
    ...(value.derivation ? { derivation: value.derivation } : {}),
  };
}

/** A figure of the grid as a derived value, or null where the grid has none. */
const figureJson = (value: CitedValue | null | undefined) => (value ? citedJson(value) : null);

const rateOfRow = new Map<GridRowKey, RateKey>(rateKeys.map((rate) => [rateRow[rate], rate]));
const manualRowSet = new Set<GridRowKey>(manualRows);

/** A row's adjustment: amount, workings, what it rests on (the rate or the appraiser's lump sum) and the citations of the values compared. */
function adjustmentJson(
  row: GridRowKey,
  column: GridColumnResult | undefined,
  figure: CitedValue | undefined,
  subjectValues: Record<GridRowKey, CitedValue> | null,
  comp: ComparableSale,
  context: UadExportContext,
  properties: readonly GridProperty[],
) {
  const amount = column?.adjustments[row];
  if (amount === undefined) return null;
  const rate = rateOfRow.get(row);
  const compared = [comp.values[row], ...(subjectValues ? [subjectValues[row]] : []), ...(row === 'saleDate' ? [comp.values.salePrice] : [])];
  return {
    amountDollars: amount,
    workings: column?.workings[row] ?? null,
    basis: rate ? 'rate' : manualRowSet.has(row) ? 'appraiser lump sum' : 'other',
    rate: rate ? { key: rate, value: context.workfile.rates[rate], unit: rateLabelFor(rate, properties).unit } : null,
    status: 'derived',
    citationIds: figure ? figure.citationIds : [...new Set(compared.flatMap((value) => value.citationIds))],
    derivedFrom: figure?.derivedFrom ?? null,
    derivation: figure?.derivation ?? null,
  };
}

/**
 * The regression as a reviewer refits it: the method, the response, the predictors in the design's
 * column order, the intercept and every coefficient with its standard error and interval, the figures
 * as derived values, and every analyzed sale (used and left out, with the reason) with each
 * predictor's value marked observed, copied and accepted, copied (not used) or missing.
 */
export function regressionJson(support: RegressionSupport) {
  return {
    method: support.method,
    response: { name: 'sale price', unit: 'whole US dollars', key: 'priceDollars' },
    n: support.n,
    r2: support.r2,
    adjustedR2: support.adjustedR2,
    predictors: support.predictors.map((rate, column) => ({ column, key: rate, name: predictorNames[rate] })),
    intercept: support.fit === null ? null : { coefficient: support.fit.intercept, stdError: support.fit.interceptStdError },
    degreesOfFreedom: support.fit?.df ?? null,
    tQuantile: support.fit?.t ?? null,
    meanSalePriceDollars: support.fit?.meanPrice ?? null,
    coefficients: support.predictors.map((rate) => {
      const suggestion = support.suggestions[rate];
      return { key: rate, coefficient: suggestion.coefficient, stdError: suggestion.stdError, rate: { value: suggestion.value, ciLow: suggestion.ciLow, ciHigh: suggestion.ciHigh }, standing: suggestion.standing };
    }),
    figures: support.figures,
    predictorSources: predictorSourceMeanings,
    analyzedSales: support.analyzed.map((sale) => ({
      id: sale.id,
      address: sale.address,
      saleDate: sale.saleDate,
      priceDollars: sale.priceDollars,
      used: sale.used,
      excludedBecause: sale.why,
      takenInBecause: sale.takenIn,
      predictors: sale.values,
    })),
    salesUsed: support.salesUsed,
    excluded: support.excluded,
    message: support.message,
  };
}

/** What each predictor source means, written once in the file. */
export const predictorSourceMeanings: Record<PredictorSource, string> = {
  observed: 'Observed on the sale itself (its record, or its own sale date for months since sale).',
  'copied-accepted': 'Copied from another house by Plat’s sample; the appraiser accepted copied values for this row, so it is fitted.',
  copied: 'Copied from another house by Plat’s sample and not accepted: shown, not fitted (counts as missing).',
  missing: 'Not in the sample.',
};

/**
 * The analysis as JSON shaped after UAD 3.6's sales comparison section. Ids in `citationIds` refer
 * to `citations[].id`.
 */
export function salesComparisonUad(analysis: ComparablesAnalysis, context: UadExportContext): Record<string, unknown> {
  const subject = analysis.set.subject;
  const columns = new Map(analysis.grid.columns.map((column) => [column.compId, column]));
  const cited = new Map((analysis.cited?.columns ?? []).map((column) => [column.compId, column]));
  const run = analysis.run;
  const support = analysis.support;
  const range = analysis.grid.adjustedRange;
  const properties = gridProperties(analysis);

  return {
    notice: UAD_NOTICE,
    format: {
      name: 'plat-sales-comparison',
      version: 1,
      shapedAfter: 'UAD 3.6 (redesigned URAR), Sales Comparison Approach section',
      documentation: 'docs/uad-sales-comparison.md',
    },
    generatedAt: context.generatedAt,
    generatedBy: { application: 'Plat', version: context.appVersion },
    assignment: { name: context.assignment.name, effectiveDate: context.assignment.effectiveDate, subjectPropertyRef: context.assignment.subjectRef },
    valueStatuses: statusMeanings,
    salesComparisonApproach: {
      researchSummary: {
        search: run
          ? {
              criteria: run.criteria,
              effectiveDate: run.effectiveDate,
              radiusMilesSearched: run.radiusMiles,
              ranAt: run.ranAt,
              dataAsOf: run.dataAsOf,
              requests: run.pages,
            }
          : null,
        salesMatchingCount: analysis.set.total,
        salesReturnedCount: analysis.set.candidates.length,
        moreSalesNotLoaded: analysis.set.truncated,
        comparablesUsedCount: analysis.chosen.length,
        analyzedNotUsedCount: analysis.notUsed.length,
        dataAsOf: analysis.set.dataAsOf,
        limitations: analysis.set.limitations,
      },
      subject: subject
        ? {
            propertyRef: subject.propertyRef,
            address: subject.address,
            location: subject.location,
            syntheticCharacteristics: subject.syntheticCharacteristics,
            features: Object.fromEntries(gridRowKeys.map((row) => [row, { label: areaRowLabel(row, properties), ...citedJson(subject.values[row]) }])),
            priorSales: subject.priorSales.map((sale) => ({ date: citedJson(sale.date), price: citedJson(sale.price), source: citedJson(sale.source) })),
            priorSalesNote: subject.priorSalesNote,
          }
        : null,
      comparables: analysis.chosen.map((comp, index) => {
        const column = columns.get(comp.id);
        const figures = cited.get(comp.id);
        return {
          comparableNumber: index + 1,
          id: comp.id,
          recordRef: comp.recordRef,
          propertyRef: comp.propertyRef,
          address: comp.address,
          location: comp.location,
          proximity: { distanceMiles: comp.distanceMiles, direction: comp.direction },
          salePriceDollars: comp.priceDollars,
          saleDate: comp.saleDate,
          // Unknown (a code Plat does not recognise) is not "not arm's length".
          armsLength: comp.marketStatus === 'unknown' ? null : comp.market,
          flags: comp.flags,
          syntheticCharacteristics: comp.syntheticCharacteristics,
          features: Object.fromEntries(
            gridRowKeys.map((row) => [
              row,
              { label: areaRowLabel(row, properties), ...citedJson(comp.values[row]), adjustment: adjustmentJson(row, column, figures?.adjustments[row], subject?.values ?? null, comp, context, properties) },
            ]),
          ),
          netAdjustment: column ? { amountDollars: column.net, percentOfSalePrice: column.netPct, cited: figureJson(figures?.net), percentCited: figureJson(figures?.netPct) } : null,
          grossAdjustment: column ? { amountDollars: column.gross, percentOfSalePrice: column.grossPct, cited: figureJson(figures?.gross), percentCited: figureJson(figures?.grossPct) } : null,
          adjustedSalePriceDollars: column?.adjustedPrice ?? null,
          adjustedSalePrice: figureJson(figures?.adjustedPrice),
          weight: column ? { code: column.weight, label: weightLabels[column.weight] } : null,
          warnings: column?.warnings ?? [],
          priorSales: comp.priorSales.map((sale) => ({ date: citedJson(sale.date), price: citedJson(sale.price), source: citedJson(sale.source) })),
          priorSalesNote: comp.priorSalesNote,
        };
      }),
      adjustmentRates: rateKeys.map((rate) => ({
        key: rate,
        label: rateLabelFor(rate, properties).label,
        unit: rateLabelFor(rate, properties).unit,
        row: rateRow[rate],
        valueUsed: context.workfile.rates[rate],
        setBy: context.workfile.rateSource[rate] ?? null,
        cited: figureJson(analysis.cited?.rates[rate]),
        support: support.suggestions[rate],
        unsupportedUseReason: context.workfile.rateSource[rate] === 'suggestion' ? (context.workfile.unsupportedRateReasons?.[rate] ?? null) : null,
      })),
      copiedValuesAccepted: subject ? copiedAcceptances(context.workfile, subject, analysis.chosen, analysis.cited?.appraiser ?? THE_APPRAISER) : [],
      adjustmentSupport: regressionJson(support),
      analyzedNotUsed: analysis.notUsed.map((entry) => ({
        id: entry.candidate.id,
        recordRef: entry.candidate.recordRef,
        address: entry.candidate.address,
        saleDate: citedJson(entry.candidate.values.saleDate),
        salePrice: citedJson(entry.candidate.values.salePrice),
        proximity: { distanceMiles: entry.candidate.distanceMiles, direction: entry.candidate.direction },
        reason: entry.reason,
        reasonLabel: entry.reason === null ? notUsedByLabels.not_chosen : notUsedReasonLabels[entry.reason],
        note: entry.note,
        decidedBy: entry.by,
        relatedLots: entry.candidate.relatedLots.map((lot) => ({ address: lot.address, ssl: lot.ssl, recordRef: lot.recordRef, citationIds: lot.citationIds })),
      })),
      reconciliation: {
        adjustedPriceRange: range ? { lowDollars: range.low, highDollars: range.high, basis: 'Comparables given weight (all of them when none is)', cited: figureJson(analysis.cited?.adjustedRange) } : null,
        indicatedValueDollars: context.workfile.reconciliation.indicatedValueDollars,
        indicatedValue: figureJson(analysis.cited?.indicatedValue),
        comment: context.workfile.reconciliation.comment,
        openProblems: reconciliationProblems(context.workfile, analysis.grid),
      },
      problems: analysis.problems,
    },
    // 1004MC: a section of its own beside the sales comparison (its ids refer to its own citations list).
    marketConditions: context.market ? marketConditionsUad(context.market, context.workfile) : null,
    citations: analysis.citations,
  };
}
