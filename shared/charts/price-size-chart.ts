// Sale price against size, the chosen comps drawn apart and the subject's size as a rule: the picture
// behind the size adjustment. Built from the one analysis: which sales Plat screened out (`screenedOut`,
// the appraiser's take-in), which area each publishes (`areaMeasure`, the grid's `gla` value) and whether
// a copied area may be used (`drivesNumbers`) are read, never decided here. A copied area the appraiser
// has not accepted is left out and the chart says how many; an accepted one is drawn and says it was copied.
import { notUsedReasonLabels, type ComparableSale, type ComparablesAnalysis, type ComparablesWorkfile, type GridProperty } from '../comparables/model.ts';
import { areaMeasureWords, areaRowLabel } from '../comparables/answer-values.ts';
import { drivesNumbers, type SyntheticAcceptance } from '../comparables/synthetic-use.ts';
import { takenInAct } from '../comparables/screening.ts';
import { formatDay } from '../format-date.ts';
import { formatCount } from '../format/number.ts';
import { formatDollars } from '../money.ts';
import type { ChartPoint, ChartSpec } from './chart-spec.ts';

type Workfile = SyntheticAcceptance & Pick<ComparablesWorkfile, 'takenIn'>;

/** The area a property may be drawn at: published (or a copy the appraiser accepted), else why not. */
function usableArea(property: GridProperty, workfile: Workfile): { sqft: number; copied: boolean } | 'none' | 'copied' {
  const value = property.values.gla;
  if (property.numbers.gla === null || property.numbers.gla <= 0 || value.status === 'unavailable') return 'none';
  if (!drivesNumbers(property, 'gla', workfile)) return 'copied';
  return { sqft: property.numbers.gla, copied: value.status === 'synthetic' };
}

const plural = (count: number, one: string, many: string) => `${formatCount(count)} ${count === 1 ? one : many}`;

