import { describe, expect, it } from 'vitest';
import { nothingFoundChargeWords } from './charge-words.ts';

describe('nothingFoundChargeWords', () => {
  it('says what the call was charged, and that nothing was only when its charge was 0', () => {
    expect(nothingFoundChargeWords({ chargedMicroUsd: 10_000 }, 'the lookup')).toBe('Matched nothing; the service charged $0.01 for the lookup.');
    expect(nothingFoundChargeWords({ chargedMicroUsd: 0 }, 'the search')).toBe('Nothing was charged for the search.');
    expect(nothingFoundChargeWords({ chargedMicroUsd: 0, cacheHit: true }, 'the search')).toBe('Shown again from what Plat holds: nothing was charged.');
  });

  it('says nothing about money when the charge is not known', () => {
    expect(nothingFoundChargeWords({}, 'the search')).toBeNull();
  });
});
