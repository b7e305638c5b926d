import { describe, expect, it, vi } from 'vitest';
import type { CallBilling } from '../../shared/ipc.ts';
import { PlatCallError } from '../platform/plat.ts';
import { describeDelivery, envelopeData } from './service-data.ts';

const billing = (overrides: Partial<CallBilling>): CallBilling => ({
  chargedMicroUsd: 0,
  replayed: false,
  cacheHit: false,
  servedAt: '2026-11-22T01:35:27.000Z',
  requestId: 'req_1',
  balanceMicroUsd: 24_880_000,
  attempts: 1,
  ...overrides,
});

describe('describeDelivery', () => {
  it('says when the answer was served in the reader’s local time, in Plat’s one date format', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    try {
      expect(describeDelivery(billing({}), { shownAgain: false }).servedAt).toBe('2026-11-21 17:35:27');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says what a fresh purchase cost', () => {
    expect(describeDelivery(billing({ chargedMicroUsd: 100_000 }), { shownAgain: false })).toMatchObject({
      tone: 'charged',
      headline: 'Bought for $0.10',
      detail: null,
    });
  });

  it('says a cache hit or a re-shown answer cost nothing now, and what it first cost', () => {
    expect(describeDelivery(billing({ cacheHit: true }), { shownAgain: false })).toMatchObject({ tone: 'free', headline: 'From your cache — no charge' });
    expect(describeDelivery(billing({ chargedMicroUsd: 100_000 }), { shownAgain: true })).toMatchObject({
      tone: 'free',
      headline: 'From your cache — no charge',
      detail: 'first bought for $0.10',
    });
  });

  it('says a replay was free, and a free call was free', () => {
    expect(describeDelivery(billing({ replayed: true }), { shownAgain: false }).headline).toBe('Replayed free');
    expect(describeDelivery(billing({}), { shownAgain: false }).headline).toBe('Free');
  });
});

describe('envelopeData', () => {
  it('returns the data of a successful envelope', () => {
    expect(envelopeData({ status: 'ok', data: { items: [] } })).toEqual({ items: [] });
  });

  it('turns an error envelope into a PlatCallError with the catalogue code', () => {
    const read = () => envelopeData({ status: 'error', data: null, error: { code: 'not_found', message: 'No entity x.', retryable: false } });
    expect(read).toThrow(PlatCallError);
    try {
      read();
    } catch (error) {
      expect((error as PlatCallError).error.code).toBe('not_found');
      expect((error as PlatCallError).error.message).toContain('No entity x.');
    }
  });
});
