import { describe, expect, it } from 'vitest';
import { drivesNumbers, syntheticAcceptanceFor } from './synthetic-use.ts';
import { comparableSale, subjectProperty } from './test-kit.ts';

const at = '2026-11-27T12:00:00.000Z';

describe('drivesNumbers', () => {
  const copied = comparableSale({ id: 'c1', address: '1 A St NW', saleDate: '2016-06-01', priceDollars: 900_000, gla: 1_800, bedrooms: 3 });
  const published = subjectProperty({ id: 's', address: '2 B St NW', gla: 1_700, bedrooms: 3 });

  it('lets a published value drive numbers and holds a copied one back until accepted', () => {
    expect(drivesNumbers(published, 'gla', {})).toBe(true);
    expect(drivesNumbers(copied, 'gla', {})).toBe(false);
    expect(drivesNumbers(copied, 'gla', { syntheticAccepted: [] })).toBe(false);
  });

  it('takes an acceptance for this comp, or for the whole grid, in that row only', () => {
    const forComp = { syntheticAccepted: [{ row: 'gla' as const, compId: 'c1', reason: 'Checked the listing', at }] };
    expect(drivesNumbers(copied, 'gla', forComp)).toBe(true);
    expect(drivesNumbers(copied, 'bedrooms', forComp)).toBe(false);
    const otherComp = { syntheticAccepted: [{ row: 'gla' as const, compId: 'c2', reason: 'Checked', at }] };
    expect(drivesNumbers(copied, 'gla', otherComp)).toBe(false);
    const wholeGrid = { syntheticAccepted: [{ row: 'bedrooms' as const, compId: null, reason: 'Typical of the block', at }] };
    expect(drivesNumbers(copied, 'bedrooms', wholeGrid)).toBe(true);
    expect(syntheticAcceptanceFor(wholeGrid, 'bedrooms', 'c1')?.reason).toBe('Typical of the block');
  });
});
