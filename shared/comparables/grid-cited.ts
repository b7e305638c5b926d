// The figures the appraiser adds to the grid, as derived values: each rate, each adjustment, each
// comp's net and gross (in dollars and as a percent of its price), its adjusted price, the range of
// adjusted prices and the indicated value. Each cites its inputs (the grid values it compares, the
// sale price, and the appraiser for what they entered) and carries its named rule, so the report
// prints it with markers, citations.json keeps its inputs and "Verify a report" makes it again.
// The numbers are computeGrid's: nothing is computed twice, only made into cited values.
import type { CitationFields } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import { derive, type Derivation } from '../cited/derivation.ts';
import { derivedValue, type DerivedInput } from '../cited/derived.ts';
import type { CitedValue } from '../cited/value.ts';
import { formatDollars } from '../money.ts';
import { areaRowLabel, areaShortLabel } from './answer-values.ts';
import { gridRowKeys, rateLabels, rateKeys, rateRow, type CitedGrid, type CitedGridColumn, type ComparableSale, type ComparablesWorkfile, type GridProperty, type GridResult, type GridRowKey, type RateKey } from './model.ts';

/** Who the appraiser's entries are cited to when the caller does not name them. */
export const THE_APPRAISER = 'The appraiser';

/** The appraiser's entries in this assignment's workfile, as a citation: the rates, lump sums and the indicated value are theirs, not a publisher's. */
export function appraiserCitation(appraiser: string, workfile: Pick<ComparablesWorkfile, 'savedAt'>): CitationFields {
  return {
    publisher: appraiser,
    dataset: 'Comparables workfile of this assignment',
    asOf: workfile.savedAt === null ? null : workfile.savedAt.slice(0, 10),
    sourceId: null,
    recordRef: null,
    releaseId: null,
    sha256: null,
    officialUrl: null,
    synthetic: false,
    note: 'Entered by the appraiser in Plat (rates, lump-sum adjustments, weights, the indicated value); the report is signed with this installation’s certificate, whose fingerprint the cover prints.',
  };
}

export interface CiteGridInput {
  subject: GridProperty;
  comps: readonly ComparableSale[];
  grid: GridResult;
  workfile: ComparablesWorkfile;
  /** Who the appraiser is, as the report names them; THE_APPRAISER when not known. */
  appraiser?: string;
}

function value(field: string, label: string, raw: number | string, derivation: Derivation, rule: string, inputs: DerivedInput[], cite: Cite): CitedValue {
  return derivedValue({ field, label, raw, display: derive(derivation), rule, inputs, derivation }, cite);
}

function notAPercent(field: string, label: string): CitedValue {
  return { field, label, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: 'No sale price to take a percent of (non-market or no price).', alternatives: [], choice: null };
}

const ids = (cited: CitedValue): DerivedInput => ({ name: cited.label, citationIds: cited.citationIds });

