import { describe, expect, it } from 'vitest';
import { V3RecordQuerySchema } from '../service/v3.ts';
import { DEFAULT_CRITERIA, type CompSearchCriteria, type LonLat, type PolygonCoords } from './model.ts';
import {
  comparablesRequestBody,
  criteriaProblems,
  criteriaWarnings,
  describeCriteria,
  livingAreaBand,
  searchRadiusMiles,
  searchWindow,
  widenSteps,
  type CriteriaContext,
} from './search.ts';
import { distanceMiles } from './geometry.ts';
import { comps2016Body, comps2016Run, squareAround } from './test-kit.ts';

const SUBJECT_REF = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';
const subject: LonLat = [-77.047037, 38.912976];
const ctx: CriteriaContext = { effectiveDate: '2017-01-01', subject: { lonLat: subject }, salesCoverage: { earliest: '1964-12-22', latest: '2017-01-17' } };
const withCriteria = (changes: Partial<CompSearchCriteria>): CompSearchCriteria => ({ ...DEFAULT_CRITERIA, ...changes });
const drawn = (polygon: PolygonCoords): CompSearchCriteria => withCriteria({ area: { kind: 'polygon', label: 'Dupont East', polygon } });

describe('searchWindow', () => {
  it('ends at the effective date and starts the same day months earlier', () => {
    expect(searchWindow('2017-01-01', 12)).toEqual({ fromDate: '2016-01-01', toDate: '2017-01-01' });
    expect(searchWindow('2017-01-15', 1)).toEqual({ fromDate: '2016-12-15', toDate: '2017-01-15' });
    expect(searchWindow('2017-06-30', 18)).toEqual({ fromDate: '2015-12-30', toDate: '2017-06-30' });
    expect(searchWindow('2017-01-01', 120)).toEqual({ fromDate: '2007-01-01', toDate: '2017-01-01' });
  });

  it('clamps to the end of a shorter month', () => {
    expect(searchWindow('2017-03-31', 1).fromDate).toBe('2017-02-28');
    expect(searchWindow('2016-03-31', 1).fromDate).toBe('2016-02-29');
    expect(searchWindow('2017-05-31', 1).fromDate).toBe('2017-04-30');
  });

  it('counts leap years, century rule included', () => {
    expect(searchWindow('2020-02-29', 12).fromDate).toBe('2019-02-28');
    expect(searchWindow('2020-02-29', 48).fromDate).toBe('2016-02-29');
    expect(searchWindow('2000-03-31', 1).fromDate).toBe('2000-02-29');
    expect(searchWindow('1900-03-31', 1).fromDate).toBe('1900-02-28');
  });

  it('refuses a date that does not exist', () => {
    expect(() => searchWindow('2017-02-30', 12)).toThrow(/not a date/);
  });
});

