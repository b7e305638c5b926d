// Prices Plat does not know: the gateway on a live connection to a service that charges its own prices
// (the independent dialect's: a v4 search page $0.025, a subject report $0.30, a resolution $0.01 per
// call, a relationship lookup $0.005, an entity $0.002). Real gateway, client, ledger and cache, over
// the local service's HTTP layer (auth, billing, replays) with fake operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceOperationName } from '../../shared/service/index.ts';
import type { LocalOperation } from '../local-service/operation.ts';
import { startTestService, stopTestService, type TestService } from '../local-service/test-harness.ts';
import { fakeOperations, fakeStore, newFixture, OTHER_QID, QID, type Fixture } from './service-client/test-kit.ts';
import { ServiceClient } from './service-client/index.ts';
import type { GatewayCall } from './service-gateway.ts';
import { buildTestGateway, failureOf } from './gateway-test-kit.ts';
import { EMBEDDED_CONNECTION_ID } from './cost-estimator.ts';

const LIVE = 'live:https://independent.example.test';

/** The independent dialect's prices, micro-USD per call (a search page with results). */
const INDEPENDENT_PRICES: Partial<Record<ServiceOperationName, number>> = {
  'v4.search': 25_000,
  'v2.resolveEntities': 10_000,
  'v2.traverseRelationships': 5_000,
  'v2.getEntity': 2_000,
  'v2.getCatalog': 0,
};
const SUBJECT_REPORT_PRICE = 300_000;

/** The fake operations, charging as the independent service does. */
function independentOperations(fixture: Fixture): LocalOperation[] {
  return fakeOperations(fixture).map((operation) => ({
    ...operation,
    handle: (request, context) => {
      const result = operation.handle(request, context);
      const name = operation.name as ServiceOperationName;
      if (name === 'v3.recordQuery' && (request.body as { mode?: string }).mode === 'report') return { ...result, charge: SUBJECT_REPORT_PRICE };
      const price = INDEPENDENT_PRICES[name];
      return price === undefined ? result : { ...result, charge: price };
    },
  }));
}

let svc: TestService;
let fixture: Fixture;
beforeAll(async () => {
  fixture = newFixture();
  svc = await startTestService({ operations: independentOperations(fixture), store: fakeStore });
});
afterAll(async () => {
  await stopTestService(svc);
});

function build(options: { connectionId?: string; budget?: Parameters<typeof buildTestGateway>[0]['budget'] } = {}) {
  return buildTestGateway({
    client: new ServiceClient({ baseUrl: svc.url, getApiKey: () => svc.keys.active }),
    connectionId: options.connectionId ?? LIVE,
    sessionId: 'prices',
    ...(options.budget ? { budget: options.budget } : {}),
  });
}

const runs = (name: ServiceOperationName) => fixture.runs.get(name) ?? 0;
let page = 0;
/** A v4 search page not asked before (so never a cache hit). */
const searchCall = (extra: Partial<GatewayCall> = {}): GatewayCall => ({
  operation: 'v4.search',
  parts: { query: { jurisdiction: '11001', kind: 'sale', limit: 10, cursor: `page-${page++}` } },
  actionId: `search-page-${page}`,
  ...extra,
});

/** One call of each priced operation; `i` makes a request not asked before. */
const calls: Array<{ label: string; call: (i: number) => GatewayCall; charged: number }> = [
  { label: 'a search page', call: () => searchCall(), charged: 25_000 },
  {
    label: 'a subject report',
    call: (i) => ({ operation: 'v3.recordQuery', parts: { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: `prop_${i}` } }, actionId: `subject-report-${i}` }),
    charged: SUBJECT_REPORT_PRICE,
  },
  {
    label: 'a resolution',
    call: (i) => ({ operation: 'v2.resolveEntities', parts: { body: { items: [{ client_id: 'c1', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: `0065 000${i}` }] }] } }, actionId: `resolve-${i}` }),
    charged: 10_000,
  },
  { label: 'a relationship lookup', call: (i) => ({ operation: 'v2.traverseRelationships', parts: { path: { entity_ref: `prop_${i}` } }, actionId: `links-${i}` }), charged: 5_000 },
  { label: 'an entity', call: (i) => ({ operation: 'v2.getEntity', parts: { path: { entity_ref: `prop_${i}` } }, actionId: `entity-${i}` }), charged: 2_000 },
  { label: 'a summary', call: (i) => ({ operation: 'v4.summary', parts: { path: { q_id: i === 1 ? QID : OTHER_QID } }, actionId: `summary-${i}` }), charged: 100_000 },
];

