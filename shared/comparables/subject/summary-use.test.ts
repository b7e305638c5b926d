// The property page's Summary beside the assignment's subject: 1717 4TH ST NW, whose service summary
// picks the copied 1911 as its best year built while the assignment uses the 2012 permit.
import { describe, expect, it } from 'vitest';
import dc1717 from '../../report/fixtures/dc-1717-4th-st-nw.json' with { type: 'json' };
import { resolveSubject } from './resolve.ts';
import { assignmentUseOfSummaryField } from './summary-use.ts';

const resolved = (choices?: Parameters<typeof resolveSubject>[0]['choices']) => resolveSubject({ subject: dc1717.subject, summary: dc1717.summary, effectiveDate: '2017-01-01', choices });

describe('assignmentUseOfSummaryField', () => {
  it('names the value the assignment uses where the summary’s best value is another, with Plat’s reason', () => {
    const use = assignmentUseOfSummaryField(resolved(), 'year_built', 1911);
    expect(use?.display).toBe('2012 or later');
    expect(use?.why).toMatch(/^A derived value \(DC Department of Consumer and Regulatory Affairs\) is preferred over a synthetic one/);
  });

  it('says nothing where they agree, where the field is no characteristic, or where either side has no value', () => {
    const subject = resolved();
    expect(assignmentUseOfSummaryField(subject, 'year_built', 2012)).toBeNull();
    expect(assignmentUseOfSummaryField(subject, 'year_built', '2012')).toBeNull();
    expect(assignmentUseOfSummaryField(subject, 'owner_name', 'SOMEONE ELSE')).toBeNull();
    expect(assignmentUseOfSummaryField(subject, 'year_built', null)).toBeNull();
    const unbought = resolveSubject({ subject: null, summary: null, effectiveDate: '2017-01-01', choices: undefined });
    expect(assignmentUseOfSummaryField(unbought, 'year_built', 1911)).toBeNull();
  });

  it('quotes the appraiser’s reason when the appraiser chose', () => {
    const copied = resolved().characteristics.yearBuilt.resolution!.alternatives[0]!;
    const reason = 'Inspected: the 1911 facade was kept; the permit rebuilt the interior.';
    const chosen = resolved({ yearBuilt: { alternativeKey: copied.key, reason, at: '2026-11-28T00:00:00.000Z' } });
    // Another service's summary may pick the permit's year: the page then says the appraiser chose 1911.
    expect(assignmentUseOfSummaryField(chosen, 'year_built', 2012)).toEqual({ display: copied.display, why: `the appraiser’s choice: “${reason}”` });
    expect(assignmentUseOfSummaryField(chosen, 'year_built', 1911)).toBeNull();
  });
});
