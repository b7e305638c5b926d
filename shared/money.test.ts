import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addMicroUsd,
  formatUsd,
  MicroUsdHeaderSchema,
  MicroUsdSchema,
  microUsdFromDollars,
  parseUsd,
  safeParseUsd,
  SignedMicroUsdSchema,
} from './money.ts';

describe('MicroUsdSchema', () => {
  it('accepts non-negative integers and refuses fractions, negatives and unsafe integers', () => {
    expect(MicroUsdSchema.parse(100_000)).toBe(100_000);
    expect(MicroUsdSchema.safeParse(0.5).success).toBe(false);
    expect(MicroUsdSchema.safeParse(-1).success).toBe(false);
    expect(MicroUsdSchema.safeParse(2 ** 53).success).toBe(false);
  });

  it('has a signed variant for deltas', () => {
    expect(SignedMicroUsdSchema.parse(-5_000)).toBe(-5_000);
    expect(SignedMicroUsdSchema.safeParse(-0.5).success).toBe(false);
  });

  it('reads the money headers as digits only', () => {
    expect(MicroUsdHeaderSchema.parse('100000')).toBe(100_000);
    for (const bad of ['', '-5', '1e5', '10.5', ' 5', '0x10']) {
      expect(MicroUsdHeaderSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('microUsdFromDollars', () => {
  it('converts without float drift', () => {
    expect(microUsdFromDollars(0.1)).toBe(100_000);
    expect(microUsdFromDollars(0.3)).toBe(300_000);
    expect(microUsdFromDollars(1.25)).toBe(1_250_000);
    expect(microUsdFromDollars(0.0042)).toBe(4_200);
    expect(microUsdFromDollars(-0.15)).toBe(-150_000);
    expect(microUsdFromDollars(0.0000004)).toBe(0);
  });

  it('refuses non-finite and too-large amounts', () => {
    expect(() => microUsdFromDollars(Number.NaN)).toThrow(RangeError);
    expect(() => microUsdFromDollars(Infinity)).toThrow(RangeError);
    expect(() => microUsdFromDollars(1e12)).toThrow(RangeError);
  });
});

describe('formatUsd', () => {
  it('shows whole cents with two decimals', () => {
    expect(formatUsd(100_000)).toBe('$0.10');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(250_000)).toBe('$0.25');
    expect(formatUsd(1_250_000_000)).toBe('$1,250.00');
  });

  it('shows amounts under a cent with the digits they need', () => {
    expect(formatUsd(4_200)).toBe('$0.0042');
    expect(formatUsd(5_000)).toBe('$0.005');
    expect(formatUsd(1)).toBe('$0.000001');
    expect(formatUsd(1_234_567)).toBe('$1.234567');
  });

  it('puts a minus sign before negative amounts', () => {
    expect(formatUsd(-100_000)).toBe('-$0.10');
    expect(formatUsd(-4_200)).toBe('-$0.0042');
  });

  it('rounds half away from zero to a fixed precision', () => {
    expect(formatUsd(1_234_567, { precision: 2 })).toBe('$1.23');
    expect(formatUsd(1_235_000, { precision: 2 })).toBe('$1.24');
    expect(formatUsd(-1_235_000, { precision: 2 })).toBe('-$1.24');
    expect(formatUsd(999_999_999, { precision: 0 })).toBe('$1,000');
    expect(formatUsd(4_000, { precision: 2 })).toBe('$0.00');
    expect(formatUsd(-4_000, { precision: 2 })).toBe('$0.00');
  });

  it('refuses non-integer amounts and bad precision', () => {
    expect(() => formatUsd(0.5)).toThrow(RangeError);
    expect(() => formatUsd(1, { precision: 7 })).toThrow(RangeError);
  });
});

describe('parseUsd', () => {
  it('reads amounts as people write them', () => {
    expect(parseUsd('1.25')).toBe(1_250_000);
    expect(parseUsd('$0.10')).toBe(100_000);
    expect(parseUsd(' $1,250.00 ')).toBe(1_250_000_000);
    expect(parseUsd('0.0042')).toBe(4_200);
    expect(parseUsd('.5')).toBe(500_000);
    expect(parseUsd('-$0.10')).toBe(-100_000);
    expect(parseUsd('$-0.10')).toBe(-100_000);
    expect(parseUsd('7')).toBe(7_000_000);
  });

  it('refuses what is not an exact dollar amount', () => {
    for (const bad of ['', '$', '-', 'abc', '1.2.3', '1,25', '1.', '0.0000001', '--1', '-$-1', '1e3', '12,34,567']) {
      expect(safeParseUsd(bad).ok, bad).toBe(false);
      expect(() => parseUsd(bad), bad).toThrow(RangeError);
    }
    expect(safeParseUsd('99999999999').ok).toBe(false);
  });

  it('round-trips every amount through formatUsd', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (micro) => {
        expect(parseUsd(formatUsd(micro))).toBe(micro);
      }),
    );
  });
});

describe('addMicroUsd', () => {
  it('adds exactly and refuses to leave the exact range', () => {
    expect(addMicroUsd(100_000, 20_000, -5_000)).toBe(115_000);
    expect(() => addMicroUsd(Number.MAX_SAFE_INTEGER, 1)).toThrow(RangeError);
    expect(() => addMicroUsd(0.5)).toThrow(RangeError);
  });
});
