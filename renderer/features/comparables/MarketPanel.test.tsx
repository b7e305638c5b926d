import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { comparableSale, comps2016Run } from '../../../shared/comparables/test-kit.ts';
import compsFixture from '../../../shared/comparables/fixtures/dc-1708-comps-2016.json';
import { analyzeMarket } from '../../../shared/market/analysis.ts';
import { marketConditions } from '../../../shared/market/conditions.ts';
import { marketTrend } from '../../../shared/market/trend.ts';
import { citationIndexOf } from './CitedCell.tsx';
import { MarketPanel, type MarketPanelProps } from './MarketPanel.tsx';

afterEach(cleanup);

const EFFECTIVE = '2017-01-01';
// A workfile without a search: the market-sales purchase is not offered, so nothing here asks the core.
const workfile: ComparablesWorkfile = emptyComparablesWorkfile();

function props(market: MarketPanelProps['market'], edit = vi.fn()): MarketPanelProps {
  return {
    market,
    workfile,
    index: citationIndexOf(market.citations),
    edit,
    assignmentId: 'p1',
    assignmentName: 'A',
    subjectRef: 'prop_x',
    effectiveDate: EFFECTIVE,
    subjectUseCode: '24',
    subjectLonLat: null,
  };
}

const fixtureMarket = () =>
  analyzeMarket({ subjectEnvelope: null, marketPages: [], compsPages: [compsFixture.envelope], workfile: { ...workfile, searches: [comps2016Run()] }, effectiveDate: EFFECTIVE }, new CitationBook());

/** Twelve sales rising toward the effective date: a supported rate. */
function risingMarket(): MarketPanelProps['market'] {
  const book = new CitationBook();
  const days = [10, 25, 40, 70, 95, 120, 150, 190, 230, 260, 300, 350];
  const prices = [812_000, 790_000, 805_000, 770_000, 781_000, 760_000, 748_000, 752_000, 731_000, 725_000, 718_000, 702_000];
  const sales = days.map((d, at) =>
    comparableSale({ id: `s${at}`, address: `${at + 1} Test St NW`, saleDate: new Date(Date.parse(`${EFFECTIVE}T00:00:00Z`) - d * 86_400_000).toISOString().slice(0, 10), priceDollars: prices[at]! }),
  );
  const common = { sales, effectiveDate: EFFECTIVE, monthsRead: 12, cite: book.cite };
  return {
    source: { kind: 'comps-search', run: null, words: 'Test sales.', nextCursor: null },
    sales,
    conditions: marketConditions({ ...common, marketArea: 'Test area', propertyType: null }),
    trend: marketTrend(common),
    problems: [],
    citations: book.all(),
  };
}

describe('MarketPanel', () => {
  it('shows the table by period; a count opens the sales it counts, each cited', () => {
    const market = fixtureMarket();
    render(<MarketPanel {...props(market)} />);
    const table = screen.getByRole('table', { name: 'Market conditions by period before the effective date' });
    const period = market.conditions.periods.find((p) => p.sales.length > 0)!;
    fireEvent.click(within(table).getByRole('button', { name: `${period.count.display} sales, ${period.label}: list them` }));
    const listed = screen.getByRole('region', { name: `Sales counted, ${period.label}` });
    expect(within(listed).getAllByRole('listitem')).toHaveLength(period.sales.length);
    expect(within(listed).getAllByRole('button', { name: /source DC Office of Tax and Revenue/ }).length).toBeGreaterThanOrEqual(period.sales.length);
    expect(screen.getByText(/What the records cannot say/)).toBeTruthy();
  });

  it('offers no rate when the trend does not support one, and records “no time adjustment” only with a reason', () => {
    const edit = vi.fn();
    const market = fixtureMarket();
    expect(market.trend.offer).toBeNull();
    render(<MarketPanel {...props(market, edit)} />);
    expect((screen.getByRole('button', { name: 'No rate to accept' }) as HTMLButtonElement).disabled).toBe(true);
    const record = screen.getByRole('button', { name: 'Record: no time adjustment' }) as HTMLButtonElement;
    expect(record.disabled).toBe(true);
    fireEvent.change(screen.getByPlaceholderText('Why no time adjustment (required to decline)'), { target: { value: 'Flat market.' } });
    fireEvent.click(record);
    const change = edit.mock.calls[0]![0] as (w: ComparablesWorkfile) => ComparablesWorkfile;
    expect(change(workfile).marketTrend?.decision).toMatchObject({ kind: 'declined', reason: 'Flat market.' });
  });

  it('accepts a supported rate as the time adjustment, and changes the window', () => {
    const edit = vi.fn();
    render(<MarketPanel {...props(risingMarket(), edit)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Accept +1.22 % per month as the time adjustment' }));
    const accepted = (edit.mock.calls[0]![0] as (w: ComparablesWorkfile) => ComparablesWorkfile)(workfile);
    expect(accepted.rates.timePctPerMonth).toBe(1.22);
    fireEvent.click(screen.getByRole('button', { name: '24 months' }));
    const widened = (edit.mock.calls[1]![0] as (w: ComparablesWorkfile) => ComparablesWorkfile)(workfile);
    expect(widened.marketTrend?.windowMonths).toBe(24);
    expect(screen.getByTestId('chart-market-price-trend').querySelector('svg')).toBeTruthy();
  });
});
