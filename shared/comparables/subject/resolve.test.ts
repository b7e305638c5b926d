// One subject: the real answers of the embedded service for 1717 4TH ST NW (a 2012 row house whose
// copied record says 1911, 2 stories) and 1708 21ST ST NW (a copied remodel after the effective
// date), read through the report, the grid, the UAD JSON and the CSV.
import { describe, expect, it } from 'vitest';
import { CitationBook } from '../../cited/citation-book.ts';
import dc1717 from '../../report/fixtures/dc-1717-4th-st-nw.json' with { type: 'json' };
import dc1708 from '../../report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import { buildSubjectReport } from '../../report/build-subject-report.ts';
import { dc1708Input } from '../../report/test-kit.ts';
import { analyzeComparables } from '../analysis.ts';
import comps1717 from '../fixtures/dc-1717-4th-comps-2016.json' with { type: 'json' };
import { gridCsv } from '../grid-csv.ts';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../model.ts';
import { ACCEPT_COPIED, comps2016Run } from '../test-kit.ts';
import { salesComparisonUad } from '../uad-export.ts';
import { citedSubject } from './cited.ts';
import { resolveSubject } from './resolve.ts';

const ids1717 = comps1717.envelope.data.items.map((item) => item.record_ref);

const workfile1717 = (patch: Partial<ComparablesWorkfile> = {}): ComparablesWorkfile => ({
  ...emptyComparablesWorkfile(),
  searches: [comps2016Run({ pages: [comps1717.request], total: ids1717.length, returned: ids1717.length, dataAsOf: comps1717.envelope.data.snapshot })],
  chosen: ids1717.slice(0, 3),
  rates: { ...emptyComparablesWorkfile().rates, perYearOfAge: 1000 },
  rateSource: { perYearOfAge: 'appraiser' },
  // The comps' years built are copied from other houses: accepted for the grid, so ages adjust.
  syntheticAccepted: ACCEPT_COPIED,
  ...patch,
});

const report1717 = (workfile: ComparablesWorkfile) =>
  buildSubjectReport({
    ...dc1708Input({ name: '1717 4th St NW', intendedUse: 'Mortgage lending' }, { subject: dc1717.subject, summary: dc1717.summary, comparables: { workfile, pages: [comps1717.envelope] } }),
    assignment: {
      id: 'asg_1717',
      name: '1717 4th St NW',
      capMicroUsd: null,
      details: { subjectRef: dc1717.subjectRef, subjectLabel: '', effectiveDate: '2017-01-01', intendedUse: 'Mortgage lending', client: '', reference: '', notes: '' },
    },
  });

const analysis1717 = (workfile: ComparablesWorkfile) =>
  analyzeComparables({ subjectEnvelope: dc1717.subject, subjectSummary: dc1717.summary, pages: [comps1717.envelope], workfile, effectiveDate: '2017-01-01' }, new CitationBook());

const uadOf = (workfile: ComparablesWorkfile) =>
  JSON.parse(
    JSON.stringify(
      salesComparisonUad(analysis1717(workfile), {
        assignment: { name: '1717 4th St NW', effectiveDate: '2017-01-01', subjectRef: dc1717.subjectRef },
        generatedAt: '2026-11-27T22:00:00.000Z',
        appVersion: '0.1.0',
        workfile,
      }),
    ),
  ) as { salesComparisonApproach: { subject: Record<string, unknown> } };

const yearBuiltOf = (document: ReturnType<typeof report1717>) => document.sections.find((s) => s.id === 'building')!.values.find((v) => v.field === 'building.year_built')!;