describe('criteriaProblems', () => {
  it('finds none in the default criteria around a located subject', () => {
    expect(criteriaProblems(DEFAULT_CRITERIA, ctx)).toEqual([]);
    expect(criteriaWarnings(DEFAULT_CRITERIA, ctx)).toEqual([]);
  });

  it('explains a radius of 0 and of 500 miles', () => {
    expect(criteriaProblems(withCriteria({ area: { kind: 'radius', radiusMiles: 0 } }), ctx)).toEqual(['The radius must be more than 0 miles.']);
    expect(criteriaProblems(withCriteria({ area: { kind: 'radius', radiusMiles: -1 } }), ctx)).toEqual(['The radius must be more than 0 miles.']);
    expect(criteriaProblems(withCriteria({ area: { kind: 'radius', radiusMiles: 500 } }), ctx)).toEqual([
      'The radius can be at most 5 miles (the service searches up to 5 miles around the subject).',
    ]);
    expect(criteriaProblems(withCriteria({ area: { kind: 'radius', radiusMiles: 5 } }), ctx)).toEqual([]);
  });

  it('explains months and band outside their ranges', () => {
    for (const monthsBack of [0, 121, 1.5, Number.NaN]) {
      expect(criteriaProblems(withCriteria({ monthsBack }), ctx)).toEqual(['The sale period must be a whole number of months from 1 to 120.']);
    }
    for (const livingAreaBandPct of [0, 101, Number.NaN]) {
      expect(criteriaProblems(withCriteria({ livingAreaBandPct }), ctx)).toEqual(["The living-area band must be from 1 to 100 % of the subject's living area."]);
    }
  });

  it('explains a drawn area that crosses itself', () => {
    const bowtie: PolygonCoords = [[[-77.05, 38.91], [-77.04, 38.92], [-77.04, 38.91], [-77.05, 38.92], [-77.05, 38.91]]];
    const [problem] = criteriaProblems(drawn(bowtie), ctx);
    // Why, where (which sides, at which point) and how to fix it, from the keyboard too.
    expect(problem).toContain('The drawn area crosses itself (sides numbered from the first corner placed: side 1 crosses side 3 at 38.91500° N, 77.04500° W)');
    expect(problem).toContain('has no clear inside');
    expect(problem).toContain('Escape starts over');
    expect(problem).toContain('from the keyboard, choose Radius or an area from the Market area list');
  });

  it('explains a drawn area that is not closed', () => {
    const open: PolygonCoords = [squareAround(subject, 0.01)[0]!.slice(0, 4)];
    expect(criteriaProblems(drawn(open), ctx)).toEqual(['The drawn area “Dupont East” is not closed: finish the outline where it started.']);
  });

  it('explains an area reaching past 5 miles from the subject', () => {
    const problems = criteriaProblems(drawn(squareAround(subject, 0.1)), ctx);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^The drawn area “Dupont East” reaches 8\.\d+ mi from the subject; the service searches at most 5 miles around it: draw a smaller area, or search a radius\.$/);
    const ward = withCriteria({ area: { kind: 'layer', layer: 'ward', featureId: '2', label: 'Ward 2', multiPolygon: [squareAround(subject, 0.1)] } });
    expect(criteriaProblems(ward, ctx)[0]).toMatch(/^Ward 2 reaches .* choose a smaller area/);
  });

  it('warns, without blocking, when the subject is outside its own area', () => {
    const elsewhere = drawn(squareAround([subject[0] + 0.02, subject[1]], 0.005));
    expect(criteriaProblems(elsewhere, ctx)).toEqual([]);
    expect(criteriaWarnings(elsewhere, ctx)).toEqual([
      'The subject is outside the drawn area “Dupont East”: sales are still searched around the subject, and those outside the area are listed as not used.',
    ]);
    expect(criteriaWarnings(drawn(squareAround(subject, 0.005)), ctx)).toEqual([]);
  });

  it('explains a subject with no location', () => {
    const problems = criteriaProblems(DEFAULT_CRITERIA, { ...ctx, subject: null });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^The subject has no location in the records, so there is nothing to search around: /);
  });

  it('explains an effective date before every dated sale', () => {
    expect(criteriaProblems(DEFAULT_CRITERIA, { ...ctx, effectiveDate: '1950-01-01' })).toEqual([
      'The effective date 1950-01-01 is before every dated sale the service holds (the earliest is 1964-12-22): no sale can fall in the 12 months before it. Set a later effective date in the assignment.',
    ]);
    // Unknown coverage: nothing to compare with.
    expect(criteriaProblems(DEFAULT_CRITERIA, { ...ctx, effectiveDate: '1950-01-01', salesCoverage: null })).toEqual([]);
  });

  it('explains a missing or impossible effective date', () => {
    expect(criteriaProblems(DEFAULT_CRITERIA, { ...ctx, effectiveDate: '' })[0]).toMatch(/no effective date: set it in the assignment/);
    expect(criteriaProblems(DEFAULT_CRITERIA, { ...ctx, effectiveDate: '2017-02-30' })[0]).toMatch(/“2017-02-30” is not a date/);
  });

  it('warns when no dated sale can fall in the period', () => {
    expect(criteriaWarnings(DEFAULT_CRITERIA, { ...ctx, effectiveDate: '2024-05-01' })).toEqual([
      'No dated sale the service holds falls in 2023-05-01 to 2024-05-01 (the latest is 2017-01-17): the search can only find sales without a date. Lengthen the period or set an earlier effective date in the assignment.',
    ]);
  });

  it('lists every problem at once', () => {
    const criteria = withCriteria({ area: { kind: 'radius', radiusMiles: 0 }, monthsBack: 0, livingAreaBandPct: 0 });
    expect(criteriaProblems(criteria, { ...ctx, subject: null, effectiveDate: '1950-01-01' })).toHaveLength(5);
  });
});