/** The grid's figures as cited values, keyed as the report prints them (`comparables.grid.<comp>.<row>.adjustment`, …). */
export function citeGrid(input: CiteGridInput, cite: Cite): CitedGrid {
  const { subject, grid, workfile } = input;
  const appraiser = input.appraiser ?? THE_APPRAISER;
  const byAppraiser: DerivedInput = { name: `${appraiser}’s entries`, citations: [appraiserCitation(appraiser, workfile)] };
  // The sentences say "the appraiser"; the citation names them (the report's signer).
  const whose = 'The appraiser’s';

  const rates: CitedGrid['rates'] = {};
  for (const key of rateKeys) {
    const rate = workfile.rates[key];
    if (rate === null) continue;
    const suggested = workfile.rateSource[key] === 'suggestion';
    rates[key] = value(
      `comparables.rates.${key}`,
      `Rate: ${key === 'glaPerSqft' ? areaShortLabel([subject, ...input.comps]) : rateLabels[key].label}`,
      rate,
      { rule: 'appraiser-rate', inputs: [rate, rateLabels[key].unit] },
      suggested ? 'The regression’s suggested rate, accepted by the appraiser' : `${whose} rate`,
      [byAppraiser],
      cite,
    );
  }
  const rateOfRow = new Map<GridRowKey, RateKey>(Object.entries(rateRow).map(([key, row]) => [row, key as RateKey]));

  const compsById = new Map(input.comps.map((comp) => [comp.id, comp]));
  const columns = grid.columns.flatMap((column, index): CitedGridColumn[] => {
    const comp = compsById.get(column.compId);
    if (!comp) return [];
    const name = `Comp ${index + 1}`;
    const where = `comparables.grid.${comp.id}`;
    const price: DerivedInput = { name: `${name}’s sale price`, citationIds: comp.values.salePrice.citationIds };
    const adjustments: CitedGridColumn['adjustments'] = {};
    for (const [row, amount] of Object.entries(column.adjustments) as Array<[GridRowKey, number]>) {
      const derivation = column.derivations[row];
      if (!derivation) continue;
      const rowName = row === 'gla' ? areaShortLabel([subject, comp]) : areaRowLabel(row, [subject, comp]);
      const rateKey = rateOfRow.get(row);
      const rate = rateKey ? rates[rateKey] : undefined;
      const inputs: DerivedInput[] =
        derivation.rule === 'appraiser-adjustment'
          ? [byAppraiser]
          : row === 'saleDate'
            ? [rate ? ids(rate) : byAppraiser, price, { name: `${name}’s sale date`, citationIds: comp.values.saleDate.citationIds }]
            : [rate ? ids(rate) : byAppraiser, { name: `the subject’s ${rowName}`, citationIds: subject.values[row].citationIds }, { name: `${name}’s ${rowName}`, citationIds: comp.values[row].citationIds }];
      const rule = derivation.rule === 'appraiser-adjustment' ? `${whose} lump-sum adjustment` : (column.workings[row] ?? `${whose} rate × the difference`);
      adjustments[row] = value(`${where}.${row}.adjustment`, `${name}: ${rowName} adjustment`, amount, derivation, rule, inputs, cite);
    }
    const amounts = Object.values(column.adjustments);
    const adjustmentInputs = Object.values(adjustments).map(ids);
    const net = value(`${where}.net`, `${name}: Net adjustment`, column.net, { rule: 'sum-of-adjustments', inputs: amounts }, `Sum of ${name}’s adjustments${amounts.length === 0 ? ' (none made)' : ''}`, [byAppraiser, ...adjustmentInputs], cite);
    const gross = value(`${where}.gross`, `${name}: Gross adjustment`, column.gross, { rule: 'gross-of-adjustments', inputs: amounts }, `Sum of the sizes of ${name}’s adjustments`, [byAppraiser, ...adjustmentInputs], cite);
    const percent = (of: CitedValue, amount: number, pct: number, what: string) =>
      comp.priceDollars > 0
        ? value(`${of.field}Pct`, `${of.label}, % of sale price`, pct, { rule: 'percent-of-price', inputs: [amount, comp.priceDollars] }, `${what} ÷ the sale price ${formatDollars(comp.priceDollars)}, one decimal`, [ids(of), price], cite)
        : notAPercent(`${of.field}Pct`, `${of.label}, % of sale price`);
    return [
      {
        compId: comp.id,
        adjustments,
        net,
        netPct: percent(net, column.net, column.netPct, 'The net adjustment'),
        gross,
        grossPct: percent(gross, column.gross, column.grossPct, 'The gross adjustment'),
        adjustedPrice: value(`${where}.adjustedPrice`, `${name}: Adjusted sale price`, column.adjustedPrice, { rule: 'price-plus-net', inputs: [comp.priceDollars, column.net] }, `The sale price ${formatDollars(comp.priceDollars)} plus the net adjustment`, [price, ids(net)], cite),
      },
    ];
  });

  const range = grid.adjustedRange;
  const adjustedById = new Map(columns.map((column) => [column.compId, column.adjustedPrice]));
  const counted = (range?.compIds ?? []).map((id) => adjustedById.get(id)).filter((cited): cited is CitedValue => cited !== undefined);
  const adjustedRange =
    range === null || counted.length === 0
      ? null
      : value(
          'comparables.grid.adjustedRange',
          'Range of adjusted prices',
          `${range.low}–${range.high}`,
          { rule: 'range-of-adjusted-prices', inputs: counted.map((cited) => cited.raw as number) },
          `Lowest to highest adjusted sale price of the ${counted.length === columns.length ? 'comps' : 'comps given weight'}`,
          counted.map(ids),
          cite,
        );

  const indicated = workfile.reconciliation.indicatedValueDollars;
  const inside = range !== null && indicated !== null && indicated >= range.low && indicated <= range.high;
  const indicatedValue =
    indicated === null
      ? null
      : value(
          'comparables.reconciliation.indicatedValue',
          'Indicated value by sales comparison',
          indicated,
          { rule: 'appraiser-value', inputs: range === null ? [indicated] : [indicated, range.low, range.high] },
          range === null
            ? `${whose} value by sales comparison`
            : `${whose} value by sales comparison, reconciled from the adjusted prices ${formatDollars(range.low)} to ${formatDollars(range.high)} (${inside ? 'within the range' : 'outside the range'})`,
          [byAppraiser, ...(adjustedRange ? [ids(adjustedRange)] : [])],
          cite,
        );

  return { appraiser, rates, columns, adjustedRange, indicatedValue };
}