describe("prices on a service that is not Plat's own", () => {
  it('never quotes a price the service did not charge: each is the spec’s, learnt from its charge, or "not known"', async () => {
    const { gateway, close } = build();
    try {
      let quoted = 0;
      let charged = 0;
      for (const { label, call, charged: price } of calls) {
        const request = call(1);
        const before = gateway.preview(request.operation, request.parts);
        // Plat's own table would say $0.02, $0.25, $0.005, free and free: wrong here.
        if (before.expectedCostMicroUsd !== null) expect([label, before.expectedCostMicroUsd]).toEqual([label, price]);
        const answer = await gateway.call({ ...request, confirmed: true });
        expect([label, answer.billing.chargedMicroUsd]).toEqual([label, price]);
        quoted += before.expectedCostMicroUsd ?? 0;
        charged += answer.billing.chargedMicroUsd;
        // Learnt: the next one is quoted at what this one cost ("about $X, from your last call").
        const next = call(2);
        const after = gateway.preview(next.operation, next.parts);
        expect([label, after.expectedCostMicroUsd, after.largestSeenMicroUsd]).toEqual([label, price, price]);
      }
      // Only the summary was quoted beforehand (the spec's price), and it is what was charged.
      expect(quoted).toBe(100_000);
      expect(charged).toBe(442_000);
    } finally {
      close();
    }
  });

  it('says which basis each price has: the spec, the last call, or not known', () => {
    const { gateway, close } = build();
    try {
      expect(gateway.preview('v4.summary', { path: { q_id: QID } })).toMatchObject({ expectedCostMicroUsd: 100_000, basis: 'spec', largestSeenMicroUsd: null });
      expect(gateway.preview('v4.catalog', { query: {} })).toMatchObject({ expectedCostMicroUsd: 0, basis: 'spec', needsConfirmation: false });
      expect(gateway.preview('v2.traverseRelationships', { path: { entity_ref: 'prop_1' } })).toMatchObject({
        expectedCostMicroUsd: null,
        basis: 'unknown',
        largestSeenMicroUsd: null,
        needsConfirmation: true,
        blockedBy: null,
      });
    } finally {
      close();
    }
  });

  it('refuses before sending a $0.025 search under a $0.02 session cap, once its price is learnt', async () => {
    const { gateway, budgets, close } = build();
    try {
      await gateway.call(searchCall({ confirmed: true }));
      budgets.update({ sessionCapMicroUsd: 25_000 + 20_000 });
      const sent = runs('v4.search');
      const call = searchCall();
      expect(gateway.preview(call.operation, call.parts).blockedBy).toMatchObject({ cap: 'session', capMicroUsd: 45_000 });
      const refusal = await failureOf(gateway.call(call));
      expect(refusal.platError.code).toBe('budget_exceeded');
      expect(refusal.message).toBe('This search page costs about $0.025 (what your last call cost), which would take this session to $0.05, over its $0.045 cap. Raise the cap in Settings to continue.');
      expect(runs('v4.search')).toBe(sent);
    } finally {
      close();
    }
  });

  it('refuses before sending the first search under a $0.02 session cap (it would charge $0.025): its price is not known and less than the bound remains', async () => {
    const { gateway, budgets, ledger, close } = build({ budget: { sessionCapMicroUsd: 20_000 } });
    try {
      const sent = runs('v4.search');
      const refusal = await failureOf(gateway.call(searchCall({ confirmed: true })));
      expect(refusal.platError.code).toBe('budget_exceeded');
      expect(refusal.message).toContain('The price of this search page is not known, and this session has $0.02 left of its $0.02 cap');
      expect(runs('v4.search')).toBe(sent);
      expect(ledger.totals({ sessionId: 'prices' }).sessionMicroUsd).toBe(0);
      // A bound the person lowered lets it through; what it cost is then known.
      budgets.update({ unknownPriceBoundMicroUsd: 20_000 });
      const answer = await gateway.call(searchCall({ confirmed: true }));
      expect(answer.billing.chargedMicroUsd).toBe(25_000);
    } finally {
      close();
    }
  });

  it('asks first for a call whose price is not known, even with no confirmation threshold, and sends nothing until then', async () => {
    const { gateway, ledger, close } = build();
    try {
      const sent = runs('v2.traverseRelationships');
      const request: GatewayCall = { operation: 'v2.traverseRelationships', parts: { path: { entity_ref: 'prop_2' } } };
      const asked = await failureOf(gateway.call(request));
      expect(asked.platError.code).toBe('confirmation_required');
      expect(asked.message).toBe("This relationship lookup's price is not known; no charge for it seen yet. Confirm to buy it.");
      expect(runs('v2.traverseRelationships')).toBe(sent);

      const answer = await gateway.call({ ...request, confirmed: true, actionId: 'links-confirmed' });
      expect(answer.billing.chargedMicroUsd).toBe(5_000);
      // Booked as a call that can charge: written ahead, measured against the balance.
      expect(ledger.list({ limit: 1 })[0]).toMatchObject({ operation: 'v2.traverseRelationships', status: 'succeeded', totalChargeMicroUsd: 5_000, priceKnown: false });
      // Its expected cost is the bound it was counted at, never shown as a price quoted.
      expect(ledger.exportCsv({})).toContain('price not known (counted at up to $1.00 against the caps)');
      // Known now, and under no threshold: not asked again.
      const next = { path: { entity_ref: 'prop_3' } };
      expect(gateway.preview('v2.traverseRelationships', next)).toMatchObject({ expectedCostMicroUsd: 5_000, basis: 'last_observed', needsConfirmation: false });
    } finally {
      close();
    }
  });

  it('learns that an operation is free from a fresh answer with results charged nothing: it then runs without asking', async () => {
    const { gateway, close } = build();
    try {
      const request = (facet: string): GatewayCall => ({ operation: 'v2.getCatalog', parts: { query: { facet } }, actionId: `catalog-${facet}` });
      expect(gateway.preview('v2.getCatalog', request('coverage').parts)).toMatchObject({ expectedCostMicroUsd: null, basis: 'unknown', needsConfirmation: true });
      const answer = await gateway.call({ ...request('coverage'), confirmed: true });
      expect(answer.billing.chargedMicroUsd).toBe(0);
      expect(gateway.preview('v2.getCatalog', request('sources').parts)).toMatchObject({ expectedCostMicroUsd: 0, basis: 'last_observed', needsConfirmation: false, blockedBy: null });
      await gateway.call(request('sources'));
    } finally {
      close();
    }
  });

  it('says what an answered failure was charged, so no sentence about it is assumed; nothing when no answer came', async () => {
    const { gateway, close } = build();
    try {
      const notFound = await failureOf(gateway.call({ operation: 'v2.getEntity', parts: { path: { entity_ref: 'missing' } }, confirmed: true, actionId: 'entity-missing' }));
      expect(notFound.platError).toMatchObject({ code: 'not_found', chargedMicroUsd: 0 });
      const unconfirmed = await failureOf(gateway.call({ operation: 'v2.getEntity', parts: { path: { entity_ref: 'prop_9' } } }));
      expect(unconfirmed.platError.chargedMicroUsd).toBeUndefined();
    } finally {
      close();
    }
  });

  it("keeps the embedded service's road: its table is known, and v2 relationships are free there", () => {
    const { gateway, close } = build({ connectionId: EMBEDDED_CONNECTION_ID });
    try {
      expect(gateway.preview('v2.traverseRelationships', { path: { entity_ref: 'prop_1' } })).toMatchObject({ expectedCostMicroUsd: 0, basis: 'price_table', needsConfirmation: false });
      expect(gateway.preview('v4.search', { query: { jurisdiction: '11001', kind: 'sale' } })).toMatchObject({ expectedCostMicroUsd: 20_000, basis: 'price_table' });
    } finally {
      close();
    }
  });
});
