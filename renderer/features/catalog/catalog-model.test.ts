import { describe, expect, it, vi } from 'vitest';
import { jurisdictionCodes } from '../../../shared/jurisdictions.ts';
import {
  cellDisplay,
  cellText,
  facetCitation,
  facetColumns,
  jurisdictionGroups,
  noSourcesMessage,
  parseSourceFields,
  sourceRows,
  sourceTotals,
} from './catalog-model.ts';

const catalogItem = (overrides: Record<string, unknown> = {}) => ({
  state: '11',
  source_id: 'dc_otr_ownership',
  source: 'DC Office of Tax and Revenue',
  dataset: 'Real Property Tax Database',
  kind: 'ownership',
  records: 18893,
  as_of: '2017-02-05T00:00:00Z',
  ...overrides,
});

describe('jurisdictionGroups', () => {
  it('offers every jurisdiction the service accepts once, grouped by state', () => {
    const groups = jurisdictionGroups();
    expect(groups.map((g) => g.label)).toEqual(['District of Columbia', 'Maryland', 'Virginia']);
    const codes = groups.flatMap((g) => g.options.map((o) => o.code));
    expect([...codes].sort()).toEqual([...jurisdictionCodes].sort());
    expect(groups[1]?.options.find((o) => o.code === '24031')?.label).toBe('Montgomery County, MD');
  });
});

describe('parseSourceFields', () => {
  it('reads Plat’s list of field objects', () => {
    expect(parseSourceFields([{ name: 'owner', type: 'string', description: 'Owner of record', example: 'JOHN DOE' }])).toEqual([
      { name: 'owner', type: 'string', description: 'Owner of record', example: 'JOHN DOE' },
    ]);
  });
  it('reads a list of names or an object keyed by field, and says when there is no list', () => {
    expect(parseSourceFields(['ssl'])).toEqual([{ name: 'ssl', type: '', description: '', example: '' }]);
    expect(parseSourceFields({ PRICE: 'number', AYB: { type: 'number', example: 1910 } })).toEqual([
      { name: 'PRICE', type: 'number', description: '', example: '' },
      { name: 'AYB', type: 'number', description: '', example: '1910' },
    ]);
    expect(parseSourceFields(undefined)).toBeNull();
  });
});

describe('sourceRows', () => {
  it('cites each source and marks the synthetic one', () => {
    const rows = sourceRows([
      catalogItem({ fields: [{ name: 'owner', type: 'string' }] }),
      catalogItem({ source_id: 'plat_synthetic_characteristics', source: 'Plat synthetic sample (not a public record)', synthetic: true, records: 3977 }),
    ]);
    expect(rows[0]).toMatchObject({ sourceId: 'dc_otr_ownership', asOf: '2017-02-05', synthetic: false });
    expect(rows[0]?.fields).toHaveLength(1);
    expect(rows[0]?.citation.publisher).toBe('DC Office of Tax and Revenue');
    expect(rows[0]?.citation.sourceId).toBe('dc_otr_ownership');
    expect(rows[1]?.synthetic).toBe(true);
    expect(rows[1]?.fields).toBeNull();
    expect(sourceTotals(rows)).toEqual({ sources: 2, records: 22870, synthetic: 1, publishers: 2 });
  });
});

describe('noSourcesMessage', () => {
  it('names the place and says nothing is made up', () => {
    expect(noSourcesMessage('24031')).toMatch(/^No published sources for Montgomery County, MD/);
    expect(noSourcesMessage('24031')).toContain('nothing is shown rather than anything made up');
  });
});

describe('facet tables', () => {
  const items = [
    { area_uid: 'area_us_dc', note: 'OLD CITY II only.', records: 18893, name: 'Washington, DC', status: 'partial' },
    { area_uid: null, note: 'No Maryland records.', records: 0, name: 'Maryland', status: 'none', extra: ['a', 'b'] },
  ];

  it('puts the name, status and note first, the rest after, and knows numeric columns', () => {
    expect(facetColumns(items).map((c) => c.key)).toEqual(['name', 'status', 'records', 'note', 'area_uid', 'extra']);
    expect(facetColumns(items).find((c) => c.key === 'records')?.numeric).toBe(true);
    expect(facetColumns(items).find((c) => c.key === 'name')?.header).toBe('Name');
  });

  it('shows lists, objects and micro-USD amounts as a person reads them', () => {
    expect(cellText(['a', 'b'])).toBe('a, b');
    expect(cellText(null)).toBe('');
    expect(cellDisplay('price', { rule: 'per_call', micro_usd: 100000 })).toBe('rule: per_call · micro usd: $0.10');
    expect(cellDisplay('fields', [{ name: 'a' }, { name: 'b' }])).toBe('2 entries');
    expect(cellText([{ name: 'a' }])).toBe('[{"name":"a"}]');
    expect(cellDisplay('as_of', '2017-02-05T00:00:00Z')).toBe('2017-02-05');
    // A moment, in the reader's local time (shared/format-date.ts), never the raw ISO text.
    vi.stubEnv('TZ', 'America/Los_Angeles');
    try {
      expect(cellDisplay('as_of', '2017-02-05T00:00:00Z')).toBe('2017-02-05');
      expect(cellDisplay('served_at', '2017-02-05T10:30:00Z')).toBe('2017-02-05 02:30:00');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('cites a facet item that names its publisher', () => {
    expect(facetCitation({ publisher: 'DC Office of Tax and Revenue', captured_at: '2017-02-05T00:00:00Z' })?.asOf).toBe('2017-02-05T00:00:00Z');
    expect(facetCitation({ name: 'no publisher' })).toBeNull();
  });
});
