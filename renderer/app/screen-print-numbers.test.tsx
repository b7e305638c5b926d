// Here, where the features meet (renderer/app mounts them both), not inside either feature.
// One analysis, two renderings: the Comparables view's grid and rates (the screen) and the report's
// comparables section as it prints. Every number they share reads the same: the adjustments, the net
// and gross in dollars and percent (negative ones with a real minus sign, one decimal), the adjusted
// prices, the regression's suggestions; a rate typed with cents prints with them, as the workings use it.
import { describe, expect, it } from 'vitest';
import { render, within } from '@testing-library/react';
import { analyzeComparables } from '../../shared/comparables/analysis.ts';
import { CitationBook } from '../../shared/cited/citation-book.ts';
import { emptyComparablesWorkfile, gridRowKeys, rateKeys, type ComparablesWorkfile } from '../../shared/comparables/model.ts';
import { comps2016Run } from '../../shared/comparables/test-kit.ts';
import subjectFixture from '../../shared/report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import comps2016 from '../../shared/comparables/fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import { SalesGrid } from '../features/comparables/SalesGrid.tsx';
import { RatesPanel } from '../features/comparables/RatesPanel.tsx';
import { searchOutcome } from '../../shared/comparables/empty-words.ts';
import { citationIndexOf } from '../features/comparables/CitedCell.tsx';
import { ComparablesReportSection } from '../features/report/ComparablesReportSection.tsx';
import { comparablesReport, COMP_IDS } from '../features/report/report-fixture.ts';

const empty = emptyComparablesWorkfile();
/** Four comps, a falling market (a negative time rate), a living-area rate with cents, an age rate with cents. */
const PATCH: Partial<ComparablesWorkfile> = {
  searches: [comps2016Run({ criteria: empty.criteria })],
  chosen: [COMP_IDS[3]!, COMP_IDS[0]!, COMP_IDS[1]!, COMP_IDS[5]!],
  rates: { ...empty.rates, glaPerSqft: 152.5, timePctPerMonth: -0.37, perYearOfAge: 1027.32 },
  rateSource: { glaPerSqft: 'appraiser', timePctPerMonth: 'appraiser', perYearOfAge: 'appraiser' },
  // The copied characteristics accepted for the whole grid, so the regression estimates several rates to compare.
  syntheticAccepted: (['gla', 'bedrooms', 'baths', 'actualAge', 'quality', 'condition'] as const).map((row) => ({ row, compId: null, reason: 'Checked against the listings', at: '2026-11-23T22:00:00.000Z' })),
};
const workfile: ComparablesWorkfile = { ...empty, ...PATCH, savedAt: '2026-11-23T22:00:00.000Z' };

function screenSide() {
  const analysis = analyzeComparables({ subjectEnvelope: subjectFixture.subject, pages: [comps2016.envelope], workfile, effectiveDate: '2017-01-01' }, new CitationBook());
  const outcome = searchOutcome(analysis.run, analysis.set.candidates.length);
  const index = citationIndexOf(analysis.citations);
  const view = render(
    <>
      <RatesPanel workfile={workfile} support={analysis.support} outcome={outcome} edit={() => undefined} />
      <SalesGrid analysis={analysis} outcome={outcome} workfile={workfile} index={index} edit={() => undefined} onDrop={() => undefined} onHighlight={() => undefined} />
    </>,
  );
  return { analysis, container: view.container, unmount: view.unmount };
}

function printSide() {
  const doc = comparablesReport(PATCH);
  const view = render(<ComparablesReportSection section={doc.comparables!} context={{ mode: 'print', index: new Map() }} mapImage={{ status: 'failed', message: 'no WebGL here' }} />);
  return { container: view.container, unmount: view.unmount };
}

const text = (element: Element | null | undefined): string => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
/** The numbers in a text, in order: "−$146,959", "−6.3 %", "$152.50". */
const numbers = (value: string): string[] => [...value.matchAll(/[−+-]?\$?\d[\d,]*(?:\.\d+)?(?: %)?/g)].map((match) => match[0]).filter((token) => token !== '95 %');