/** A copied value's acceptance as the report, the CSV and the UAD JSON print it. */
export interface CopiedAcceptance {
  row: GridRowKey;
  rowLabel: string;
  compId: string | null;
  /** "the whole grid", "the subject", or the comp ("Comp 2, 2009 R ST NW"). */
  appliesTo: string;
  by: string;
  reason: string;
  at: string;
}

/** The copied values the appraiser accepted that apply to this grid, row by row (the whole grid's first, then the subject's, then each comp's). */
export function copiedAcceptances(workfile: Pick<ComparablesWorkfile, 'syntheticAccepted'>, subject: GridProperty, comps: readonly ComparableSale[], appraiser: string): CopiedAcceptance[] {
  const acts = workfile.syntheticAccepted ?? [];
  // Whole grid 0, the subject 0.5, comp n at n: the grid's own order.
  const place = new Map<string | null, number>([[null, 0], [subject.id, 0.5], ...comps.map((comp, index): [string, number] => [comp.id, index + 1])]);
  return gridRowKeys.flatMap((row) =>
    acts
      .filter((act) => act.row === row && place.has(act.compId))
      .sort((a, b) => place.get(a.compId)! - place.get(b.compId)!)
      .map((act) => {
        const at = place.get(act.compId)!;
        const comp = at >= 1 ? comps[at - 1]! : null;
        return {
          row,
          rowLabel: areaRowLabel(row, [subject, ...comps]),
          compId: act.compId,
          appliesTo: act.compId === null ? 'the whole grid' : comp === null ? 'the subject' : `Comp ${at}, ${comp.address}`,
          by: appraiser,
          reason: act.reason,
          at: act.at,
        };
      }),
  );
}

/** Every derived value of a cited grid, in the order the report prints them: the grid column by column, the range, the indicated value, the rates. */
export function citedGridValues(cited: CitedGrid): CitedValue[] {
  return [
    ...cited.columns.flatMap((column) => [...Object.values(column.adjustments), column.net, column.netPct, column.gross, column.grossPct, column.adjustedPrice]),
    ...(cited.adjustedRange ? [cited.adjustedRange] : []),
    ...(cited.indicatedValue ? [cited.indicatedValue] : []),
    ...rateKeys.flatMap((key) => (cited.rates[key] ? [cited.rates[key]] : [])),
  ];
}
