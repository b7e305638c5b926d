// The sales comparison grid as CSV, for a spreadsheet: one row per grid row (the subject's and each
// comp's description, each comp's adjustment as a plain signed number so the column can be summed),
// the column summaries, then the rates, the workings and the citations the "sources" cells number.
// Every cell goes through shared/csv.ts, so an address that starts like a formula stays text.
import { csvField } from '../csv.ts';
import { formatR2 } from '../format/number.ts';
import { citationText } from '../cited/citation.ts';
import type { Citation, CitedValue } from '../cited/value.ts';
import { areaRowLabel, gridProperties, rateLabelFor } from './answer-values.ts';
import { gridRowKeys, rateKeys, type ComparableWeight, type ComparablesAnalysis, type ComparablesWorkfile, type GridRowKey } from './model.ts';
import { copiedAcceptances, THE_APPRAISER } from './grid-cited.ts';

export const weightLabels: Record<ComparableWeight, string> = { most: 'Most weight', less: 'Less weight', none: 'No weight' };

/** What the grid export adds when the workfile is at hand: the rates beside their support, and the reconciliation. */
export type GridCsvWorkfile = Pick<ComparablesWorkfile, 'rates' | 'rateSource' | 'reconciliation' | 'syntheticAccepted'>;

type Cell = string | number | null;

/** Numbers citations in order of first use in the file, so the "sources" cells and the citations block agree. */
class Endnotes {
  readonly #numbers = new Map<string, number>();
  readonly known: Map<string, Citation>;
  constructor(known: Map<string, Citation>) {
    this.known = known;
  }

  numbers(ids: readonly string[]): number[] {
    return ids.filter((id) => this.known.has(id)).map((id) => {
      let number = this.#numbers.get(id);
      if (number === undefined) {
        number = this.#numbers.size + 1;
        this.#numbers.set(id, number);
      }
      return number;
    });
  }