describe('the grid’s numbers on screen and on paper', () => {
  it('reads the same in both: adjustments, net and gross (dollars and percent), adjusted prices', () => {
    const screen = screenSide();
    const cell = (testId: string) => text(screen.container.querySelector(`[data-testid="${testId}"]`));
    const columns = screen.analysis.chosen.length;
    const fromScreen = {
      net: [...Array(columns).keys()].map((at) => `${cell(`grid-net-${at + 1}`)} (${cell(`grid-net-pct-${at + 1}`)})`),
      gross: [...Array(columns).keys()].map((at) => `${cell(`grid-gross-${at + 1}`)} (${cell(`grid-gross-pct-${at + 1}`)})`),
      adjusted: [...Array(columns).keys()].map((at) => cell(`grid-adjusted-${at + 1}`)),
      adjustments: gridRowKeys.flatMap((row) => [...Array(columns).keys()].map((at) => `${row} ${text(screen.container.querySelector(`[data-testid="grid-adjustment-${row}-${at + 1}"] .comps-adj`))}`)).filter((entry) => !entry.endsWith(' ')),
      workings: [...screen.container.querySelectorAll('.comps-adj[title]')].map((span) => span.getAttribute('title')),
    };
    screen.unmount();

    const paper = printSide();
    const tables = [...paper.container.querySelectorAll('.report-grid table')];
    const summary = (label: string) => tables.flatMap((table) => [...within(table as HTMLElement).getByRole('rowheader', { name: label }).closest('tr')!.querySelectorAll('td')].slice(1).map(text));
    const adjustmentIn = (row: string) =>
      tables.flatMap((table) => [...table.querySelectorAll(`tr[data-row="${row}"] td`)].slice(1).map((td) => `${row} ${numbers(text(td.querySelector('.report-grid__amount'))).join(' ')}`));
    // On paper each figure is a cited derived value (its flag and markers follow it): the figures themselves compared.
    const figures = (cells: string[]) => cells.map(numbers);
    expect(figures(summary('Net adjustment'))).toEqual(figures(fromScreen.net));
    expect(figures(summary('Gross adjustment'))).toEqual(figures(fromScreen.gross));
    expect(figures(summary('Adjusted sale price'))).toEqual(figures(fromScreen.adjusted));
    expect(figures(fromScreen.net).flat().length).toBeGreaterThan(4);
    expect(gridRowKeys.flatMap(adjustmentIn).filter((entry) => !entry.endsWith(' ')).sort()).toEqual(fromScreen.adjustments.sort());
    expect(fromScreen.adjustments.length).toBeGreaterThan(8);
    // On paper the grid is in tables of three comps: the same workings, met in another order.
    expect([...paper.container.querySelectorAll('.report-grid__working')].map((element) => element.textContent).sort()).toEqual(fromScreen.workings.sort());

    // Negative percents with a real minus and one decimal; no hyphen as a minus; dollars grouped.
    const printed = text(paper.container);
    expect(fromScreen.net.join(' ')).toMatch(/−\$[\d,]+ \(−\d+\.\d %\)/);
    expect(printed).not.toMatch(/(^|[\s(])-[$\d]/);
    expect(printed).not.toMatch(/\$\d{4,}/);
    // A share of the price always has its decimal: "(−12.0 %)", never "(−12 %)".
    expect(printed).not.toMatch(/\([−+]?\$?[\d,]*\s?\(?[−]?\d+ %\)/);
    paper.unmount();
  });

  it('prints a rate typed with cents with its cents, as the workings compute with it', () => {
    const paper = printSide();
    const rates = within(paper.container).getByRole('table', { name: 'Adjustment rates' });
    const row = (label: string) => text(within(rates).getByRole('rowheader', { name: label }).closest('tr'));
    expect(row('Gross building area (published; stands in for GLA)')).toContain('$152.50 per sq ft');
    expect(row('Actual age')).toContain('$1,027.32 per year');
    expect(row('Market conditions (time)')).toContain('−0.37 % per month');
    const workings = [...paper.container.querySelectorAll('.report-grid__working')].map((element) => element.textContent ?? '');
    expect(workings.some((working) => working.includes('× $152.50 per sq ft'))).toBe(true);
    expect(workings.some((working) => working.includes('× −0.37 % per month'))).toBe(true);
    expect(workings.join(' ')).not.toMatch(/\$\d+\.\d(?!\d)/);
    paper.unmount();
  });

  it('gives the regression’s suggestions with the same figures on screen and on paper', () => {
    const screen = screenSide();
    const fromScreen = Object.fromEntries(
      rateKeys.map((key) => [key, numbers(text(screen.container.querySelector(`[data-testid="suggestion-${key}"] strong`)))]),
    );
    screen.unmount();
    const paper = printSide();
    // The estimate leads its cell; the reasons it is not supported follow in a paragraph of their own.
    const rates = within(paper.container).getByRole('table', { name: 'Adjustment rates' });
    const suggested = [...rates.querySelectorAll('tbody tr')].map((tr) => numbers(tr.querySelectorAll('td')[2]?.firstChild?.textContent ?? ''));
    const offered = rateKeys.map((key) => fromScreen[key]!).filter((figures) => figures.length > 0);
    expect(offered.length).toBeGreaterThan(2);
    expect(suggested.filter((figures) => figures.length > 0)).toEqual(offered);
    paper.unmount();
  });
});