describe('the one subject of 1717 4TH ST NW', () => {
  it('resolves the year built from the 2012 new-construction permit over the copied 1911, and says they contradict', () => {
    const resolved = resolveSubject({ subject: dc1717.subject, summary: dc1717.summary, effectiveDate: '2017-01-01', choices: undefined });
    const year = resolved.characteristics.yearBuilt.resolution!;
    expect(year.chosen.raw).toBe(2012);
    expect(year.chosen.key).toBe('permit:B1104076');
    expect(year.alternatives.map((a) => [a.raw, a.status])).toEqual([[1911, 'synthetic']]);
    const kinds = resolved.contradictions.map((c) => [c.kind, c.key]);
    expect(kinds).toContainEqual(['permit_after_year_built', 'yearBuilt']);
    expect(kinds).toContainEqual(['stories_vs_permit', 'stories']);
    expect(resolved.contradictions.find((c) => c.kind === 'permit_after_year_built')!.text).toMatch(/B1104076.*new construction.*1911/);
    expect(resolved.characteristics.stories.resolution!.chosen.raw).toBe(3);
  });

  it('shows one year built in the report, the grid, the UAD JSON and the CSV, with the contradiction', () => {
    const workfile = workfile1717();
    // The page (the subject's characteristics in the Comparables view and on the property page).
    const page = citedSubject(resolveSubject({ subject: dc1717.subject, summary: dc1717.summary, effectiveDate: '2017-01-01', choices: workfile.subjectChoices }), new CitationBook().cite);
    expect(page.characteristics.find((c) => c.key === 'yearBuilt')!.value).toMatchObject({ raw: 2012, status: 'derived' });
    expect(page.contradictions.map((c) => c.kind)).toContain('permit_after_year_built');
    const document = report1717(workfile);
    expect(yearBuiltOf(document).raw).toBe(2012);
    const building = document.sections.find((s) => s.id === 'building')!;
    expect(building.limitations.some((l) => /Permit B1104076/.test(l.text) && l.citationIds.length >= 2)).toBe(true);

    const analysis = analysis1717(workfile);
    const subject = analysis.set.subject!;
    expect(subject.numbers.yearBuilt).toBe(2012);
    expect(subject.values.actualAge.raw).toBe(2012);
    expect(subject.values.actualAge.display).toMatch(/2012/);
    expect(subject.values.actualAge.limitation).toMatch(/B1104076/);
    expect(subject.values.actualAge.alternatives.map((a) => a.display)).toContain('1911');
    // The report's grid is the same analysis.
    expect(document.comparables!.grid!.rows.find((row) => row.key === 'actualAge')!.subject.raw).toBe(2012);
    // Ages are adjusted from 2012, not 1911.
    const working = analysis.grid.columns[0]!.workings.actualAge ?? '';
    expect(working).toMatch(/2012/);
    expect(working).not.toMatch(/1911/);

    const uad = uadOf(workfile);
    expect(JSON.stringify(uad.salesComparisonApproach.subject)).toMatch(/2012/);
    expect(JSON.stringify(uad.salesComparisonApproach.subject)).not.toMatch(/"Built 1911/);
    const csvRow = gridCsv(analysis, workfile).split('\n').find((line) => line.startsWith('Actual age'))!;
    expect(csvRow.split(',')[1]).toMatch(/2012/);
  });

  it('applies the appraiser’s choice, with its reason, in the grid, the report and the UAD JSON', () => {
    const resolved = resolveSubject({ subject: dc1717.subject, summary: dc1717.summary, effectiveDate: '2017-01-01', choices: undefined });
    const copied = resolved.characteristics.yearBuilt.resolution!.alternatives[0]!;
    const reason = 'Inspected: the 1911 facade was kept; the permit rebuilt the interior.';
    const workfile = workfile1717({ subjectChoices: { yearBuilt: { alternativeKey: copied.key, reason, at: '2026-11-27T22:00:00.000Z' } } });
    const document = report1717(workfile);
    expect(yearBuiltOf(document).raw).toBe(1911);
    expect(yearBuiltOf(document).choice).toMatchObject({ by: 'appraiser', reason });
    const subject = analysis1717(workfile).set.subject!;
    expect(subject.numbers.yearBuilt).toBe(1911);
    expect(subject.values.actualAge.choice).toMatchObject({ by: 'appraiser', reason });
    expect(JSON.stringify(uadOf(workfile).salesComparisonApproach.subject)).toContain(reason);
  });
});

describe('the one subject of 1708 21ST ST NW', () => {
  it('finds the copied remodel after the 2017 effective date', () => {
    const resolved = resolveSubject({ subject: dc1708.subject, summary: dc1708.summary, effectiveDate: '2017-01-01', choices: undefined });
    const after = resolved.contradictions.filter((c) => c.kind === 'after_effective_date');
    expect(after.map((c) => c.key)).toContain('yearRemodeled');
    expect(after.find((c) => c.key === 'yearRemodeled')!.text).toMatch(/remodeled 2020 \(synthetic.*2017-01-01/);
    const document = buildSubjectReport(dc1708Input({ name: '1708', intendedUse: 'x' }, {}));
    expect(document.sections.find((s) => s.id === 'building')!.limitations.some((l) => /remodeled 2020/.test(l.text))).toBe(true);
  });
});
