// A service that misreports money (issue 19, item 4): the balance drop is the truth. Real gateway,
// client, ledger and cache against the local service, whose answers a fetch-shaped transport
// rewrites the way a misreporting service would send them: an inflated, negative or garbage charge
// header, a charge header on a failed call, and a 200 whose body is off the contract.
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from './service-client/index.ts';
import { buildTestGateway, failureOf, useLocalService } from './gateway-test-kit.ts';
import { adjustmentRows } from './ledger/ledger-test-kit.ts';
import { startSecondService, type SecondServiceOptions } from '../local-service/second-service-kit.ts';

const local = useLocalService();
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** How the fake service rewrites an answer of the local service to the requests `applies` picks. */
type Rewrite = (answer: { status: number; headers: Headers; body: string }) => { status?: number; headers?: Headers; body?: string };

function build(applies: (url: string) => boolean, rewrite: Rewrite | (() => Rewrite | null)) {
  const transport: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const pick = rewrite.length === 0 ? (rewrite as () => Rewrite | null)() : (rewrite as Rewrite);
    if (!applies(String(input)) || pick === null) return response;
    const answer = { status: response.status, headers: new Headers(response.headers), body: await response.text() };
    const changed = { ...answer, ...pick(answer) };
    return new Response(changed.body, { status: changed.status, headers: changed.headers });
  };
  const client = new ServiceClient({
    baseUrl: local.service.url,
    getApiKey: () => local.service.keys.active,
    sleep: async () => {},
    random: () => 0,
    transport,
  });
  const built = buildTestGateway({ client, sessionId: 'misreport', ledger: { secrets: () => [local.service.keys.active] } });
  cleanups.push(built.close);
  return built;
}

const balance = () => local.service.state.account('acct_active').balanceMicroUsd;
const { chargesFor, property } = local;

const UNKNOWN = 'prop_00000000-0000-4000-8000-000000000000';
const isSummary = (url: string) => url.includes('/summary');
const withChargeHeader =
  (value: string): Rewrite =>
  ({ headers }) => {
    headers.set('X-Svc-Charged-Micro-USD', value);
    return { headers };
  };

describe('a charge header the balance does not bear out', () => {
  it.each([
    ['inflated', '500000', 'disagrees', 500_000, null],
    ['negative', '-100000', 'unreadable', null, '-100000'],
    ['garbage', 'ten cents', 'unreadable', null, 'ten cents'],
  ] as const)('%s: books the balance drop on the call, marks the row, and the totals equal the drop', async (_label, header, check, reported, kept) => {
    const { gateway, ledger } = build(isSummary, withChargeHeader(header));
    await gateway.call({ operation: 'v4.catalog', parts: { query: {} } });
    const before = balance();
    const actionId = `misreport-${header.replace(/\W/g, '')}`;
    const answer = await gateway.call({ operation: 'v4.summary', parts: { path: { q_id: property(21) } }, actionId });
    const drop = before - balance();
    expect(chargesFor(`plat-${actionId}`)).toEqual([100_000]);
    expect(drop).toBe(100_000);
    // What the person is told it cost is what the balance fell by, not what the header said.
    expect(answer.billing.chargedMicroUsd).toBe(drop);
    const row = ledger.list({ limit: 10 }).find((entry) => entry.idempotencyKey === `plat-${actionId}`);
    expect(row).toMatchObject({ status: 'succeeded', chargedMicroUsd: reported, chargeHeader: kept, chargeCheck: check, totalChargeMicroUsd: drop });
    expect(ledger.exportCsv()).toContain(`its balance fell by $0.10: Plat booked $0.10`);
    expect(gateway.spend()).toMatchObject({ sessionMicroUsd: drop, todayMicroUsd: drop, allTimeMicroUsd: drop, allTimeNetMicroUsd: drop, allTimeCreditMicroUsd: 0 });
    expect(adjustmentRows(ledger)).toEqual([]);
  });

  it('books nothing for a charge header on a failed call whose balance did not move', async () => {
    const { gateway, ledger } = build(isSummary, withChargeHeader('100000'));
    await gateway.call({ operation: 'v4.catalog', parts: { query: {} } });
    const before = balance();
    // The service does not know this entity: a 404 it does not charge, with a header that says it did.
    const failure = await failureOf(gateway.call({ operation: 'v4.summary', parts: { path: { q_id: UNKNOWN } }, actionId: 'failed-with-header' }));
    expect(failure.platError.code).toBe('not_found');
    expect(balance()).toBe(before);
    const row = ledger.list({ limit: 10 }).find((entry) => entry.idempotencyKey === 'plat-failed-with-header');
    // The failure carried no balance: the gateway read it (a free call) so the row is measured now.
    expect(row).toMatchObject({ status: 'failed', httpStatus: 404, chargedMicroUsd: 100_000, chargeCheck: 'failed_call', reconciled: true, totalChargeMicroUsd: 0 });
    expect(gateway.spend()).toMatchObject({ allTimeMicroUsd: 0, allTimeNetMicroUsd: 0, allTimeCreditMicroUsd: 0 });
    expect(adjustmentRows(ledger)).toEqual([]);
  });
});

