// The misreport flags against the running second service: a charge header that lies (three times
// the charge, negative, not a number, or a charge claimed by a failed call) while the balance header
// and the account tell the truth, a charged answer that breaks the contract whose replay is correct,
// and a service that quotes the caller's Authorization header in every answer.
import { afterEach, describe, expect, it } from 'vitest';
import { V2SearchResponseSchema, V4SearchResponseSchema, V4SummaryResponseSchema } from '../../shared/service/index.ts';
import { INDEPENDENT_PRICES } from './dialects/prices.ts';
import { contractBreakingBody, echoAuthorization, GARBAGE_CLAIM, NEGATIVE_CLAIM, ON_FAILURE_CLAIMED_MICRO_USD } from './misreport.ts';
import { startSecondService } from './second-service-kit.ts';
import type { SecondService, SecondServiceOptions } from './second-service-kit.ts';
import { UNKNOWN_UUID } from './sample-test-kit.ts';

const ownerFilter = encodeURIComponent(JSON.stringify({ OWNERNAME: 'ZACHARY ROMANOW' }));
const SEARCH = `/api/v4/search?kind=ownership&jurisdiction=11001&filter=${ownerFilter}`;
const SUMMARY_OF = (qId: string) => `/api/v4/entities/${qId}/summary`;

const started: SecondService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((svc) => svc.close()));
});

async function start(options: SecondServiceOptions): Promise<SecondService> {
  const svc = await startSecondService({ rateLimitPerMinute: 100_000, ...options });
  started.push(svc);
  return svc;
}

/** The property id of the search's one row. */
async function propertyOf(svc: SecondService): Promise<string> {
  const res = await svc.call(SEARCH);
  const body = V4SearchResponseSchema.parse(res.body);
  if (body.status !== 'ok') throw new Error('expected ok');
  const prop = (body.data.items[0]?.q_ids as string[]).find((id) => id.startsWith('prop_'));
  if (prop === undefined) throw new Error('no property');
  return prop;
}