describe('comparablesRequestBody', () => {
  it('builds the v3 body the schema accepts, without market_only', () => {
    const body = comparablesRequestBody(SUBJECT_REF, DEFAULT_CRITERIA, '2017-01-01', '24');
    expect(body).toEqual(comps2016Body(SUBJECT_REF, { toDate: '2017-01-01', includeUndated: false, limit: 100 }));
    expect(V3RecordQuerySchema.safeParse(body).success).toBe(true);
    expect(JSON.stringify(body)).not.toContain('market_only');
    // Arm's length only is screened by Plat: the body is the same either way.
    expect(comparablesRequestBody(SUBJECT_REF, withCriteria({ armsLengthOnly: false }), '2017-01-01', '24')).toEqual(body);
  });

  it('gives the same bytes for the same criteria (a search already bought is a cache hit)', () => {
    const a = JSON.stringify(comparablesRequestBody(SUBJECT_REF, DEFAULT_CRITERIA, '2017-01-01', '24'));
    const b = JSON.stringify(comparablesRequestBody(SUBJECT_REF, structuredClone(DEFAULT_CRITERIA), '2017-01-01', '24'));
    expect(b).toBe(a);
    // The band is screened by Plat, not sent: widening it costs nothing.
    expect(JSON.stringify(comparablesRequestBody(SUBJECT_REF, withCriteria({ livingAreaBandPct: 50 }), '2017-01-01', '24'))).toBe(a);
    expect(JSON.stringify(comparablesRequestBody(SUBJECT_REF, withCriteria({ monthsBack: 18 }), '2017-01-01', '24'))).not.toBe(a);
  });

  it('sends include_undated false, leaves the use code out when not asked or not known, and carries the cursor', () => {
    const dated = comparablesRequestBody(SUBJECT_REF, withCriteria({ includeUndated: false, sameUseCode: false }), '2017-01-01', '24', 'page-2');
    expect(dated.filters).toEqual({
      sale: [
        { field: 'from_date', value: '2016-01-01' },
        { field: 'to_date', value: '2017-01-01' },
        { field: 'include_undated', value: 'false' },
      ],
    });
    expect(dated.cursor).toBe('page-2');
    expect(V3RecordQuerySchema.safeParse(dated).success).toBe(true);
    expect(comparablesRequestBody(SUBJECT_REF, DEFAULT_CRITERIA, '2017-01-01', null).filters.property).toBeUndefined();
  });

  it('searches a drawn area as the radius covering it', () => {
    const criteria = drawn(squareAround(subject, 0.004));
    const radius = searchRadiusMiles(criteria, subject)!;
    const corner = distanceMiles(subject, [subject[0] + 0.004, subject[1] + 0.004]);
    expect(radius).toBe(Math.ceil(corner * 100) / 100);
    const body = comparablesRequestBody(SUBJECT_REF, criteria, '2017-01-01', '24', undefined, subject);
    expect(body.radius_miles).toBe(radius);
    expect(V3RecordQuerySchema.safeParse(body).success).toBe(true);
    expect(searchRadiusMiles(criteria, null)).toBeNull();
    expect(() => comparablesRequestBody(SUBJECT_REF, criteria, '2017-01-01', '24')).toThrow(/location is needed/);
  });
});

