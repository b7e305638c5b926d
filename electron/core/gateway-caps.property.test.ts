// Caps under any interleaving: random caps, costs, projects, answers (full, partial, 503, lost after
// charging, lost before), cancellations and free calls, against a scripted service that answers
// only when told. Properties: the service never charges more than a cap allows, and a call is let
// through exactly when it fits (spent + still running + its price ≤ cap), so none is refused that fits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServiceCallError, type ServiceClient } from './service-client/index.ts';
import type { GatewayCall } from './service-gateway.ts';
import { buildTestGateway } from './gateway-test-kit.ts';
import { EMBEDDED_CONNECTION_ID } from './cost-estimator.ts';
import { PlatFailure } from './failure.ts';

const SUMMARY = 100_000;
const PER_ITEM = 5_000;
const ENTITY = 'parc_0b6f1a52-3c1e-4d7a-9f2b-6a1d2c3e4f50';

type Outcome = 'ok' | 'partial' | 'http503' | 'lostCharged' | 'lostFree';

type Command =
  | { kind: 'admit'; operation: 'summary' | 'resolve'; items: number; inProject: boolean; withSignal: boolean }
  | { kind: 'settle'; outcome: Outcome; share: number }
  | { kind: 'cancel'; which: number }
  | { kind: 'catalog' };

interface Sent {
  idempotencyKey: string;
  expected: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A service that answers each charged request when the test says, keeping its own balance and charges. */
class ScriptedService {
  balance = 100_000_000;
  readonly chargedByKey = new Map<string, number>();
  /** Answers that carried a balance so far (free catalog calls and answered charged calls). */
  readings = 0;
  /** Requests whose answer was lost without a charge, with the readings count when that happened. */
  readonly lostFreeAt = new Map<string, number>();
  readonly waiting: Sent[] = [];

  client(): ServiceClient {
    const queue = (expected: number, options: { idempotencyKey?: string | null } | undefined) =>
      new Promise((resolve, reject) => this.waiting.push({ idempotencyKey: options?.idempotencyKey ?? '', expected, resolve, reject }));
    type Options = { idempotencyKey?: string | null } | undefined;
    const answers: Record<string, (request: { body?: { items: unknown[] } }, options: Options) => Promise<unknown>> = {
      'v4.summary': (_request, options) => queue(SUMMARY, options),
      'v2.resolveEntities': (request, options) => queue((request.body?.items ?? []).length * PER_ITEM, options),
      // Free, answered at once: a balance reading.
      'v4.catalog': async () => this.#answer('v4.catalog', null, 0),
    };
    return {
      call: (operation: string, request: { body?: { items: unknown[] } }, options: Options) => answers[operation]!(request, options),
    } as unknown as ServiceClient;
  }

  #answer(operation: string, idempotencyKey: string | null, charged: number) {
    this.readings++;
    const servedAt = new Date().toISOString();
    const requestId = idempotencyKey ?? `free-${Math.random().toString(36).slice(2)}`;
    return {
      operation,
      data: {},
      envelope: { request_id: requestId, data: {}, meta: { served_at: servedAt } },
      meta: { served_at: servedAt },
      http: { status: 200, chargedMicroUsd: charged, balanceMicroUsd: this.balance, replayed: false, rateLimitRemaining: null, requestId },
      attempts: 1,
      idempotencyKey,
    };
  }

  /** Answers the oldest request waiting; returns whether one was waiting. */
  settle(outcome: Outcome, share: number): boolean {
    const sent = this.waiting.shift();
    if (!sent) return false;
    const charge = (amount: number) => {
      this.balance -= amount;
      this.chargedByKey.set(sent.idempotencyKey, amount);
    };
    const failure = (init: Partial<ConstructorParameters<typeof ServiceCallError>[0]>) =>
      new ServiceCallError({
        operation: 'v4.summary',
        platError: { code: 'service_unavailable', message: 'The service is unavailable', retryable: true },
        attempts: 1,
        idempotencyKey: sent.idempotencyKey,
        ...init,
      });
    switch (outcome) {
      case 'ok':
      case 'partial': {
        // A partial answer: fewer items resolved than asked for (a summary is all or nothing).
        const amount = outcome === 'ok' || sent.expected === SUMMARY ? sent.expected : Math.floor((sent.expected / PER_ITEM) * share) * PER_ITEM;
        charge(amount);
        sent.resolve(this.#answer('v2.resolveEntities', sent.idempotencyKey, amount));
        break;
      }
      case 'http503':
        this.readings++;
        sent.reject(
          failure({
            http: { status: 503, chargedMicroUsd: 0, balanceMicroUsd: this.balance, replayed: false, rateLimitRemaining: null, requestId: null },
          }),
        );
        break;
      case 'lostCharged':
        charge(sent.expected);
        sent.reject(failure({ platError: { code: 'network_error', message: 'No answer', retryable: true }, outcomeUnknown: true }));
        break;
      case 'lostFree':
        this.lostFreeAt.set(sent.idempotencyKey, this.readings);
        sent.reject(failure({ platError: { code: 'network_error', message: 'No answer', retryable: true }, outcomeUnknown: true }));
        break;
    }
    return true;
  }
}

const flush = async () => {
  for (let i = 0; i < 6; i++) await new Promise((resolve) => setImmediate(resolve));
};

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('admit' as const), operation: fc.constantFrom('summary' as const, 'resolve' as const), items: fc.integer({ min: 1, max: 20 }), inProject: fc.boolean(), withSignal: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('settle' as const), outcome: fc.constantFrom<Outcome>('ok', 'ok', 'partial', 'http503', 'lostCharged', 'lostFree'), share: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('catalog' as const) }) },
);