  /** Every citation of the analysis, numbered: the ones the grid used first, the rest after. */
  all(): Array<{ number: number; citation: Citation }> {
    this.numbers([...this.known.keys()]);
    return [...this.#numbers].map(([id, number]) => ({ number, citation: this.known.get(id) as Citation }));
  }
}

/** A value's status and endnote numbers ("reported: 1", "synthetic: 2", "unavailable: not in the sample"). */
function sourcesCell(value: CitedValue, notes: Endnotes): string {
  if (value.status === 'unavailable') return `unavailable: ${value.limitation ?? 'no source gives it'}`;
  const numbers = notes.numbers(value.citationIds);
  const derived = value.status === 'derived' && value.derivedFrom ? ` (${value.derivedFrom})` : '';
  return `${value.status}: ${numbers.length > 0 ? numbers.join(', ') : 'no citation'}${derived}`;
}

/** The grid as RFC 4180 CSV (CRLF line ends), every row as wide as the grid. */
export function gridCsv(analysis: ComparablesAnalysis, workfile?: GridCsvWorkfile): string {
  const notes = new Endnotes(new Map(analysis.citations.map((citation) => [citation.id, citation])));
  const columns = new Map(analysis.grid.columns.map((column) => [column.compId, column]));
  const comps = analysis.chosen;
  const subject = analysis.set.subject;
  const rows: Cell[][] = [];
  const properties = gridProperties(analysis);

  rows.push(['Feature', 'Subject', 'Subject sources', ...comps.flatMap((_, index) => [`Comp ${index + 1} description`, `Comp ${index + 1} adjustment`, `Comp ${index + 1} sources`])]);
  for (const row of gridRowKeys) {
    const subjectValue = subject?.values[row];
    rows.push([
      areaRowLabel(row, properties),
      subjectValue?.display ?? 'no subject report',
      subjectValue ? sourcesCell(subjectValue, notes) : '',
      ...comps.flatMap((comp) => [comp.values[row].display, columns.get(comp.id)?.adjustments[row] ?? null, sourcesCell(comp.values[row], notes)]),
    ]);
  }
  const summary = (label: string, pick: (compId: string) => { description?: Cell; adjustment?: Cell }) =>
    rows.push([label, '', '', ...comps.flatMap((comp) => {
      const cells = pick(comp.id);
      return [cells.description ?? '', cells.adjustment ?? '', ''];
    })]);
  summary('Net adjustment', (id) => ({ adjustment: columns.get(id)?.net ?? null }));
  summary('Gross adjustment', (id) => ({ adjustment: columns.get(id)?.gross ?? null }));
  summary('Net adjustment, % of sale price', (id) => ({ adjustment: columns.get(id)?.netPct ?? null }));
  summary('Gross adjustment, % of sale price', (id) => ({ adjustment: columns.get(id)?.grossPct ?? null }));
  summary('Adjusted sale price', (id) => ({ adjustment: columns.get(id)?.adjustedPrice ?? null }));
  summary('Comparable weight', (id) => {
    const weight = columns.get(id)?.weight;
    return { description: weight ? weightLabels[weight] : '' };
  });
  summary('Warnings', (id) => ({ description: columns.get(id)?.warnings.join(' ') ?? '' }));
  const cited = analysis.cited;
  const figures = new Map((cited?.columns ?? []).map((column) => [column.compId, column]));
  // Each column's figures as derived values: their sources and the rule they are made by.
  const figureSources = (label: string, pick: (column: NonNullable<typeof cited>['columns'][number]) => CitedValue) =>
    summary(label, (id) => {
      const column = figures.get(id);
      return { description: column ? sourcesCell(pick(column), notes) : '' };
    });
  if (cited) {
    figureSources('Net adjustment, sources', (column) => column.net);
    figureSources('Adjusted sale price, sources', (column) => column.adjustedPrice);
  }
  const range = analysis.grid.adjustedRange;
  const rangeSources = cited?.adjustedRange ? sourcesCell(cited.adjustedRange, notes) : 'derived: comps given weight';
  rows.push(['Adjusted sale prices, lowest', range?.low ?? '', range ? rangeSources : '']);
  rows.push(['Adjusted sale prices, highest', range?.high ?? '', range ? rangeSources : '']);
  if (workfile) {
    rows.push(['Indicated value by sales comparison', workfile.reconciliation.indicatedValueDollars, cited?.indicatedValue ? sourcesCell(cited.indicatedValue, notes) : 'appraiser']);
    rows.push(['Reconciliation comment', workfile.reconciliation.comment, 'appraiser']);
  }

  const support = analysis.support;
  rows.push([]);
  rows.push(['Adjustment rates']);
  rows.push(['Rate', 'Unit', 'Rate used', 'Set by', 'Regression suggestion', '95 % CI low', '95 % CI high', 'Why no suggestion']);
  for (const rate of rateKeys) {
    const suggestion = support.suggestions[rate];
    const source = workfile?.rateSource[rate];
    rows.push([
      rateLabelFor(rate, properties).label,
      rateLabelFor(rate, properties).unit,
      workfile ? (workfile.rates[rate] ?? 'no adjustment') : '',
      source === 'suggestion' ? 'accepted suggestion' : source === 'appraiser' ? 'appraiser' : '',
      suggestion.value,
      suggestion.ciLow,
      suggestion.ciHigh,
      suggestion.why ?? '',
    ]);
  }
  rows.push(['Regression', support.message ?? support.method, `n = ${support.n}`, support.r2 === null ? 'R² —' : `R² = ${formatR2(support.r2)}`]);

  rows.push([]);
  rows.push(['Adjustment workings']);
  rows.push(['Comp', 'Address', 'Feature', 'Adjustment', 'Workings', 'Rule', 'Inputs', 'Sources']);
  comps.forEach((comp, index) => {
    const column = columns.get(comp.id);
    for (const [row, amount] of Object.entries(column?.adjustments ?? {}) as Array<[GridRowKey, number]>) {
      const figure = figures.get(comp.id)?.adjustments[row];
      const derivation = column?.derivations[row];
      rows.push([`Comp ${index + 1}`, comp.address, areaRowLabel(row, properties), amount, column?.workings[row] ?? '', derivation?.rule ?? '', derivation ? derivation.inputs.join(' ') : '', figure ? sourcesCell(figure, notes) : '']);
    }
  });

  if (subject && workfile) {
    const accepted = copiedAcceptances(workfile, subject, comps, cited?.appraiser ?? THE_APPRAISER);
    rows.push([]);
    rows.push(['Copied values accepted by the appraiser']);
    rows.push(['Feature', 'Accepted for', 'By', 'Reason', 'When']);
    if (accepted.length === 0) rows.push(['None: copied (synthetic) values drive no adjustment']);
    for (const act of accepted) rows.push([act.rowLabel, act.appliesTo, act.by, act.reason, act.at]);
  }

  rows.push([]);
  rows.push(['Citations']);
  rows.push(['Note', 'Citation id', 'Publisher', 'Dataset', 'As of', 'Record', 'Release', 'SHA-256', 'Address', 'Synthetic', 'Citation']);
  for (const { number, citation } of notes.all()) {
    rows.push([
      number,
      citation.id,
      citation.publisher,
      citation.dataset,
      citation.asOf,
      citation.recordRef,
      citation.releaseId,
      citation.sha256,
      citation.officialUrl,
      citation.synthetic ? 'synthetic (not a public record)' : 'no',
      citationText(citation),
    ]);
  }

  const width = Math.max(...rows.map((row) => row.length));
  const lines = rows.map((row) => Array.from({ length: width }, (_, index) => csvField(row[index] ?? null)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
