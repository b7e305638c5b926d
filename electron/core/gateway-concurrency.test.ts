// The gateway under many calls at once, against the real local service: caps hold for calls sent
// together, identical requests in flight are bought once, and a burst of free calls neither starves a
// paid one nor keeps running for a page that has gone. Every charge is checked against the service's
// own charges table.
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from './service-client/index.ts';
import { FREE_CALLS_IN_PARALLEL, type GatewayAnswer, type GatewayCall } from './service-gateway.ts';
import { buildTestGateway, useLocalService } from './gateway-test-kit.ts';
import { PlatFailure } from './failure.ts';

const local = useLocalService();
let entityIds: string[];

beforeAll(() => {
  entityIds = [0, 100].flatMap((offset) => local.store.searchProperties({ areaUid: 'area_us_dc', limit: 100, offset }).items.map((p) => p.entity_id));
});

const SUMMARY = 100_000;

/** Each gateway gets its own account on the service (a seeded key per role is shared, so count from a mark). */
function serviceCharges(since: number) {
  const account = local.service.state.accountOfKey(local.service.keys.active)!;
  return local.service.state.charges(account.id).slice(since);
}
const chargeMark = () => serviceCharges(0).length;

/** Action ids differ from one gateway to the next: a reused one would be a free replay at the service. */
let run = 0;

function buildGateway(budget: { sessionCapMicroUsd: number | null } = { sessionCapMicroUsd: null }) {
  /** Operation and summary id (or catalog source) of each request as it leaves, in order. */
  const sent: string[] = [];
  const client = new ServiceClient({
    baseUrl: local.service.url,
    getApiKey: () => local.service.keys.active,
    onAttempt: (event) => {
      if (event.phase === 'sending') sent.push(event.operation);
    },
  });
  const { close, ledger, projects, gateway } = buildTestGateway({ client, sessionId: 'concurrency', budget });
  run++;
  return { close, ledger, projects, gateway, sent };
}

const summary = (i: number, extra: Partial<GatewayCall> = {}): GatewayCall => ({
  operation: 'v4.summary',
  parts: { path: { q_id: entityIds[i]! } },
  actionId: `run${run}-summary-${i.toString().padStart(4, '0')}`,
  ...extra,
});

const settleAll = (calls: Array<Promise<GatewayAnswer>>) => Promise.allSettled(calls);
const codeOf = (result: PromiseSettledResult<unknown>) =>
  result.status === 'fulfilled' ? 'ok' : result.reason instanceof PlatFailure ? result.reason.platError.code : String(result.reason);

describe('caps hold for calls sent at once', () => {
  for (const count of [20, 200]) {
    it(`charges no more than a $0.50 session cap when ${count} different summaries are sent together`, { timeout: 60_000 }, async () => {
      const { ledger, gateway, close } = buildGateway({ sessionCapMicroUsd: 500_000 });
      const mark = chargeMark();
      const results = await settleAll(Array.from({ length: count }, (_, i) => gateway.call(summary(i))));
      const codes = results.map(codeOf);
      const charged = serviceCharges(mark).reduce((sum, row) => sum + row.amountMicroUsd, 0);
      console.log(`${count} concurrent summaries, $0.50 cap: ${codes.filter((c) => c === 'ok').length} answered, service charged ${charged} µUSD`);
      expect(codes.filter((c) => c === 'ok')).toHaveLength(5);
      expect(codes.filter((c) => c === 'budget_exceeded')).toHaveLength(count - 5);
      expect(charged).toBe(500_000);
      expect(ledger.totals({ sessionId: 'concurrency' }).sessionMicroUsd).toBe(500_000);
      close();
    });
  }

  it("holds a project's cap the same way, and the preview counts the calls still running", async () => {
    const { gateway, projects, close } = buildGateway();
    const project = projects.create({ name: 'Elm St appraisal', spendingCapMicroUsd: 300_000 });
    projects.setActiveProjectId(project.id);
    const mark = chargeMark();
    const running = Array.from({ length: 3 }, (_, i) => gateway.call(summary(20 + i)));
    // Three summaries are on their way: the cap is taken, though nothing is charged yet.
    const preview = gateway.preview('v4.summary', summary(30).parts);
    expect(preview.blockedBy).toMatchObject({ cap: 'project', capMicroUsd: 300_000, spentMicroUsd: 0 });
    expect(preview.blockedBy?.message).toContain('$0.30 of it for calls still running');
    const late = await settleAll([...running, gateway.call(summary(30)), gateway.call(summary(31))]);
    expect(late.map(codeOf)).toEqual(['ok', 'ok', 'ok', 'budget_exceeded', 'budget_exceeded']);
    expect(serviceCharges(mark).reduce((sum, row) => sum + row.amountMicroUsd, 0)).toBe(300_000);
    // Settled: nothing is reserved any more, and the preview shows what was really spent.
    expect(gateway.preview('v4.summary', summary(30).parts).blockedBy).toMatchObject({ spentMicroUsd: 300_000 });
    expect(gateway.preview('v4.summary', summary(30).parts).blockedBy?.message).not.toContain('still running');
    close();
  });
});

