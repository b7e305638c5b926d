import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { exampleAnalysis } from '../../../shared/comparables/test-kit.ts';
import { citationIndexOf } from './CitedCell.tsx';
import { ComparablesCharts } from './ComparablesCharts.tsx';

afterEach(cleanup);

describe('the comps’ charts under the grid', () => {
  it('draws price against size beside the adjusted prices: the comps apart, the subject’s size as a rule, its table cited', () => {
    const { analysis, workfile } = exampleAnalysis();
    const accepted = { ...workfile, syntheticAccepted: [{ row: 'gla' as const, compId: null, reason: 'Checked against the listing sheets.', at: '2026-11-27T22:40:00Z' }] };
    render(<ComparablesCharts analysis={analysis} workfile={accepted} index={citationIndexOf(analysis.citations)} />);
    expect(screen.getByTestId('chart-comps-adjusted-prices')).toBeTruthy();
    const figure = screen.getByTestId('chart-comps-price-size');
    const svg = figure.querySelector('svg')!;
    expect(svg.getAttribute('aria-label')).toBe('Sale price against size');
    expect(svg.getAttribute('aria-description')).toMatch(/^Sale price against size: 12 sales \(3 chosen comps drawn apart\)/);
    expect(svg.querySelectorAll('circle').length).toBeGreaterThanOrEqual(12);
    // The subject's size: one vertical rule.
    expect(svg.querySelectorAll('g[aria-label="rule"] line')).toHaveLength(1);
    expect(svg.textContent).toContain('Subject 2,400 sq ft');
    const table = within(figure).getByRole('table', { name: /^Sale price against size: the sales drawn/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(within(rows[0]!).getByRole('rowheader').textContent).toBe('Comp 1: 1704 21ST ST NW');
    expect(rows[0]!.textContent).toContain('(copied, accepted)');
    expect(within(rows[0]!).getAllByRole('button').length).toBeGreaterThan(0);
    expect(within(figure).getByText('1 sale Plat screened out is not drawn (non-market or no price: 1); 12 drawn areas are copies the appraiser accepted.')).toBeTruthy();
  });

  it('says why nothing is drawn when every area is copied and not accepted', () => {
    const { analysis, workfile } = exampleAnalysis();
    // The example accepts its copied values for the whole grid; here none is accepted.
    render(<ComparablesCharts analysis={analysis} workfile={{ ...workfile, syntheticAccepted: [] }} index={citationIndexOf(analysis.citations)} />);
    const figure = screen.getByTestId('chart-comps-price-size');
    expect(figure.textContent).toContain('Nothing to draw: 12 sales are left out: the area is copied from another house (synthetic) and not accepted in the grid');
    expect(within(figure).getByRole('table').querySelectorAll('tbody tr')).toHaveLength(0);
  });
});
