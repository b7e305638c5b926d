// The report's comparables section, from the analysis the Comparables view shows (shared/comparables
// analysis.ts): the search as run, the map (as data: the print route draws it to an image), the
// sales comparison grid with every cell cited, the regression behind the rates, the sales analyzed
// and not used, and the prior sales. Pure. Every cell is re-keyed under `comparables.` so the
// citations file and "Verify a report" can tell each printed value from the others.
import { reconciliationProblems } from '../comparables/adjustments.ts';
import { gridRowLabels } from '../comparables/candidates.ts';
import { areaRowLabel, gridProperties, rateLabelFor } from '../comparables/answer-values.ts';
import { distanceText, mapSpecFor } from '../comparables/map-spec.ts';
import {
  gridRowKeys,
  notUsedReasonLabels,
  rateKeys,
  type ComparableSale,
  type ComparablesAnalysis,
  type ComparablesWorkfile,
  type GridProperty,
  type GridRowKey,
  type RegressionSupport,
} from '../comparables/model.ts';
import { describeCriteria } from '../comparables/search.ts';
import { noCompsText, notUsedEmptyText, searchOutcome, supportEmptyText } from '../comparables/empty-words.ts';
import { notUsedByLabels, relatedLotWords, takenInWords } from '../comparables/screening.ts';
import { copiedAcceptances, THE_APPRAISER } from '../comparables/grid-cited.ts';
import { citationOrder } from '../cited/citation-order.ts';
import type { ComparablesGrid, ComparablesMap, ComparablesSection, NotUsedRow, ReportTable } from './document.ts';
import { marketValues } from './market-section.ts';
import type { Citation, CitedValue } from '../cited/value.ts';

export const COMPARABLES_TITLE = 'Comparable sales';
export const NO_SEARCH = noCompsText({ kind: 'none' });
export const NO_COMPS_CHOSEN = noCompsText({ kind: 'listed', listed: 1, total: 1 });

/** The same value under a field and label of its own place in the report. */
const placed = (value: CitedValue, field: string, label: string): CitedValue => ({ ...value, field, label });

const finite = (value: number | null | undefined): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export interface ComparablesSectionOptions {
  /** The subject's use code, for the search's description ("Same property type as the subject (use code 24)"). */
  subjectUseCode?: string | null;
}

/**
 * The section for an assignment whose comparables work has started. A workfile without a search
 * gives a section that says so (and nothing else); one with a search gives everything it holds.
 */
export function comparablesSection(analysis: ComparablesAnalysis, workfile: ComparablesWorkfile, options: ComparablesSectionOptions = {}): ComparablesSection {
  const { run } = analysis;
  const problems = [...analysis.problems];
  if (run === null) {
    return { title: COMPARABLES_TITLE, search: null, map: null, grid: null, support: null, notUsed: [], takenIn: [], priorSales: null, missing: [NO_SEARCH], problems };
  }
  const subject = analysis.set.subject;
  const missing: string[] = [];
  const grid = analysis.chosen.length > 0 && subject !== null ? gridOf(analysis, subject, workfile) : null;
  const outcome = searchOutcome(run, analysis.set.candidates.length);
  if (analysis.chosen.length === 0) missing.push(noCompsText(outcome));
  if (grid) problems.push(...grid.reconciliation.problems.filter((problem) => !problems.includes(problem)));
  return {
    title: COMPARABLES_TITLE,
    search: {
      lines: describeCriteria(run.criteria, run.effectiveDate, run, subject ? { livingAreaSqft: subject.numbers.gla, useCode: options.subjectUseCode ?? null } : null),
      ranAt: run.ranAt,
      dataAsOf: run.dataAsOf ?? analysis.set.dataAsOf,
      total: analysis.set.total,
      returned: analysis.set.candidates.length,
      limitations: analysis.set.limitations.map((limitation) => ({ text: limitation.text, citationIds: [...limitation.citationIds] })),
      notUsedEmpty: notUsedEmptyText(outcome),
    },
    map: mapOf(analysis, workfile),
    grid,
    support: supportOf(analysis.support, supportEmptyText(outcome)),
    notUsed: analysis.notUsed.map(
      (entry): NotUsedRow => {
        const { candidate } = entry;
        const where = `comparables.notUsed.${candidate.id}`;
        const name = `Not used (${candidate.address})`;
        return {
          id: candidate.id,
          label: candidate.address,
          address: placed(candidate.values.address, `${where}.address`, `${name}: address`),
          saleDate: placed(candidate.values.saleDate, `${where}.saleDate`, `${name}: ${gridRowLabels.saleDate}`),
          price: placed(candidate.values.salePrice, `${where}.salePrice`, `${name}: ${gridRowLabels.salePrice}`),
          distance: placed(candidate.values.proximity, `${where}.proximity`, `${name}: ${gridRowLabels.proximity}`),
          reason: entry.reason,
          reasonLabel: entry.reason === null ? notUsedByLabels.not_chosen : notUsedReasonLabels[entry.reason],
          note: entry.note,
          by: entry.by,
          relatedLots: candidate.relatedLots.map((lot) => ({ words: relatedLotWords(lot), citationIds: [...lot.citationIds] })),
        };
      },
    ),
    takenIn: analysis.chosen.flatMap((comp) => {
      const words = takenInWords(comp, workfile);
      return words === null ? [] : [{ id: comp.id, label: comp.address, words }];
    }),
    priorSales: priorSalesTable(subject, analysis.chosen),
    missing,
    problems,
  };
}

