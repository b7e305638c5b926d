// Inputs that differ only by case, spacing or punctuation are one request: the real gateway, client,
// ledger and cache against the embedded service. The second way of writing a paid request is a cache
// hit (never a second charge), and input that can name no record is refused before anything is sent.
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from './service-client/index.ts';
import { buildTestGateway, failureOf, useLocalService } from './gateway-test-kit.ts';

const local = useLocalService();
const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function build() {
  const client = new ServiceClient({ baseUrl: local.service.url, getApiKey: () => local.service.keys.active, sleep: async () => {}, random: () => 0 });
  const built = buildTestGateway({ client, sessionId: 'equal-requests', ledger: { secrets: () => [local.service.keys.active] } });
  cleanups.push(built.close);
  return built;
}

const charges = () => local.service.state.charges('acct_active');

function resolution(scheme: string, value: string) {
  return { body: { items: [{ client_id: 'find', subject_kind: scheme === 'address' ? 'address' : 'identifier', identifiers: [{ scheme, value }] }] } };
}

describe('equal inputs are one request', () => {
  it('charges "1708 21st st nw" once: "1708 21ST ST NW" and "1708 21st St NW, Washington DC" after it are cache hits', async () => {
    const { gateway, ledger } = build();
    const before = charges().length;
    const first = await gateway.call({ operation: 'v2.resolveEntities', parts: resolution('address', '1708 21st st nw'), actionId: 'find-1' });
    expect(first.billing).toMatchObject({ cacheHit: false, chargedMicroUsd: 5000 });
    expect(gateway.preview('v2.resolveEntities', resolution('address', '1708 21ST ST NW'))).toMatchObject({ cached: true, expectedCostMicroUsd: 0 });

    for (const [i, typed] of ['1708 21ST ST NW', '  1708   21st  St.  NW ', '1708 21st St NW, Washington DC', '1708 21st street nw washington d.c. 20009'].entries()) {
      const again = await gateway.call({ operation: 'v2.resolveEntities', parts: resolution('address', typed), actionId: `find-${i + 2}` });
      expect(again.billing, typed).toMatchObject({ cacheHit: true, chargedMicroUsd: 0 });
      expect(again.envelope).toEqual(first.envelope);
    }
    expect(charges().length - before).toBe(1);
    expect(ledger.list({ limit: 10 }).filter((row) => row.kind === 'call' && row.totalChargeMicroUsd > 0)).toHaveLength(1);
    // What was found: the property at that address, and the address sent as the records write it.
    const item = (first.envelope as { data: { items: Array<{ outcome: string; address_resolution: { input: string }; candidates: Array<{ entity_kind: string }> }> } }).data.items[0];
    expect(item?.outcome).toBe('ok');
    expect(item?.address_resolution.input).toBe('1708 21ST ST NW');
    expect(item?.candidates.map((candidate) => candidate.entity_kind)).toContain('property');
  });

  it('charges an SSL once however it is written: "0065 0007", "0065    0007", "0065-0007", "0065/0007", "65-7"', async () => {
    const { gateway } = build();
    const before = charges().length;
    const billings = [];
    for (const [i, typed] of ['0065 0007', '0065    0007', '0065-0007', '0065/0007', '65-7', 'bd0000650007'].entries()) {
      billings.push((await gateway.call({ operation: 'v2.resolveEntities', parts: resolution('ssl', typed), actionId: `ssl-${i}` })).billing);
    }
    expect(billings.map((billing) => billing.cacheHit)).toEqual([false, true, true, true, true, true]);
    expect(charges().length - before).toBe(1);
  });

  it('charges an Alexandria account number once with or without leading zeros or spaces, and an entity id once in any case', async () => {
    const { gateway } = build();
    const before = charges().length;
    const account = [];
    for (const [i, typed] of ['13244500', '013244500', '1324 4500', ' 13244500 '].entries()) {
      account.push((await gateway.call({ operation: 'v2.resolveEntities', parts: resolution('account_no', typed), actionId: `acct-${i}` })).billing.cacheHit);
    }
    expect(account).toEqual([false, true, true, true]);
    const ref = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';
    const ids = [];
    for (const [i, typed] of [ref, ref.toUpperCase(), ` ${ref} `].entries()) {
      ids.push((await gateway.call({ operation: 'v2.resolveEntities', parts: resolution('entity_ref', typed), actionId: `ref-${i}` })).billing.cacheHit);
    }
    expect(ids).toEqual([false, true, true]);
    expect(charges().length - before).toBe(2);
  });
});

describe('owner lookups (v2 property search on owner_name) in any case and spacing', () => {
  it('charges "joel kuipers" once: "JOEL  KUIPERS" after it is a cache hit', async () => {
    const { gateway } = build();
    const before = charges().length;
    const search = (value: string) => ({ body: { area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value }] } });
    const first = await gateway.call({ operation: 'v2.searchProperties', parts: search('joel kuipers'), actionId: 'owner-1' });
    const again = await gateway.call({ operation: 'v2.searchProperties', parts: search(' JOEL  KUIPERS '), actionId: 'owner-2' });
    expect([first.billing.cacheHit, again.billing.cacheHit]).toEqual([false, true]);
    expect(charges().length - before).toBe(1);
  });

  it('refuses an owner name of 5,000 characters before sending it', async () => {
    const { gateway } = build();
    const before = charges().length;
    const failure = await failureOf(
      gateway.call({ operation: 'v2.searchProperties', parts: { body: { area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: 'A'.repeat(5000) }] } }, actionId: 'owner-long' }),
    );
    expect(failure.message).toMatch(/at most 512 characters/);
    expect(charges().length).toBe(before);
  });
});

describe('input that can name no record is refused, uncharged', () => {
  it.each([
    ['a placeholder SSL', 'ssl', '0000 0000', /placeholder/],
    ['5,000 characters', 'address', `1708 ${'A'.repeat(4995)}`, /at most 512 characters/],
    ['non-Latin text', 'address', '名前', /no Latin spelling \(名 前\)/],
    ['punctuation only', 'address', '--- ...', /letters or digits/],
  ])('%s: a clear message, nothing sent or charged', async (_name, scheme, value, message) => {
    const { gateway, ledger } = build();
    const before = charges().length;
    const failure = await failureOf(gateway.call({ operation: 'v2.resolveEntities', parts: resolution(scheme, value), actionId: `bad-${scheme}` }));
    expect(failure.message).toMatch(message);
    expect(charges().length).toBe(before);
    expect(ledger.list({ limit: 10 }).every((row) => row.totalChargeMicroUsd === 0)).toBe(true);
  });

  it('an unknown address and an SSL that is not in the sample are not found, free', async () => {
    const { gateway } = build();
    const before = charges().length;
    for (const [scheme, value] of [['address', '9999 NOWHERE ST NW'], ['ssl', '9999 9999']] as const) {
      const answer = await gateway.call({ operation: 'v2.resolveEntities', parts: resolution(scheme, value), actionId: `none-${scheme}` });
      expect(answer.billing.chargedMicroUsd).toBe(0);
      expect((answer.envelope as { data: { items: Array<{ outcome: string }> } }).data.items[0]?.outcome).toBe('not_found');
    }
    expect(charges().length).toBe(before);
  });
});