describe('identical requests in flight', () => {
  it('are bought once: five identical summaries at once cost one charge, the other four are cache hits', async () => {
    const { ledger, gateway, close } = buildGateway();
    const mark = chargeMark();
    // Two tabs and a double click: each its own action.
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => gateway.call({ ...summary(40), actionId: `run${run}-same-summary-${i}` })));
    expect(serviceCharges(mark).map((row) => row.amountMicroUsd)).toEqual([SUMMARY]);
    expect(answers.map((answer) => answer.billing.chargedMicroUsd).sort()).toEqual([0, 0, 0, 0, SUMMARY]);
    expect(answers.filter((answer) => answer.billing.cacheHit)).toHaveLength(4);
    const envelopes = new Set(answers.map((answer) => JSON.stringify(answer.envelope)));
    expect(envelopes.size).toBe(1);
    const rows = ledger.list({ limit: 100 }).filter((row) => row.operation === 'v4.summary');
    expect(rows.filter((row) => row.totalChargeMicroUsd > 0)).toHaveLength(1);
    expect(rows.filter((row) => row.cacheHit)).toHaveLength(4);
    // The followers' rows cite the answer they were given.
    const bought = rows.find((row) => row.totalChargeMicroUsd > 0)!;
    expect(new Set(rows.filter((row) => row.cacheHit).map((row) => row.requestId))).toEqual(new Set([bought.requestId]));
    close();
  });

  it('a refresh buys its own answer, and a plain request asked meanwhile shares it', async () => {
    const { gateway, close } = buildGateway();
    const mark = chargeMark();
    const [first, second, plain] = await Promise.all([
      gateway.call({ ...summary(41), actionId: `run${run}-refresh-one`, refresh: true }),
      gateway.call({ ...summary(41), actionId: `run${run}-refresh-two`, refresh: true }),
      gateway.call({ ...summary(41), actionId: `run${run}-plain-one` }),
    ]);
    // Two people asked to buy it again: two purchases, as asked.
    expect(serviceCharges(mark).map((row) => row.amountMicroUsd)).toEqual([SUMMARY, SUMMARY]);
    expect([first!.billing.chargedMicroUsd, second!.billing.chargedMicroUsd]).toEqual([SUMMARY, SUMMARY]);
    expect(plain!.billing).toMatchObject({ chargedMicroUsd: 0, cacheHit: true, requestId: second!.billing.requestId });
    close();
  });

  it('go on for the callers still waiting when the first caller\'s page goes', async () => {
    const { gateway, close } = buildGateway();
    const mark = chargeMark();
    // Something else holds the queue so both are still waiting when the first page goes.
    const ahead = gateway.call(summary(42));
    const page = new AbortController();
    const first = gateway.call({ ...summary(43), signal: page.signal });
    const second = gateway.call({ ...summary(43), actionId: `run${run}-second-tab-43` });
    page.abort();
    await expect(first).rejects.toMatchObject({ platError: { code: 'cancelled' } });
    // Bought once (on the first caller's row), and given to the second tab free.
    expect((await second).billing).toMatchObject({ chargedMicroUsd: 0, cacheHit: true });
    await ahead;
    expect(serviceCharges(mark).map((row) => row.amountMicroUsd)).toEqual([SUMMARY, SUMMARY]);
    close();
  });
});

