import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import subjectFixture from '../report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import { readCandidates, readSubject } from './candidates.ts';
import compsFixture from './fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import { gridCsv } from './grid-csv.ts';
import { DEFAULT_CRITERIA } from './model.ts';
import { analysisOf, exampleAnalysis, workfileWith } from './test-kit.ts';
import { salesComparisonUad } from './uad-export.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests edit answers freely

const rowsOf = (csv: string): string[][] => parse(csv, { bom: false });
const rowNamed = (rows: string[][], label: string) => rows.find((row) => row[0] === label) ?? [];

describe('gridCsv', () => {
  it('writes one rectangular row per grid row with each comp’s description, adjustment and sources', () => {
    const { analysis, workfile } = exampleAnalysis();
    const csv = gridCsv(analysis, workfile);
    expect(csv.endsWith('\r\n')).toBe(true);
    const rows = rowsOf(csv);
    expect(new Set(rows.map((row) => row.length)).size).toBe(1);
    expect(rows[0]?.slice(0, 9)).toEqual([
      'Feature',
      'Subject',
      'Subject sources',
      'Comp 1 description',
      'Comp 1 adjustment',
      'Comp 1 sources',
      'Comp 2 description',
      'Comp 2 adjustment',
      'Comp 2 sources',
    ]);
    expect(rowNamed(rows, 'Gross living area').slice(0, 9)).toEqual(['Gross living area', '2,400 sq ft', 'reported: 3', '2,400 sq ft', '0', 'synthetic: 2', '2,600 sq ft', '-30000', 'synthetic: 2']);
    expect(rowNamed(rows, 'Site (land area)').slice(6, 9)).toEqual(['2,300 sq ft', '-15000', 'reported: 1']);
    expect(rowNamed(rows, 'Design (style)').slice(1, 3)).toEqual(['not in the sample', 'unavailable: Not in the sample.']);
  });

  it('ends each column with net, gross, percentages, adjusted price and weight that match the grid', () => {
    const { analysis, workfile } = exampleAnalysis();
    const rows = rowsOf(gridCsv(analysis, workfile));
    const [first, second] = analysis.grid.columns;
    expect(rowNamed(rows, 'Net adjustment')[4]).toBe(String(first?.net));
    expect(rowNamed(rows, 'Net adjustment')[7]).toBe(String(second?.net));
    expect(rowNamed(rows, 'Gross adjustment')[7]).toBe(String(second?.gross));
    expect(rowNamed(rows, 'Net adjustment, % of sale price')[7]).toBe(String(second?.netPct));
    expect(rowNamed(rows, 'Adjusted sale price')[4]).toBe(String(first?.adjustedPrice));
    expect(rowNamed(rows, 'Comparable weight')[3]).toBe('Most weight');
    expect(rowNamed(rows, 'Comparable weight')[9]).toBe('No weight');
    // The adjustments in a column add up to its net.
    const column = (index: number) => rows.slice(1, 22).reduce((sum, row) => sum + Number(row[index] || 0), 0);
    expect(column(7)).toBe(second?.net);
    expect(rowNamed(rows, 'Indicated value by sales comparison')[1]).toBe('1640000');
    // The appraiser's value, derived: its sources' notes and how it sits in the range.
    expect(rowNamed(rows, 'Indicated value by sales comparison')[2]).toMatch(/^derived: [\d, ]+ \(The appraiser’s value by sales comparison, reconciled from the adjusted prices \$1,662,838 to \$1,701,154 \(outside the range\)\)$/);
  });

  it('numbers the citations it refers to and lists them, synthetic marked', () => {
    const { analysis, workfile } = exampleAnalysis();
    const rows = rowsOf(gridCsv(analysis, workfile));
    const header = rows.findIndex((row) => row[0] === 'Note');
    const notes = rows.slice(header + 1).filter((row) => row[0] !== '');
    expect(notes.map((row) => [row[0], row[1], row[2], row[9]])).toEqual([
      ['1', 'c1', 'DC Office of Tax and Revenue', 'no'],
      ['2', 'c2', 'Plat synthetic sample (not a public record)', 'synthetic (not a public record)'],
      ['3', 'c3', 'DC Office of the Chief Technology Officer (DC GIS)', 'no'],
      ['4', 'c4', 'The appraiser', 'no'],
    ]);
    expect(notes[0]?.[10]).toContain('as of 2017-02-05');
  });

  it('lists the copied values the appraiser accepted, with who and why, and each adjustment’s rule and inputs', () => {
    const { analysis, workfile } = exampleAnalysis();
    const rows = rowsOf(gridCsv(analysis, workfile));
    const at = rows.findIndex((row) => row[0] === 'Copied values accepted by the appraiser');
    expect(rows[at + 1]?.slice(0, 5)).toEqual(['Feature', 'Accepted for', 'By', 'Reason', 'When']);
    expect(rows[at + 2]?.slice(1, 5)).toEqual(['the whole grid', 'The appraiser', 'Checked against the sale listings.', '2026-11-23T21:50:00.000Z']);
    expect(rows.slice(at + 2).filter((row) => row[1] === 'the whole grid')).toHaveLength(6);
    const gla = rows.find((row) => row[0] === 'Comp 2' && row[4]?.startsWith('(subject 2,400 − comp 2,600)'));
    expect(gla?.slice(5, 7)).toEqual(['adjustment-rate-times-difference', '150 2400 2600']);
    expect(rowsOf(gridCsv(analysis, { ...workfile, syntheticAccepted: [] })).some((row) => row[0] === 'None: copied (synthetic) values drive no adjustment')).toBe(true);
  });

  it('prints each rate beside its regression suggestion, and the workings', () => {
    const { analysis, workfile } = exampleAnalysis();
    const rows = rowsOf(gridCsv(analysis, workfile));
    const gla = rows.find((row) => row[0] === 'Gross living area' && row[1] === '$ per sq ft of gross living area');
    expect(gla?.slice(0, 4)).toEqual(['Gross living area', '$ per sq ft of gross living area', '150', 'accepted suggestion']);
    // The example accepts its copied (synthetic) characteristics for the whole grid: the regression estimates the rate.
    expect(gla?.[4]).toMatch(/^\d+$/);
    expect(rows.find((row) => row[0] === 'Condition' && row[1] === '$ per condition step')?.[7]).toBe(analysis.support.suggestions.perConditionStep.why);
    // Accepted, the copied conditions are used: all alike, they estimate nothing.
    expect(analysis.support.suggestions.perConditionStep.why).toContain('All 12 sales have condition step = 3');
    expect(rows.find((row) => row[0] === 'Comp 2' && row[2] === 'Site (land area)')?.slice(3, 5)).toEqual(['-15000', 'Lump sum entered by the appraiser: −$15,000']);
  });

  it('keeps an address that looks like a formula as text', () => {
    const { analysis, workfile } = exampleAnalysis({ comp1Address: '=HYPERLINK("http://evil.example","1704 21ST ST NW")' });
    const csv = gridCsv(analysis, workfile);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""1704 21ST ST NW"")"`);
    const rows = rowsOf(csv);
    expect(rowNamed(rows, 'Address')[3]).toBe(`'=HYPERLINK("http://evil.example","1704 21ST ST NW")`);
    expect(rows.flat().some((cell) => cell.startsWith('='))).toBe(false);
  });

  it('still writes the grid without the workfile, and without a subject report', () => {
    const { analysis } = exampleAnalysis();
    const rows = rowsOf(gridCsv({ ...analysis, set: { ...analysis.set, subject: null } }));
    expect(rowNamed(rows, 'Gross living area').slice(1, 3)).toEqual(['no subject report', '']);
    expect(rowNamed(rows, 'Indicated value by sales comparison')).toEqual([]);
  });

  it('writes a comp read from an answer by each value’s kind: the price with the cents published, the year never grouped, the date as a day', () => {
    const envelope = structuredClone(compsFixture.envelope) as Json;
    const first = envelope.data.items[0];
    // As another service publishes them: money with cents as text, years as text, a date as a timestamp.
    Object.assign(first.sections.transfer, { price_dollars: '2350000.50', sale_date: '2016-01-19T00:00:00Z' });
    Object.assign(first.characteristics, { year_built: '1895', year_remodeled: 2001 });
    const book = new CitationBook();
    const subject = readSubject(subjectFixture.subject, book.cite);
    const set = readCandidates([envelope], { subject, criteria: DEFAULT_CRITERIA, effectiveDate: '2017-01-01', subjectUseCode: '24' }, book.cite);
    const workfile = workfileWith({ chosen: [first.record_ref] });
    const analysis = { ...analysisOf({ subject, candidates: set.candidates, workfile, effectiveDate: '2017-01-01' }), citations: book.all() };
    const rows = rowsOf(gridCsv(analysis, workfile));
    expect(rowNamed(rows, 'Sale price')[3]).toBe('$2,350,000.50');
    expect(rowNamed(rows, 'Actual age (year built)')[3]).toBe('Built 1895 (remodeled 2001)');
    expect(rowNamed(rows, 'Date of sale')[3]).toBe('2016-01-19');
    // The export keeps the value as published beside how it reads.
    const uad = JSON.parse(JSON.stringify(salesComparisonUad(analysis, { assignment: { name: 'a', effectiveDate: '2017-01-01', subjectRef: 'p' }, generatedAt: '2026-11-23T22:00:00.000Z', appVersion: '0.1.0', workfile }))) as Json;
    expect(uad.salesComparisonApproach.comparables[0].features.salePrice).toMatchObject({ value: '2350000.50', display: '$2,350,000.50' });
  });
});