describe('a 200 whose body is off the contract', () => {
  /** The first summary answer arrives with its body broken (and, if asked, without its balance); later ones as sent. */
  function brokenOnce(options: { dropBalance: boolean }): () => Rewrite | null {
    let broken = false;
    return () => {
      if (broken) return null;
      return ({ headers, body }) => {
        broken = true;
        if (options.dropBalance) headers.delete('X-Svc-Balance-Micro-USD');
        const envelope = JSON.parse(body) as Record<string, unknown>;
        return { headers, body: JSON.stringify({ ...envelope, meta: 'not an object' }) };
      };
    };
  }

  it.each([
    ['with its balance', false],
    ['without a balance (read with a free call)', true],
  ] as const)('is a charged answer %s, shown as not read, and the retry under the same key is a free replay', async (_label, dropBalance) => {
    const { gateway, ledger } = build(isSummary, brokenOnce({ dropBalance }));
    const actionId = `unreadable-${String(dropBalance)}`;
    const parts = { path: { q_id: property(dropBalance ? 24 : 23) } };
    const failure = await failureOf(gateway.call({ operation: 'v4.summary', parts, actionId }));
    expect(failure.platError).toMatchObject({ code: 'charged_answer_unreadable', retryable: true });
    expect(failure.platError.message).toMatch(/^The service charged \$0\.10 for this call, but the service's answer could not be read: meta: .* — try again: the same request is replayed free$/);
    expect(chargesFor(`plat-${actionId}`)).toEqual([100_000]);
    const first = ledger.list({ limit: 10 }).find((entry) => entry.idempotencyKey === `plat-${actionId}`);
    // Never "succeeded": charged, and its answer could not be read.
    expect(first).toMatchObject({ status: 'failed', httpStatus: 200, errorCode: 'malformed_response', totalChargeMicroUsd: 100_000, reconciled: true });
    expect(ledger.exportCsv()).toContain('charged; the answer could not be read');

    const retry = await gateway.call({ operation: 'v4.summary', parts, actionId });
    expect((retry.envelope as { status: string }).status).toBe('ok');
    expect(retry.billing).toMatchObject({ chargedMicroUsd: 0, replayed: true });
    expect(chargesFor(`plat-${actionId}`)).toEqual([100_000]);
    expect(gateway.spend()).toMatchObject({ allTimeMicroUsd: 100_000, allTimeNetMicroUsd: 100_000 });
    expect(adjustmentRows(ledger)).toEqual([]);
  });

  it('asked again from another action, the same request replays the unreadable call\'s key, free', async () => {
    const { gateway } = build(isSummary, brokenOnce({ dropBalance: false }));
    const parts = { path: { q_id: property(25) } };
    expect((await failureOf(gateway.call({ operation: 'v4.summary', parts, actionId: 'unreadable-first' }))).platError.code).toBe('charged_answer_unreadable');
    const other = await gateway.call({ operation: 'v4.summary', parts, actionId: 'unreadable-other-tab' });
    expect(other.billing).toMatchObject({ chargedMicroUsd: 0, replayed: true });
    expect(chargesFor('plat-unreadable-first')).toEqual([100_000]);
    expect(chargesFor('plat-unreadable-other-tab')).toEqual([]);
  });
});

describe('headers of the wrong type everywhere', () => {
  it('shows the answer, reads the balance with a free call, and books the drop on the call: nothing lost, nothing internal', async () => {
    const { gateway, ledger } = build(isSummary, ({ headers }) => {
      headers.set('X-Svc-Charged-Micro-USD', 'NaN');
      headers.set('X-Svc-Balance-Micro-USD', 'lots');
      headers.set('X-Svc-Replayed', 'maybe');
      headers.set('X-RateLimit-Remaining', '-3');
      return { headers };
    });
    await gateway.call({ operation: 'v4.catalog', parts: { query: {} } });
    const before = balance();
    const answer = await gateway.call({ operation: 'v4.summary', parts: { path: { q_id: property(26) } }, actionId: 'wrong-types' });
    expect((answer.envelope as { status: string }).status).toBe('ok');
    expect(answer.billing).toMatchObject({ chargedMicroUsd: before - balance(), replayed: false, balanceMicroUsd: null });
    const row = ledger.list({ limit: 10 }).find((entry) => entry.idempotencyKey === 'plat-wrong-types');
    expect(row).toMatchObject({ status: 'succeeded', chargeHeader: 'NaN', chargeCheck: 'unreadable', reconciled: true, totalChargeMicroUsd: 100_000 });
    expect(gateway.spend()).toMatchObject({ allTimeMicroUsd: 100_000, allTimeNetMicroUsd: before - balance() });
    expect(adjustmentRows(ledger)).toEqual([]);
  });
});

describe('against the second service with its misreport flags', () => {
  async function secondGateway(options: SecondServiceOptions) {
    const second = await startSecondService(options);
    cleanups.push(() => void second.close());
    const client = new ServiceClient({ baseUrl: second.url, getApiKey: () => second.keys.active, sleep: async () => {}, random: () => 0 });
    const built = buildTestGateway({ client, connectionId: 'second', sessionId: 'second', ledger: { secrets: () => [second.keys.active] } });
    cleanups.unshift(built.close);
    await built.gateway.call({ operation: 'v4.catalog', parts: { query: {} } });
    return { second, ...built };
  }

  it.each(['inflated', 'negative', 'garbage', 'on-failure'] as const)(
    '--charge-header %s: the ledger equals the balance drop to the micro-dollar, every lie marked',
    async (mode) => {
      const { second, gateway, ledger } = await secondGateway({ dialect: 'independent', chargeHeader: mode });
      const start = second.balance();
      for (const offset of [31, 32, 33]) {
        await gateway.call({ operation: 'v4.summary', parts: { path: { q_id: property(offset) } }, actionId: `${mode}-${offset}` });
        // A failure the service does not charge (on-failure: it claims to).
        await failureOf(gateway.call({ operation: 'v4.summary', parts: { path: { q_id: UNKNOWN.replace(/0$/, String(offset % 10)) } }, actionId: `${mode}-missing-${offset}` }));
      }
      const drop = start - second.balance();
      expect(drop).toBe(300_000);
      expect(gateway.spend()).toMatchObject({ allTimeMicroUsd: drop, allTimeNetMicroUsd: drop, allTimeCreditMicroUsd: 0 });
      const calls = ledger.list({ limit: 100 }).filter((entry) => entry.operation === 'v4.summary');
      expect(calls.filter((entry) => entry.status === 'succeeded').map((entry) => entry.totalChargeMicroUsd)).toEqual([100_000, 100_000, 100_000]);
      expect(calls.filter((entry) => entry.status === 'failed').map((entry) => entry.totalChargeMicroUsd)).toEqual([0, 0, 0]);
      const marked = calls.filter((entry) => entry.chargeCheck !== null).map((entry) => entry.chargeCheck);
      expect(marked).toEqual(mode === 'on-failure' ? ['failed_call', 'failed_call', 'failed_call'] : mode === 'inflated' ? ['disagrees', 'disagrees', 'disagrees'] : ['unreadable', 'unreadable', 'unreadable']);
      expect(adjustmentRows(ledger)).toEqual([]);
    },
  );

  it('--invalid-body-every 2: the broken answers are charged, shown as not read, and their retries are free replays', async () => {
    const { second, gateway, ledger } = await secondGateway({ dialect: 'independent', invalidBodyEvery: 2 });
    const start = second.balance();
    const outcomes: string[] = [];
    for (const offset of [41, 42, 43, 44]) {
      const parts = { path: { q_id: property(offset) } };
      const actionId = `broken-${offset}`;
      const first = await gateway.call({ operation: 'v4.summary', parts, actionId }).then(
        () => null,
        (error: unknown) => error,
      );
      if (first === null) {
        outcomes.push('ok');
        continue;
      }
      expect(first).toMatchObject({ platError: { code: 'charged_answer_unreadable', retryable: true } });
      outcomes.push('unreadable');
      const retry = await gateway.call({ operation: 'v4.summary', parts, actionId });
      expect(retry.billing).toMatchObject({ chargedMicroUsd: 0, replayed: true });
    }
    expect(outcomes).toEqual(['ok', 'unreadable', 'ok', 'unreadable']);
    const drop = start - second.balance();
    expect(drop).toBe(400_000);
    expect(gateway.spend()).toMatchObject({ allTimeMicroUsd: drop, allTimeNetMicroUsd: drop });
    const unread = ledger.list({ limit: 100 }).filter((entry) => entry.status === 'failed' && entry.httpStatus === 200);
    expect(unread.map((entry) => [entry.errorCode, entry.totalChargeMicroUsd])).toEqual([
      ['malformed_response', 100_000],
      ['malformed_response', 100_000],
    ]);
    expect(adjustmentRows(ledger)).toEqual([]);
  });
});