describe('a burst of free calls', () => {
  it('does not hold back a paid call, and is dropped unsent when its page goes', { timeout: 60_000 }, async () => {
    const { ledger, gateway, sent, close } = buildGateway();
    const page = new AbortController();
    // 2,000 different free catalog requests with no user action behind them.
    const burst = Array.from({ length: 2000 }, (_, i) =>
      gateway.call({ operation: 'v4.catalog', parts: { query: { source_id: `burst_${i}` } }, signal: page.signal }),
    );
    const burstSettled = settleAll(burst);
    const mark = chargeMark();
    const paid = await gateway.call(summary(50));
    expect(paid.billing.chargedMicroUsd).toBe(SUMMARY);
    expect(serviceCharges(mark)).toHaveLength(1);
    // Sent after at most the free calls already in flight (and the baseline catalog call the first
    // charge needs), not after the backlog.
    const summaryAt = sent.indexOf('v4.summary');
    expect(summaryAt).toBeGreaterThanOrEqual(0);
    expect(summaryAt).toBeLessThanOrEqual(FREE_CALLS_IN_PARALLEL + 1);

    page.abort();
    const results = await burstSettled;
    const cancelled = results.filter((result) => codeOf(result) === 'cancelled').length;
    const catalogsSent = sent.filter((operation) => operation === 'v4.catalog').length;
    // Only the calls already given a slot were sent; the rest were dropped without a request.
    expect(catalogsSent).toBeLessThanOrEqual(2 * FREE_CALLS_IN_PARALLEL + 1);
    expect(cancelled).toBeGreaterThanOrEqual(2000 - 2 * FREE_CALLS_IN_PARALLEL);
    // Dropped calls leave nothing in the ledger.
    expect(ledger.list({ limit: 10_000 }).filter((row) => row.operation === 'v4.catalog').length).toBe(catalogsSent);
    close();
  });

  it('of 2,000 identical free calls sends one request', { timeout: 60_000 }, async () => {
    const { ledger, gateway, sent, close } = buildGateway();
    const answers = await Promise.all(Array.from({ length: 2000 }, () => gateway.call({ operation: 'v4.catalog', parts: { query: { jurisdiction: '11001' } } })));
    expect(sent).toEqual(['v4.catalog']);
    expect(answers.filter((answer) => answer.billing.cacheHit)).toHaveLength(1999);
    expect(ledger.list({ limit: 10_000 }).filter((row) => row.cacheHit)).toHaveLength(1999);
    close();
  });

  it('leaves a call already sent to finish when its page goes, and books its charge', async () => {
    const { ledger, gateway, close } = buildGateway();
    const page = new AbortController();
    const mark = chargeMark();
    const call = gateway.call({ ...summary(51), signal: page.signal });
    // Wait until the request has left.
    while (ledger.list({ limit: 10 }).every((row) => row.operation !== 'v4.summary')) await new Promise((resolve) => setImmediate(resolve));
    page.abort();
    expect((await call).billing.chargedMicroUsd).toBe(SUMMARY);
    expect(serviceCharges(mark)).toHaveLength(1);
    expect(ledger.list({ limit: 10 }).find((row) => row.operation === 'v4.summary')).toMatchObject({ status: 'succeeded', totalChargeMicroUsd: SUMMARY });
    close();
  });

  it('a call whose page has already gone costs nothing and sends nothing', async () => {
    const { gateway, sent, close } = buildGateway();
    const page = new AbortController();
    page.abort();
    await expect(gateway.call({ ...summary(52), signal: page.signal })).rejects.toMatchObject({ platError: { code: 'cancelled' } });
    expect(sent).toEqual([]);
    close();
  });
});
