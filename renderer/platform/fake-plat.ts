// Test support (not part of the app): a stand-in for callPlat, for view tests that mock plat.ts.
// It records every call and answers the operations it is given; any other call fails.
import type * as PlatModule from './plat.ts';

export interface RecordedPlatCall {
  operation: string;
  request: unknown;
}

/** Answers by operation name, each from the request it was sent. */
export type FakePlatAnswers = Record<string, (request: unknown) => unknown>;

export function fakeCallPlat(calls: RecordedPlatCall[], answers: FakePlatAnswers) {
  return (operation: string, request: unknown): Promise<unknown> => {
    calls.push({ operation, request });
    const answer = answers[operation];
    if (answer) return Promise.resolve(answer(request));
    return Promise.reject(new Error(`unexpected call ${operation}`));
  };
}

/** plat.ts as it is, but for callPlat: the factory of a test's `vi.mock('…/platform/plat.ts', …)`. */
export async function fakePlatModule(importOriginal: () => Promise<typeof PlatModule>, calls: RecordedPlatCall[], answers: FakePlatAnswers) {
  return { ...(await importOriginal()), callPlat: fakeCallPlat(calls, answers) };
}

/** What previewCost says of an uncached call at a listed price that needs no confirmation. */
export function listedPrice(operation: string, expectedCostMicroUsd: number) {
  return { operation, expectedCostMicroUsd, basis: 'price_table', largestSeenMicroUsd: null, note: '', cached: false, needsConfirmation: false, blockedBy: null };
}

/**
 * What previewCost says of a call on a service that is not Plat's own before it has charged for it:
 * price not known, asked for first (largest charge seen: `largestSeenMicroUsd`, if any).
 */
export function unknownPrice(operation: string, largestSeenMicroUsd: number | null = null) {
  return {
    operation,
    expectedCostMicroUsd: null,
    basis: 'unknown',
    largestSeenMicroUsd,
    note: 'Price not known: no charge for it seen yet on this service.',
    cached: false,
    needsConfirmation: true,
    blockedBy: null,
  };
}

/** A fresh answer from the service (not cached, not replayed) carrying `data`, charged `chargedMicroUsd`. */
export function serviceAnswer(data: unknown, chargedMicroUsd: number) {
  return {
    envelope: { status: 'ok', data, meta: {} },
    billing: { chargedMicroUsd, cacheHit: false, replayed: false, servedAt: '2026-01-01T00:00:00.000Z' },
  };
}
