// The rates panel's guardrail: "Accept" only for a suggestion the sales support; a suggestion shown as
// not supported lists every reason and is used only with a written reason.
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { analyzeComparables } from '../../../shared/comparables/analysis.ts';
import defaultSearch1708 from '../../../shared/comparables/fixtures/dc-1708-comps-default-2017-02-01.json';
import { DEFAULT_CRITERIA, emptyComparablesWorkfile, gridRowKeys, type ComparablesWorkfile, type RegressionSupport } from '../../../shared/comparables/model.ts';
import { regressionSupport } from '../../../shared/comparables/regression.ts';
import { comps2016Run, guardrailSales } from '../../../shared/comparables/test-kit.ts';
import subjectFixture from '../../../shared/report/fixtures/dc-1708-21st-st-nw.json';
import { RatesPanel } from './RatesPanel.tsx';

/** The panel over a workfile it edits, and the last workfile it made. */
function renderPanel(support: RegressionSupport, start: ComparablesWorkfile = emptyComparablesWorkfile()) {
  const last = { workfile: start };
  function Host() {
    const [workfile, setWorkfile] = useState(start);
    return (
      <RatesPanel
        workfile={workfile}
        support={support}
        edit={(change) =>
          setWorkfile((current) => {
            last.workfile = change(current);
            return last.workfile;
          })
        }
      />
    );
  }
  render(<Host />);
  return last;
}

const rateCard = (key: string) => document.querySelector(`[data-rate="${key}"]`) as HTMLElement;

// 1708 21st St NW, the default search for 2017-02-01, with the copied characteristics accepted for the whole grid: −$249,052 per bath.
function support1708(): RegressionSupport {
  const workfile: ComparablesWorkfile = {
    ...emptyComparablesWorkfile(),
    searches: [comps2016Run({ criteria: DEFAULT_CRITERIA, effectiveDate: '2017-02-01', pages: [defaultSearch1708.request] })],
    syntheticAccepted: gridRowKeys.map((row) => ({ row, compId: null, reason: 'Checked against the MLS sheets.', at: '2026-11-27T21:30:00Z' })),
  };
  return analyzeComparables({ subjectEnvelope: subjectFixture.subject, pages: [defaultSearch1708.envelope], workfile, effectiveDate: '2017-02-01' }, new CitationBook()).support;
}

afterEach(cleanup);

describe('RatesPanel', () => {
  it('offers no Accept on −$249,052 per bath, lists why, and uses it only with a written reason', () => {
    const last = renderPanel(support1708());
    const bath = rateCard('perBath');
    expect(within(bath).getByTestId('suggestion-perBath').textContent).toContain('−$249,052');
    expect(within(bath).queryByRole('button', { name: /^Accept/ })).toBeNull();
    const standing = within(bath).getByTestId('standing-perBath');
    expect(standing.textContent).toContain('Not supported');
    expect(standing.textContent).toContain('Against the expected sign');
    expect(standing.textContent).toContain('straddles zero');
    expect(standing.textContent).toContain('copied from another house');

    fireEvent.click(within(bath).getByRole('button', { name: 'Use the unsupported suggested rate for Bathrooms anyway' }));
    const use = within(bath).getByRole('button', { name: 'Use with this reason' });
    expect(use).toHaveProperty('disabled', true);
    fireEvent.click(use);
    expect(last.workfile.rates.perBath).toBeNull();

    fireEvent.change(within(bath).getByLabelText(/Why use a rate the sales do not support/), { target: { value: 'Paired sales on the block agree.' } });
    fireEvent.click(within(bath).getByRole('button', { name: 'Use with this reason' }));
    expect(last.workfile.rates.perBath).toBe(-249_052);
    expect(last.workfile.rateSource.perBath).toBe('suggestion');
    expect(last.workfile.unsupportedRateReasons?.perBath?.reason).toBe('Paired sales on the block agree.');
    expect(within(bath).getByTestId('standing-perBath').textContent).toContain('Used anyway. Your reason: “Paired sales on the block agree.”');
  });

  it('offers Accept on a supported suggestion', () => {
    const last = renderPanel(regressionSupport(guardrailSales(), '2017-01-01'));
    const gla = rateCard('glaPerSqft');
    expect(within(gla).queryByTestId('standing-glaPerSqft')).toBeNull();
    fireEvent.click(within(gla).getByRole('button', { name: 'Accept the suggested rate for Gross living area' }));
    expect(last.workfile.rates.glaPerSqft).toBe(148);
    expect(last.workfile.rateSource.glaPerSqft).toBe('suggestion');
    // The same fit's bedroom rate has the wrong sign: no Accept there.
    expect(within(rateCard('perBedroom')).queryByRole('button', { name: /^Accept/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Accept/ })).toHaveLength(1);
  });
});