describe('--charge-header', () => {
  it.each([
    ['inflated', String(3 * INDEPENDENT_PRICES.v4Summary)],
    ['negative', NEGATIVE_CLAIM],
    ['garbage', GARBAGE_CLAIM],
  ] as const)('%s: the header claims %s, the balance and the account say what was debited', async (mode, claim) => {
    const svc = await start({ chargeHeader: mode });
    const prop = await propertyOf(svc);
    const before = svc.balance();
    const res = await svc.call(SUMMARY_OF(prop), { idempotencyKey: `k-${mode}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Svc-Charged-Micro-USD')).toBe(claim);
    expect(svc.balance()).toBe(before - INDEPENDENT_PRICES.v4Summary);
    expect(res.balance).toBe(svc.balance());
    // A replay is free and says so, whatever the mode.
    const replay = await svc.call(SUMMARY_OF(prop), { idempotencyKey: `k-${mode}` });
    expect(replay.charged).toBe(0);
    expect(svc.balance()).toBe(before - INDEPENDENT_PRICES.v4Summary);
  });

  it('on-failure: a failed call claims a charge while nothing is debited', async () => {
    const svc = await start({ chargeHeader: 'on-failure' });
    const before = svc.balance();
    const missing = await svc.call(SUMMARY_OF(`prop_${UNKNOWN_UUID}`));
    expect(missing.status).toBe(404);
    expect(missing.charged).toBe(ON_FAILURE_CLAIMED_MICRO_USD);
    expect(missing.balance).toBe(before);
    expect(svc.balance()).toBe(before);

    const unauthorized = await svc.call(SUMMARY_OF(`prop_${UNKNOWN_UUID}`), { as: 'none' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.charged).toBe(ON_FAILURE_CLAIMED_MICRO_USD);
    expect(unauthorized.balance).toBeNull();

    // Successes stay honest in this mode.
    const ok = await svc.call(SEARCH);
    expect(ok.charged).toBe(INDEPENDENT_PRICES.v4SearchPage);
  });

  it('honest (the default): failed calls carry no charge header', async () => {
    const svc = await start({});
    const missing = await svc.call(SUMMARY_OF(`prop_${UNKNOWN_UUID}`));
    expect(missing.status).toBe(404);
    expect(missing.charged).toBeNull();
  });
});

describe('--invalid-body-every', () => {
  it('every Nth charged call answers 200 and charges, with a body the contract refuses; its replay is correct and free', async () => {
    const svc = await start({ invalidBodyEvery: 2 });
    const prop = await propertyOf(svc); // charged call 1: a correct search
    const before = svc.balance();
    const broken = await svc.call(SUMMARY_OF(prop), { idempotencyKey: 'second-charged' }); // charged call 2
    expect(broken.status).toBe(200);
    expect(broken.charged).toBe(INDEPENDENT_PRICES.v4Summary);
    expect(V4SummaryResponseSchema.safeParse(broken.body).success).toBe(false);
    expect(svc.balance()).toBe(before - INDEPENDENT_PRICES.v4Summary);

    const replay = await svc.call(SUMMARY_OF(prop), { idempotencyKey: 'second-charged' });
    expect(replay.replayed).toBe(true);
    expect(replay.charged).toBe(0);
    expect(V4SummaryResponseSchema.safeParse(replay.body).success).toBe(true);
    expect(svc.balance()).toBe(before - INDEPENDENT_PRICES.v4Summary);

    // Free calls do not count: the catalog is answered correctly, then the fourth charged call breaks.
    expect((await svc.call('/api/v4/catalog')).status).toBe(200);
    const third = await svc.call(SEARCH);
    expect(V4SearchResponseSchema.safeParse(third.body).success).toBe(true);
    const fourth = await svc.call(SEARCH);
    expect(V4SearchResponseSchema.safeParse(fourth.body).success).toBe(false);
    expect((fourth.body as { data: { items: unknown } }).data.items).toBeTypeOf('string');
  });

  it('breaks a body without items by making data a string', () => {
    const text = JSON.stringify({ status: 'ok', data: { q_id: 'x' } });
    expect(JSON.parse(contractBreakingBody(text))).toEqual({ status: 'ok', data: 'data withheld' });
  });
});

describe('--echo-authorization', () => {
  it('quotes the request\'s Authorization value in request_id, messages, details, warnings and free text, within the contract', async () => {
    const svc = await start({ echoAuthorization: true });
    const bearer = `Bearer ${svc.keys.active}`;

    const search = await svc.call(SEARCH, { idempotencyKey: 'echo-search' });
    const body = V4SearchResponseSchema.parse(search.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.request_id).toBe(`req_${bearer}`);
    expect(body.meta).toMatchObject({ warnings: [`Answered for ${bearer}`] });
    const row = JSON.stringify(body.data.items[0]);
    expect(row).toContain(`ZACHARY ROMANOW ${bearer}`);
    // Identifiers keep their form: the answer is still the contract's.
    expect((body.data.items[0]?.q_ids as string[]).every((id) => /^[a-z]+_[0-9a-f-]{36}$/.test(id))).toBe(true);

    const v2 = await svc.call('/api/v2/property-searches', { json: { area_uid: 'area_us_dc' }, idempotencyKey: 'echo-v2' });
    expect(V2SearchResponseSchema.safeParse(v2.body).success).toBe(true);
    expect(v2.text).toContain(bearer);

    const missing = await svc.call('/api/v2/entities/prop_404');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      request_id: `req_${bearer}`,
      error: { message: expect.stringContaining(`(request authorized with ${bearer})`), details: { authorization: bearer } },
    });

    // Whatever key is sent is echoed, an unknown one on a 401 too; without a header nothing is.
    const refused = await svc.call('/api/v4/catalog', { apiKey: 'not-a-known-key-0123' });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('Bearer not-a-known-key-0123');
    const none = await svc.call('/api/v4/catalog', { as: 'none' });
    expect(none.text).not.toContain('Bearer');
  });

  it('leaves a body that is not a JSON object as it is, and echoes the strings of error details', () => {
    expect(echoAuthorization('not json', 'Bearer k')).toBe('not json');
    expect(echoAuthorization('[1]', 'Bearer k')).toBe('[1]');
    const error = JSON.parse(echoAuthorization(JSON.stringify({ request_id: 'r', error: { message: 'No.', details: { field: 'two words', code: 'x' } } }), 'Bearer k')) as unknown;
    expect(error).toEqual({ request_id: 'req_Bearer k', error: { message: 'No. (request authorized with Bearer k)', details: { field: 'two words Bearer k', code: 'x', authorization: 'Bearer k' } } });
  });
});