interface Admitted {
  expected: number;
  projectId: string | null;
  idempotencyKey: string;
  settled: boolean;
  page: AbortController | null;
}

async function runScenario(sessionCap: number | null, projectCap: number | null, commands: Command[]) {
  const service = new ScriptedService();
  const { projects, gateway, close } = buildTestGateway({
    client: service.client(),
    connectionId: EMBEDDED_CONNECTION_ID,
    sessionId: 'property',
    budget: { sessionCapMicroUsd: sessionCap },
  });
  const project = projects.create({ name: 'Property test', spendingCapMicroUsd: projectCap });

  const admitted: Admitted[] = [];
  const running: Array<Promise<void>> = [];
  let counter = 0;
  const committed = (projectId: string | null) => {
    let total = 0;
    for (const call of admitted) {
      if (projectId !== null && call.projectId !== projectId) continue;
      total += service.chargedByKey.get(call.idempotencyKey) ?? 0;
      // Still running, or its answer was lost and no balance has been read since: it may cost its price.
      const lostAt = service.lostFreeAt.get(call.idempotencyKey);
      if (!call.settled || (lostAt !== undefined && service.readings === lostAt)) total += call.expected;
    }
    return total;
  };

  for (const command of commands) {
    if (command.kind === 'admit') {
      const i = counter++;
      const actionId = `property-call-${i}`;
      const call: GatewayCall =
        command.operation === 'summary'
          ? { operation: 'v4.summary', parts: { path: { q_id: ENTITY }, query: { fields: `field_${i}` } }, actionId }
          : {
              operation: 'v2.resolveEntities',
              parts: {
                body: {
                  items: Array.from({ length: command.items }, (_, k) => ({ client_id: `c${i}-${k}`, subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: `${i} ${k}` }] })),
                },
              },
              actionId,
            };
      const expected = command.operation === 'summary' ? SUMMARY : command.items * PER_ITEM;
      const projectId = command.inProject ? project.id : null;
      projects.setActiveProjectId(projectId);
      // The model's verdict, taken before the gateway's.
      const fitsSession = sessionCap === null || committed(null) + expected <= sessionCap;
      const fitsProject = projectId === null || projectCap === null || committed(projectId) + expected <= projectCap;
      const page = command.withSignal ? new AbortController() : null;
      const entry: Admitted = { expected, projectId, idempotencyKey: `plat-${actionId}`, settled: false, page };
      const answer = gateway.call({ ...call, confirmed: true, ...(page ? { signal: page.signal } : {}) });
      let refused = false;
      running.push(
        answer.then(
          () => {
            entry.settled = true;
          },
          (error: unknown) => {
            entry.settled = true;
            if (error instanceof PlatFailure && error.platError.code === 'budget_exceeded') refused = true;
          },
        ),
      );
      await flush();
      // A refusal is decided before anything is queued, so it is known by now.
      expect(refused, `call ${i} (${expected} µUSD): fits the session ${fitsSession}, the project ${fitsProject}`).toBe(!(fitsSession && fitsProject));
      if (!refused) admitted.push(entry);
    } else if (command.kind === 'settle') {
      if (service.settle(command.outcome, command.share)) await flush();
    } else if (command.kind === 'cancel') {
      const target = admitted[command.which % Math.max(1, admitted.length)];
      target?.page?.abort();
      await flush();
    } else {
      // A free call reads the balance when its turn comes (after any call that can charge).
      running.push(gateway.call({ operation: 'v4.catalog', parts: { query: { source_id: `reading_${counter++}` } } }).then(() => undefined));
      await flush();
    }
  }
  // Let everything still queued finish.
  for (let guard = 0; guard < 10_000 && admitted.some((call) => !call.settled); guard++) {
    if (!service.settle('ok', 1)) await flush();
    await flush();
  }
  await Promise.all(running);

  const charged = [...service.chargedByKey.values()].reduce((sum, amount) => sum + amount, 0);
  const chargedToProject = admitted
    .filter((call) => call.projectId === project.id)
    .reduce((sum, call) => sum + (service.chargedByKey.get(call.idempotencyKey) ?? 0), 0);
  if (sessionCap !== null) expect(charged).toBeLessThanOrEqual(sessionCap);
  if (projectCap !== null) expect(chargedToProject).toBeLessThanOrEqual(projectCap);
  close();
}

describe('budget caps under any interleaving', () => {
  it('never let the service charge past a cap, and never refuse a call that fits', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.integer({ min: 0, max: 60 }).map((n) => n * 10_000), { nil: null }),
        fc.option(fc.integer({ min: 0, max: 60 }).map((n) => n * 10_000), { nil: null }),
        fc.array(commandArb, { minLength: 1, maxLength: 60 }),
        async (sessionCap, projectCap, commands) => runScenario(sessionCap, projectCap, commands),
      ),
      { numRuns: 150 },
    );
  });
});