describe('widenSteps', () => {
  it('offers the next step of each dimension', () => {
    const steps = widenSteps(DEFAULT_CRITERIA);
    expect(steps.map((s) => [s.key, s.label])).toEqual([
      ['radius', 'Radius 0.5 → 1 mi'],
      ['months', 'Sold within 12 → 18 months'],
      ['band', 'Living area ±20 → ±30 %'],
    ]);
    expect(steps[0]!.criteria).toEqual({ ...DEFAULT_CRITERIA, area: { kind: 'radius', radiusMiles: 1 } });
    expect(steps[1]!.criteria.monthsBack).toBe(18);
    expect(steps[2]!.criteria.livingAreaBandPct).toBe(30);
    expect(DEFAULT_CRITERIA.area).toEqual({ kind: 'radius', radiusMiles: 0.5 });
  });

  it('steps from a value between steps to the next one', () => {
    const steps = widenSteps(withCriteria({ area: { kind: 'radius', radiusMiles: 0.7 }, monthsBack: 13, livingAreaBandPct: 5 }));
    expect(steps.map((s) => s.label)).toEqual(['Radius 0.7 → 1 mi', 'Sold within 13 → 18 months', 'Living area ±5 → ±10 %']);
  });

  it('offers nothing past the last step', () => {
    expect(widenSteps(withCriteria({ area: { kind: 'radius', radiusMiles: 5 }, monthsBack: 60, livingAreaBandPct: 50 }))).toEqual([]);
    expect(widenSteps(withCriteria({ monthsBack: 120 })).map((s) => s.key)).toEqual(['radius', 'band']);
  });

  it('has no radius step for a drawn area', () => {
    expect(widenSteps(drawn(squareAround(subject, 0.004))).map((s) => s.key)).toEqual(['months', 'band']);
  });
});

describe('describeCriteria', () => {
  it('says the search in words', () => {
    expect(describeCriteria(DEFAULT_CRITERIA, '2017-01-01', undefined, { livingAreaSqft: 1700, useCode: '24' })).toEqual([
      'Within 0.5 mi of the subject',
      'Sold 2016-01-01 to 2017-01-01 (12 months before the effective date)',
      "Living area 1,360–2,040 sq ft (±20 % of the subject's 1,700)",
      'Same property type as the subject (use code 24)',
      "Arm's-length (market) sales only; non-market sales are listed, flagged, not used",
      'Dated sales only',
    ]);
  });

  it('says what is not known', () => {
    const lines = describeCriteria(withCriteria({ includeUndated: false, armsLengthOnly: false }), '2017-01-01', undefined, { livingAreaSqft: null, useCode: null });
    expect(lines).toContain("Living area within ±20 % of the subject's");
    expect(lines).toContain("Any property type (the subject's use code is not known)");
    expect(lines).toContain('Non-market sales allowed (listed, flagged)');
    expect(lines).toContain('Dated sales only');
  });

  it('adds the run: radius sent for an area, counts, when, data as of', () => {
    const criteria = drawn(squareAround(subject, 0.004));
    const run = comps2016Run({
      criteria,
      radiusMiles: 0.39,
      pages: [comparablesRequestBody(SUBJECT_REF, criteria, '2017-01-01', '24', undefined, subject)],
      dataAsOf: 'sample_v1_20231105_d7b3abbd34f3',
    });
    const lines = describeCriteria(criteria, '2017-01-01', run);
    expect(lines[0]).toBe('Inside the drawn area “Dupont East”, searched as 0.39 mi around the subject (the smallest radius covering it); sales outside it are listed as not used');
    expect(lines).toContain('14 sales found, 14 listed');
    expect(lines.some((line) => line.startsWith('Ran 2026-11-2'))).toBe(true);
    expect(lines).toContain("Data as of the service's snapshot sample_v1_20231105_d7b3abbd34f3");
  });
});

describe('livingAreaBand', () => {
  it('rounds to whole square feet', () => {
    expect(livingAreaBand(1700, 20)).toEqual({ low: 1360, high: 2040 });
    expect(livingAreaBand(1203, 10)).toEqual({ low: 1083, high: 1323 });
  });
});
