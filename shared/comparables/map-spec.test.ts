// The map as data, from the real answers around 1708 21ST ST NW: each sale in its role, chosen comps
// numbered in grid order, hover lines and an alt text that says what the map shows.
import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import subjectFixture from '../report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import { analyzeComparables } from './analysis.ts';
import comps2016 from './fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import undatedPage1 from './fixtures/dc-1708-comps-2016-with-undated.json' with { type: 'json' };
import { mapSpecFor } from './map-spec.ts';
import { ComparablesMapSpecSchema, emptyComparablesWorkfile, type ComparablesWorkfile, type MarketArea } from './model.ts';
import { comps2016Run } from './test-kit.ts';

const ids = comps2016.envelope.data.items.map((item) => item.record_ref);

function specFor(patch: Partial<ComparablesWorkfile> = {}, pages: unknown[] = [comps2016.envelope], area: MarketArea = { kind: 'radius', radiusMiles: 0.5 }) {
  const run = comps2016Run({ criteria: { ...emptyComparablesWorkfile().criteria, area }, dataAsOf: null });
  const workfile: ComparablesWorkfile = { ...emptyComparablesWorkfile(), searches: [run], ...patch };
  const analysis = analyzeComparables({ subjectEnvelope: subjectFixture.subject, pages, workfile, effectiveDate: '2017-01-01' }, new CitationBook());
  return { spec: mapSpecFor(analysis, workfile), analysis };
}

describe('mapSpecFor', () => {
  it('draws the subject, every sale in its role, and numbers the chosen comps in grid order', () => {
    const { spec } = specFor({ chosen: [ids[5]!, ids[0]!], notUsed: { [ids[1]!]: { reason: 'condition', note: '' } } });
    expect(() => ComparablesMapSpecSchema.parse(spec)).not.toThrow();
    expect(spec.subject).toEqual({ lonLat: [-77.047037, 38.912976], label: '1708 21ST ST NW', approximate: true, tag: 'S' });
    expect(spec.points).toHaveLength(14);
    const point = (id: string) => spec.points.find((p) => p.id === id)!;
    expect(point(ids[5]!)).toMatchObject({ role: 'chosen', number: 1, tag: '1', label: '1739 19TH ST NW', approximate: true });
    expect(point(ids[0]!)).toMatchObject({ role: 'chosen', number: 2, tag: '2' });
    // The appraiser's "not used" wins over the screening's flag.
    expect(point(ids[1]!)).toMatchObject({ role: 'not_used', number: null, tag: null });
    // OTR price 0: not arm's length.
    expect(point(ids[4]!)).toMatchObject({ role: 'flagged', number: null });
    expect(spec.points.filter((p) => p.role === 'chosen').map((p) => p.number)).toEqual([1, 2]);
    expect(spec.area).toEqual({ kind: 'radius', radiusMiles: 0.5 });
    expect(spec.radiusMiles).toBe(0.5);
  });

  it('marks the subject S and each chosen comp with its grid column number, the marks the map and the print write', () => {
    const { spec, analysis } = specFor({ chosen: [ids[3]!, ids[5]!, ids[0]!] });
    expect(spec.subject?.tag).toBe('S');
    const marks = analysis.chosen.map((comp) => spec.points.find((p) => p.id === comp.id)?.tag);
    expect(marks).toEqual(['1', '2', '3']);
    expect(spec.points.filter((p) => p.role !== 'chosen').every((p) => p.tag === null)).toBe(true);
  });

  it('gives each point its price, date, $/sq ft, distance and source in words', () => {
    const { spec } = specFor();
    expect(spec.points.find((p) => p.id === ids[0])?.details).toEqual([
      'Sold for $2,350,000',
      'Sold 2016-01-19',
      '$772.52 per sq ft',
      '0.12 mi SE (approximate)',
      'Source: DC OTR · 2017-02-05',
    ]);
    const undated = specFor({}, [undatedPage1.envelope]).spec.points.find((p) => p.label.startsWith('DC CAMA sale'))!;
    expect(undated.details).toContain('No sale date');
    expect(undated.role).toBe('flagged');
    expect(undated.approximate).toBe(false);
  });

  it('says in words what the map shows', () => {
    const { spec } = specFor({ chosen: [ids[5]!, ids[0]!, ids[3]!], notUsed: { [ids[1]!]: { reason: 'condition', note: '' } } });
    expect(spec.altText).toContain('1708 21ST ST NW (the star marked S)');
    expect(spec.altText).toContain('within 0.5 mi of the subject');
    expect(spec.altText).toContain('14 sales drawn: 3 chosen comps numbered 1 to 3 in grid order');
    expect(spec.altText).toContain('1 sale the appraiser marked not used');
    expect(spec.altText).toMatch(/\d+ sales flagged by the screening/);
    expect(spec.altText).toContain('tax-square centroids (approximate)');
  });

  it('names a drawn market area and the radius that covered it', () => {
    const polygon: MarketArea = {
      kind: 'polygon',
      label: 'Dupont east',
      polygon: [[[-77.05, 38.91], [-77.03, 38.91], [-77.03, 38.92], [-77.05, 38.92], [-77.05, 38.91]]],
    };
    const { spec } = specFor({}, [comps2016.envelope], polygon);
    expect(spec.area).toEqual(polygon);
    expect(spec.altText).toContain('in the market area drawn by the appraiser (“Dupont east”), outlined, searched as the 0.5 mi around the subject that covers it');
  });

  it('draws nothing but the subject before a search', () => {
    const workfile = emptyComparablesWorkfile();
    const analysis = analyzeComparables({ subjectEnvelope: subjectFixture.subject, pages: [], workfile, effectiveDate: '2017-01-01' }, new CitationBook());
    const spec = mapSpecFor(analysis, workfile);
    expect(spec.points).toEqual([]);
    expect(spec.radiusMiles).toBeNull();
    expect(spec.altText).toContain('No sale is drawn.');
  });
});
