// GBA is not GLA: the area rows name the measure the answers publish it as. DC CAMA (the real sample
// of the embedded service) publishes gross building area; another service's field names decide
// there; an area whose measure is not stated says so.
import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import dc1717 from '../report/fixtures/dc-1717-4th-st-nw.json' with { type: 'json' };
import { buildSubjectReport } from '../report/build-subject-report.ts';
import { dc1708Input } from '../report/test-kit.ts';
import { analyzeComparables } from './analysis.ts';
import { areaOf, areaRowLabel } from './answer-values.ts';
import { readSubject } from './candidates.ts';
import comps1717 from './fixtures/dc-1717-4th-comps-2016.json' with { type: 'json' };
import { gridCsv } from './grid-csv.ts';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from './model.ts';
import { resolveSubject } from './subject/resolve.ts';
import { comps2016Run } from './test-kit.ts';
import { salesComparisonUad } from './uad-export.ts';

const ids = comps1717.envelope.data.items.map((item) => item.record_ref);
const workfile: ComparablesWorkfile = {
  ...emptyComparablesWorkfile(),
  searches: [comps2016Run({ pages: [comps1717.request], total: ids.length, returned: ids.length })],
  chosen: ids.slice(0, 3),
  rates: { ...emptyComparablesWorkfile().rates, glaPerSqft: 200 },
  rateSource: { glaPerSqft: 'appraiser' },
};
const analysis = () => analyzeComparables({ subjectEnvelope: dc1717.subject, subjectSummary: dc1717.summary, pages: [comps1717.envelope], workfile, effectiveDate: '2017-01-01' }, new CitationBook());

const GBA_ROW = 'Gross building area (published; stands in for GLA)';

describe('the area as published', () => {
  it('prints no “Gross living area” fed by DC CAMA’s gross building area: the grid, the CSV, the UAD JSON and the report say GBA', () => {
    const a = analysis();
    expect(a.set.subject!.values.gla.label).toBe(GBA_ROW);
    for (const comp of a.chosen) expect(comp.values.gla.label).toBe(GBA_ROW);
    const csv = gridCsv(a, workfile);
    // No row or rate is labelled living area (the regression's own method text is another matter).
    expect(csv.split('\r\n').filter((line) => /^"?(Comp \d+,[^,]*,)?"?Gross living area/.test(line))).toEqual([]);
    expect(csv).toContain(GBA_ROW);
    expect(csv).toContain('Sale price per sq ft of gross building area');
    expect(csv).toContain('$ per sq ft of gross building area');
    const uad = JSON.parse(
      JSON.stringify(
        salesComparisonUad(a, { assignment: { name: '1717', effectiveDate: '2017-01-01', subjectRef: dc1717.subjectRef }, generatedAt: '2026-11-27T22:00:00.000Z', appVersion: '0.1.0', workfile }),
      ),
    ) as { salesComparisonApproach: { subject: { features: Record<string, { label: string }> }; comparables: Array<{ features: Record<string, { label: string }> }>; adjustmentRates: Array<{ key: string; label: string; unit: string }> } };
    const approach = uad.salesComparisonApproach;
    const labels = [approach.subject, ...approach.comparables].flatMap((property) => Object.values(property.features).map((feature) => feature.label));
    expect(labels.filter((label) => /living area/i.test(label))).toEqual([]);
    expect(approach.subject.features.gla!.label).toBe(GBA_ROW);
    expect(approach.adjustmentRates.find((rate) => rate.key === 'glaPerSqft')).toMatchObject({ label: GBA_ROW, unit: '$ per sq ft of gross building area' });
    const document = buildSubjectReport({ ...dc1708Input({ name: '1717', intendedUse: 'x' }, { subject: dc1717.subject, summary: dc1717.summary, comparables: { workfile, pages: [comps1717.envelope] } }) });
    const rows = document.comparables!.grid!.rows;
    expect(rows.find((row) => row.key === 'gla')!.label).toBe(GBA_ROW);
    expect(rows.find((row) => row.key === 'pricePerSqft')!.label).toBe('Sale price per sq ft of gross building area');
    expect(document.comparables!.grid!.rates.find((rate) => rate.key === 'glaPerSqft')!.unit).toBe('$ per sq ft of gross building area');
  });

  it('decides the measure from the field the answer publishes, whatever its case, and says when it is not stated', () => {
    expect(areaOf({ LIVING_AREA_SQFT: 1800 })).toEqual({ sqft: 1800, measure: 'gla', field: 'living_area_sqft' });
    expect(areaOf({ gross_area_sqft: 1442 })).toMatchObject({ measure: 'gba' });
    expect(areaOf({ BLDG_AREA: 2100, LAND_AREA_SQFT: 900 })).toMatchObject({ sqft: 2100, measure: 'unstated' });
    expect(areaOf({ land_area_sqft: 900 })).toBeNull();
    expect(areaRowLabel('gla', [{ areaMeasure: 'unstated' }])).toBe('Area as published (measure not stated)');
    expect(areaRowLabel('gla', [{ areaMeasure: 'gla' }])).toBe('Gross living area');
    expect(areaRowLabel('gla', [{ areaMeasure: 'gla' }, { areaMeasure: 'gba' }])).toBe('Area as published (living or building area: see each value)');
  });

  it('reads a subject of a service that publishes an area without naming its measure', () => {
    const envelope = structuredClone(dc1717.subject) as { data: { items: Array<{ characteristics: Record<string, unknown>; sections: { building: Record<string, unknown> } }> } };
    for (const profile of [envelope.data.items[0]!.characteristics, envelope.data.items[0]!.sections.building]) {
      delete profile.gross_area_sqft;
      profile.BUILDING_AREA = 1442;
    }
    const subject = readSubject(envelope, new CitationBook().cite)!;
    expect(subject.areaMeasure).toBe('unstated');
    expect(subject.values.gla.label).toBe('Area as published (measure not stated)');
    expect(subject.values.gla.limitation).toMatch(/does not say whether it is living or building area/);
  });
});

describe('the one subject from a service that writes its summary under data.fields, in capitals', () => {
  it('resolves the year built from the summary’s YEAR_BUILT and still finds the permit contradiction', () => {
    const summary = structuredClone(dc1717.summary) as { data: Record<string, unknown> };
    const fields = Object.fromEntries(Object.entries(summary.data).filter(([key]) => key !== 'limitations').map(([key, value]) => [key.toUpperCase(), value]));
    const spec = { ...summary, data: { q_id: 'x', fields } };
    const resolved = resolveSubject({ subject: dc1717.subject, summary: spec, effectiveDate: '2017-01-01', choices: undefined });
    expect(resolved.characteristics.yearBuilt.resolution!.chosen.raw).toBe(2012);
    expect(resolved.characteristics.yearBuilt.resolution!.alternatives.map((a) => a.raw)).toEqual([1911]);
    // The summary alone (no subject report): its copied 1911 is all there is.
    const summaryOnly = resolveSubject({ subject: null, summary: spec, effectiveDate: '2017-01-01', choices: undefined });
    expect(summaryOnly.characteristics.yearBuilt.resolution!.chosen).toMatchObject({ raw: 1911, status: 'synthetic' });
    expect(summaryOnly.characteristics.grossBuildingArea.resolution!.chosen.raw).toBe(1442);
  });
});