export function priceSizeChart(analysis: ComparablesAnalysis, workfile: Workfile): ChartSpec | null {
  const chosenIndex = new Map(analysis.chosen.map((comp, index) => [comp.id, index]));
  // The chosen comps (the appraiser's choice stands, screened or not) and every other sale Plat kept or the appraiser took in.
  const sales: ComparableSale[] = [...analysis.chosen, ...analysis.set.candidates.filter((sale) => !chosenIndex.has(sale.id) && (sale.screenedOut === null || takenInAct(sale, workfile) !== null))];
  const screenedOut = analysis.set.candidates.filter((sale) => !chosenIndex.has(sale.id) && sale.screenedOut !== null && takenInAct(sale, workfile) === null);
  const screenReasons = new Map<string, number>();
  for (const sale of screenedOut) {
    const label = notUsedReasonLabels[sale.screenedOut!.reason].toLowerCase();
    screenReasons.set(label, (screenReasons.get(label) ?? 0) + 1);
  }
  if (sales.length === 0) return null;

  let copiedLeftOut = 0;
  let noArea = 0;
  let copiedDrawn = 0;
  const drawn: Array<{ sale: ComparableSale; sqft: number; copied: boolean }> = [];
  for (const sale of sales) {
    const area = usableArea(sale, workfile);
    if (sale.priceDollars <= 0 || area === 'none') noArea += 1;
    else if (area === 'copied') copiedLeftOut += 1;
    else {
      drawn.push({ sale, sqft: area.sqft, copied: area.copied });
      if (area.copied) copiedDrawn += 1;
    }
  }
  // Others first, so the comps are drawn on top of them.
  drawn.sort((a, b) => Number(chosenIndex.has(a.sale.id)) - Number(chosenIndex.has(b.sale.id)));

  const subject = analysis.set.subject;
  const subjectArea = subject ? usableArea(subject, workfile) : 'none';
  const measured = [...drawn.map(({ sale }) => sale), ...(subject && typeof subjectArea === 'object' ? [subject] : [])];
  const axisLabel = areaRowLabel('gla', measured);
  const measureWords = (property: GridProperty) => areaMeasureWords[property.areaMeasure ?? 'unstated'].value;

  const points: ChartPoint[] = drawn.map(({ sale, sqft, copied }) => {
    const comp = chosenIndex.get(sale.id);
    const perSqft = sale.values.pricePerSqft;
    return {
      id: sale.id,
      x: sqft,
      y: sale.priceDollars,
      highlight: comp !== undefined,
      label: comp === undefined ? sale.address : `Comp ${comp + 1}: ${sale.address}`,
      details: [
        `Sold for ${formatDollars(sale.priceDollars)}${sale.saleDate ? ` on ${formatDay(sale.saleDate)}` : ''}`,
        `${sale.values.gla.display} (${measureWords(sale)}${copied ? ', copied from another house, accepted by the appraiser' : ''})`,
        ...(perSqft.status === 'unavailable' ? [] : [`${perSqft.display} per sq ft`]),
      ],
      citationIds: [...new Set([...sale.values.salePrice.citationIds, ...sale.values.saleDate.citationIds, ...sale.values.gla.citationIds])],
    };
  });

  const left: string[] = [];
  if (copiedLeftOut > 0) left.push(`${plural(copiedLeftOut, 'sale is', 'sales are')} left out: the area is copied from another house (synthetic) and not accepted in the grid`);
  if (noArea > 0) left.push(`${plural(noArea, 'sale has', 'sales have')} no published area or price`);
  if (screenedOut.length > 0) left.push(`${plural(screenedOut.length, 'sale Plat screened out is', 'sales Plat screened out are')} not drawn (${[...screenReasons].map(([label, count]) => `${label}: ${formatCount(count)}`).join(', ')})`);
  if (copiedDrawn > 0) left.push(`${plural(copiedDrawn, 'drawn area is a copy', 'drawn areas are copies')} the appraiser accepted`);
  const subjectWords =
    subject === null
      ? 'No subject is resolved.'
      : typeof subjectArea === 'object'
        ? `The subject: ${subject.values.gla.display}.`
        : subjectArea === 'copied'
          ? 'The subject’s area is copied from another house and not accepted: not marked.'
          : 'The subject publishes no area: not marked.';

  const drawnById = new Map(drawn.map((entry) => [entry.sale.id, entry]));
  const title = 'Sale price against size';
  const chosenDrawn = points.filter((point) => point.highlight).length;
  const prices = points.map((point) => point.y);
  const sizes = drawn.map(({ sqft }) => sqft);
  const altText =
    points.length === 0
      ? `${title}: no sale to draw. ${left.join('; ')}. ${subjectWords}`
      : `${title}: ${plural(points.length, 'sale', 'sales')} (${plural(chosenDrawn, 'chosen comp', 'chosen comps')} drawn apart) from ${formatCount(Math.min(...sizes))} to ${formatCount(Math.max(...sizes))} sq ft and ${formatDollars(Math.min(...prices))} to ${formatDollars(Math.max(...prices))}. ${subjectWords}${left.length > 0 ? ` ${left.join('; ')}.` : ''}`;
  return {
    id: 'comps-price-size',
    title,
    subtitle: `Points: sales Plat kept (filled: the chosen comps), at their area as published.${typeof subjectArea === 'object' ? ' Rule: the subject’s size.' : ''}`,
    x: { label: `${axisLabel} (sq ft)`, type: 'linear', format: 'sqft' },
    y: { label: 'Sale price', type: 'linear', format: 'dollars' },
    points,
    fit: null,
    steps: null,
    rules: typeof subjectArea === 'object' ? [{ axis: 'x', value: subjectArea.sqft, label: `Subject ${formatCount(subjectArea.sqft)} sq ft` }] : [],
    altText,
    table: {
      caption: `${title}: the sales drawn, the chosen comps first`,
      columns: ['Sale', 'Area (sq ft)', 'Sale price', 'Price per sq ft', 'Sale date'],
      rows: [...points]
        .sort((a, b) => (chosenIndex.get(a.id) ?? Infinity) - (chosenIndex.get(b.id) ?? Infinity))
        .map((point) => {
          const { sale, copied } = drawnById.get(point.id)!;
          return {
            id: point.id,
            cells: [point.label, `${formatCount(point.x as number)}${copied ? ' (copied, accepted)' : ''}`, formatDollars(sale.priceDollars), sale.values.pricePerSqft.display, sale.saleDate ? formatDay(sale.saleDate) : '—'],
            citationIds: point.citationIds,
          };
        }),
    },
    note: points.length === 0 ? `Nothing to draw: ${left.join('; ')}.` : left.length > 0 ? `${capitalise(left.join('; '))}.` : null,
  };
}

const capitalise = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);