// ---------------------------------------------------------------------------------------------
// The map

function mapOf(analysis: ComparablesAnalysis, workfile: ComparablesWorkfile): ComparablesMap {
  const spec = mapSpecFor(analysis, workfile);
  const byId = new Map(analysis.set.candidates.map((candidate) => [candidate.id, candidate]));
  const subjectApproximate = spec.subject?.approximate === true;
  const legend = spec.points
    .map((point) => ({ point, candidate: byId.get(point.id) }))
    .sort((a, b) => (a.point.number ?? Infinity) - (b.point.number ?? Infinity) || (a.candidate?.distanceMiles ?? 0) - (b.candidate?.distanceMiles ?? 0))
    .map(({ point, candidate }) => ({
      id: point.id,
      number: point.number,
      label: point.label,
      role: point.role,
      distance: candidate ? distanceText(candidate, subjectApproximate) : 'Distance not known',
    }));
  return { spec, caption: mapCaption(analysis, spec.radiusMiles), legend };
}

/** Who published what the map draws: the sales, their locations (the basemap's publishers are added where it is drawn). */
function mapCaption(analysis: ComparablesAnalysis, radiusMiles: number | null): string {
  const byId = new Map(analysis.citations.map((citation) => [citation.id, citation]));
  const publishers: string[] = [];
  const note = (ids: readonly string[]) => {
    for (const citation of ids.map((id) => byId.get(id)).filter((c): c is Citation => c !== undefined)) {
      const name = citation.publisher ?? 'a source the answer does not name';
      if (!publishers.includes(name)) publishers.push(name);
    }
  };
  for (const candidate of analysis.set.candidates) {
    if (candidate.location === null) continue;
    note(candidate.values.salePrice.citationIds);
    note(candidate.values.proximity.citationIds);
  }
  const approximate = analysis.set.candidates.some((candidate) => candidate.location?.approximate) || analysis.set.subject?.location?.approximate === true;
  return [
    publishers.length > 0 ? `Sales and their locations: ${publishers.join('; ')}.` : null,
    approximate ? 'OTR sale locations are tax-square centroids (approximate).' : null,
    radiusMiles !== null ? `The ring is the ${radiusMiles} mi searched around the subject.` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(' ');
}

// ---------------------------------------------------------------------------------------------
// The grid

function gridOf(analysis: ComparablesAnalysis, subject: GridProperty, workfile: ComparablesWorkfile): ComparablesGrid {
  const columnsById = new Map(analysis.grid.columns.map((column) => [column.compId, column]));
  const citedById = new Map((analysis.cited?.columns ?? []).map((column) => [column.compId, column]));
  const comps = analysis.chosen;
  // The area rows name the measure as published (gross building area standing in for GLA says so).
  const properties = gridProperties(analysis);
  const rows = gridRowKeys.map((key: GridRowKey) => ({
    key,
    label: areaRowLabel(key, properties),
    subject: placed(subject.values[key], `comparables.grid.subject.${key}`, `Subject: ${areaRowLabel(key, properties)}`),
    comps: comps.map((comp, index) => {
      const column = columnsById.get(comp.id);
      return {
        value: placed(comp.values[key], `comparables.grid.${comp.id}.${key}`, `Comp ${index + 1}: ${areaRowLabel(key, properties)}`),
        adjustment: column?.adjustments[key] ?? null,
        working: column?.workings[key] ?? null,
        cited: citedById.get(comp.id)?.adjustments[key] ?? null,
      };
    }),
  }));
  const summary = comps.flatMap((comp) => {
    const column = columnsById.get(comp.id);
    const cited = citedById.get(comp.id);
    return column && cited
      ? [
          {
            compId: comp.id,
            net: column.net,
            gross: column.gross,
            netPct: column.netPct,
            grossPct: column.grossPct,
            adjustedPrice: column.adjustedPrice,
            warnings: [...column.warnings],
            cited: { net: cited.net, netPct: cited.netPct, gross: cited.gross, grossPct: cited.grossPct, adjustedPrice: cited.adjustedPrice },
          },
        ]
      : [];
  });
  const suggestions = analysis.support.suggestions;
  return {
    columns: comps.map((comp, index) => ({ compId: comp.id, number: index + 1, address: comp.address, weight: columnsById.get(comp.id)?.weight ?? workfile.weights[comp.id] ?? 'less' })),
    rows,
    summary,
    adjustedRange: analysis.grid.adjustedRange === null ? null : { low: analysis.grid.adjustedRange.low, high: analysis.grid.adjustedRange.high },
    adjustedRangeCited: analysis.cited?.adjustedRange ?? null,
    copiedAccepted: copiedAcceptances(workfile, subject, comps, analysis.cited?.appraiser ?? THE_APPRAISER),
    rates: rateKeys.map((key) => {
      const value = workfile.rates[key];
      const suggestion = suggestions[key];
      const suggested = finite(suggestion?.value);
      return {
        key,
        label: rateLabelFor(key, properties).label,
        unit: rateLabelFor(key, properties).unit,
        value,
        source: value === null ? null : (workfile.rateSource[key] ?? 'appraiser'),
        support: suggested === null ? null : { value: suggested, ciLow: finite(suggestion?.ciLow), ciHigh: finite(suggestion?.ciHigh) },
        cited: analysis.cited?.rates[key] ?? null,
        standing: suggested === null || !suggestion ? null : { supported: suggestion.standing.supported, reasons: [...suggestion.standing.reasons] },
        // The appraiser's reason for using a suggestion shown as not supported: printed next to the rate.
        unsupportedReason: value !== null && workfile.rateSource[key] === 'suggestion' ? (workfile.unsupportedRateReasons?.[key] ?? null) : null,
      };
    }),
    reconciliation: {
      indicatedValueDollars: workfile.reconciliation.indicatedValueDollars,
      indicatedValue: analysis.cited?.indicatedValue ?? null,
      comment: workfile.reconciliation.comment,
      problems: reconciliationProblems(workfile, analysis.grid),
    },
  };
}

/** The regression as the document keeps it: numbers a JSON file can hold (a non-finite one is "could not be estimated"). */
function supportOf(support: RegressionSupport, emptyMessage: string | null): ComparablesSection['support'] {
  const suggestions = Object.fromEntries(
    rateKeys.map((key) => {
      const suggestion = support.suggestions[key];
      return [
        key,
        {
          rate: key,
          value: finite(suggestion?.value),
          ciLow: finite(suggestion?.ciLow),
          ciHigh: finite(suggestion?.ciHigh),
          coefficient: finite(suggestion?.coefficient),
          stdError: finite(suggestion?.stdError),
          why: emptyMessage ?? suggestion?.why ?? (suggestion ? null : 'Not estimated.'),
          standing: suggestion
            ? { ...suggestion.standing, reasons: emptyMessage === null ? [...suggestion.standing.reasons] : [emptyMessage] }
            : { supported: false, expectedSign: '', reasons: [emptyMessage ?? 'Not estimated.'] },
        },
      ];
    }),
  ) as NonNullable<ComparablesSection['support']>['suggestions'];
  return {
    method: support.method,
    n: support.n,
    r2: finite(support.r2),
    adjustedR2: finite(support.adjustedR2),
    predictors: [...support.predictors],
    suggestions,
    salesUsed: support.salesUsed.map((sale) => ({ ...sale, citationIds: [...sale.citationIds] })),
    excluded: support.excluded.map((sale) => ({ ...sale })),
    analyzed: support.analyzed.map((sale) => ({ ...sale, values: { ...sale.values } })),
    fit: support.fit === null ? null : { ...support.fit },
    figures: support.figures,
    // A search whose answer is not kept is not "a search that returned no sales".
    message: emptyMessage ?? support.message,
  };
}

// ---------------------------------------------------------------------------------------------
// Prior sales

const PRIOR_COLUMNS = [
  { key: 'property', label: 'Property' },
  { key: 'date', label: 'Date' },
  { key: 'price', label: 'Price' },
  { key: 'source', label: 'Source' },
];

/** Earlier transfers of the subject and each chosen comp; the note says what the sample holds when it holds none. */
function priorSalesTable(subject: GridProperty | null, comps: readonly ComparableSale[]): ReportTable {
  const properties = [...(subject ? [{ property: subject, name: 'Subject' }] : []), ...comps.map((comp, index) => ({ property: comp, name: `Comp ${index + 1}` }))];
  const rows: ReportTable['rows'] = [];
  const notes: string[] = [];
  for (const { property, name } of properties) {
    if (property.priorSales.length === 0 && !notes.includes(property.priorSalesNote)) notes.push(property.priorSalesNote);
    property.priorSales.forEach((sale, index) => {
      const where = `comparables.prior.${property.id}.${index}`;
      const address = property.values.address;
      rows.push({
        property: placed({ ...address, display: address.status === 'unavailable' ? address.display : `${name}: ${address.display}` }, `${where}.property`, `${name}: prior sale ${index + 1}, property`),
        date: placed(sale.date, `${where}.date`, `${name}: prior sale ${index + 1}, date`),
        price: placed(sale.price, `${where}.price`, `${name}: prior sale ${index + 1}, price`),
        source: placed(sale.source, `${where}.source`, `${name}: prior sale ${index + 1}, source`),
      });
    });
  }
  return { id: 'comparables-prior-sales', title: 'Prior sales of the subject and the comps', columns: PRIOR_COLUMNS, rows, note: notes.length > 0 ? notes.join(' ') : null };
}

// ---------------------------------------------------------------------------------------------
// Reading the section back: its printed values and its citations, in print order

/** The grid's totals, range, indicated value and rates as derived values, in print order (the adjustments sit in the rows). */
function appraiserFigures(grid: ComparablesGrid | null): CitedValue[] {
  if (!grid) return [];
  return [
    ...grid.summary.flatMap((summary) => [summary.cited.net, summary.cited.netPct, summary.cited.gross, summary.cited.grossPct, summary.cited.adjustedPrice]),
    ...(grid.adjustedRangeCited ? [grid.adjustedRangeCited] : []),
    ...(grid.reconciliation.indicatedValue ? [grid.reconciliation.indicatedValue] : []),
    ...grid.rates.flatMap((rate) => (rate.cited ? [rate.cited] : [])),
  ];
}

/** The regression's figures in print order: n, R², then each fitted rate's suggestion and interval. */
export function regressionFigureValues(support: ComparablesSection['support']): CitedValue[] {
  const figures = support?.figures;
  if (!figures) return [];
  return [figures.n, figures.r2, ...support.predictors.flatMap((key) => (figures.rates[key] ? [figures.rates[key].value, figures.rates[key].interval] : []))];
}

/** Every cited value the section prints, in the order a reader meets them (the grid row by row with its adjustments, the appraiser's figures, the regression's figures). */
export function comparablesValues(section: ComparablesSection): CitedValue[] {
  const values: CitedValue[] = [];
  for (const row of section.grid?.rows ?? []) values.push(row.subject, ...row.comps.flatMap((cell) => [cell.value, ...(cell.cited ? [cell.cited] : [])]));
  values.push(...appraiserFigures(section.grid));
  values.push(...regressionFigureValues(section.support));
  for (const row of section.notUsed) values.push(row.address, row.saleDate, row.price, row.distance);
  const table = section.priorSales;
  if (table) for (const row of table.rows) for (const column of table.columns) if (row[column.key]) values.push(row[column.key]!);
  if (section.market) values.push(...marketValues(section.market));
  return values;
}

/** The citation ids the section prints, in order of first use: the search's limitations, the grid, the regression's sales, the sales not used, the prior sales. */
export function comparablesCitationOrder(section: ComparablesSection): string[] {
  const { ids, use, visit, visitTable } = citationOrder();
  for (const limitation of section.search?.limitations ?? []) use(limitation.citationIds);
  for (const row of section.grid?.rows ?? []) [row.subject, ...row.comps.flatMap((cell) => [cell.value, ...(cell.cited ? [cell.cited] : [])])].forEach(visit);
  appraiserFigures(section.grid).forEach(visit);
  regressionFigureValues(section.support).forEach(visit);
  for (const sale of section.support?.salesUsed ?? []) use(sale.citationIds);
  for (const row of section.notUsed) {
    [row.address, row.saleDate, row.price, row.distance].forEach(visit);
    for (const lot of row.relatedLots) use(lot.citationIds);
  }
  if (section.priorSales) visitTable(section.priorSales);
  return ids;
}

/** Whether an assignment's comparables work has started: a search run, or the workfile saved. Before that the report prints nothing about comparables. */
export const comparablesStarted = (workfile: Pick<ComparablesWorkfile, 'searches' | 'savedAt'>): boolean => workfile.searches.length > 0 || workfile.savedAt !== null;
