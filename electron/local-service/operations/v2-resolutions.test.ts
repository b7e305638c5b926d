// POST /api/v2/resolutions over real HTTP against the real sample store; every answer is checked
// against the shared contract, its record refs and its charge (v2-test-kit.ts).
import { describe, expect, it } from 'vitest';
import {
  RESOLVED_ITEM_PRICE, expectRefused, items, propertyBySsl, resolve, search, store, useV2Service,
} from './v2-test-kit.ts';
import type { Json } from './v2-test-kit.ts';

useV2Service();

describe('POST /api/v2/resolutions', () => {
  it('resolves a mixed batch item by item, charging only resolved items', async () => {
    const result = await resolve({
      items: [
        { client_id: 'by-ssl', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
        { client_id: 'by-address', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '1716 21st Street NW' }] },
        { client_id: 'broken', subject_kind: 'address', identifiers: [] },
        { client_id: 'nowhere', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '99999 Nowhere Ave NW' }] },
        'not even an object',
      ],
    });
    expect(result.status).toBe(200);
    expect((result.body as Json)['status']).toBe('partial');
    expect(result.charged).toBe(2 * RESOLVED_ITEM_PRICE);
    const [bySsl, byAddress, broken, nowhere, junk] = items(result);
    const property = await propertyBySsl('0065    0004');

    expect(bySsl).toMatchObject({ client_id: 'by-ssl', outcome: 'ok', total_candidates: 3 });
    const sslCandidates = bySsl?.['candidates'] as Json[];
    expect(sslCandidates.map((c) => c['entity_kind'])).toEqual(['property', 'parcel', 'tax_account']);
    for (const candidate of sslCandidates) {
      expect(candidate).toMatchObject({ match_basis: 'ssl_exact', precision: 'exact', property_ref: property, status: 'current', area_uid: 'area_us_dc' });
      expect((candidate['canonical_identity'] as Json)['ssl']).toBe('0065    0004');
    }

    expect(byAddress).toMatchObject({ outcome: 'ok', address_resolution: { normalised: { full: '1716 21ST ST NW' }, matched: true } });
    for (const candidate of byAddress?.['candidates'] as Json[]) {
      expect(candidate).toMatchObject({ match_basis: 'address_exact', precision: 'exact', property_ref: property });
    }

    expect(broken).toMatchObject({ client_id: 'broken', outcome: 'invalid_input', candidates: [] });
    expect(String(broken?.['reason'])).toContain('identifiers');
    expect(nowhere).toMatchObject({ client_id: 'nowhere', outcome: 'not_found', candidates: [], total_candidates: 0 });
    expect(junk).toMatchObject({ client_id: '', outcome: 'invalid_input' });
  });

  it('calls a building address ambiguous for properties and pages its candidates by cursor', async () => {
    const item = { client_id: 'building', subject_kind: 'address', entity_kind: 'property', identifiers: [{ scheme: 'address', value: '1733 20th street nw' }] };
    const seen: string[] = [];
    let cursor: string | undefined;
    let total: number;
    let calls = 0;
    do {
      const result = await resolve({ items: [item], candidate_limit: 10, ...(cursor === undefined ? {} : { candidate_cursors: { building: cursor } }) });
      expect(result.charged).toBe(RESOLVED_ITEM_PRICE);
      expect((result.body as Json)['status']).toBe('ok');
      const [answer] = items(result);
      expect(answer?.['outcome']).toBe('ambiguous');
      total = Number(answer?.['total_candidates']);
      for (const candidate of answer?.['candidates'] as Json[]) {
        expect(candidate).toMatchObject({ entity_kind: 'property', match_basis: 'address_premise', precision: 'approximate' });
        expect(String((candidate['canonical_identity'] as Json)['address'])).toMatch(/^1733 20TH ST NW UNIT /);
        seen.push(String(candidate['entity_ref']));
      }
      cursor = answer?.['next_candidate_cursor'] as string | undefined;
      calls += 1;
    } while (cursor !== undefined && calls < 10);
    expect(total).toBeGreaterThan(10);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);

    // With the unit, the same address resolves to one property.
    const unit = await resolve({ items: [{ ...item, identifiers: [{ scheme: 'address', value: '1733 20th St NW Unit G3' }] }] });
    const [answer] = items(unit);
    expect(answer?.['outcome']).toBe('ok');
    expect((answer?.['candidates'] as Json[])[0]).toMatchObject({ match_basis: 'address_exact', precision: 'exact' });
  });

  it('resolves account numbers, entity refs and MAR ids, within an area when asked', async () => {
    const alexandria = await search({ area_uid: 'area_us_va_alexandria', limit: 1 });
    const account = String((items(alexandria)[0]?.['canonical_identity'] as Json)['account_no']);
    const property = await propertyBySsl('0065    0004');
    const mar = store.searchRecords({ kind: 'permit', jurisdiction: '11001', limit: 1 }).items[0]?.data['MARADDRESSREPOSITORYID'];
    const result = await resolve({
      items: [
        { client_id: 'acct', subject_kind: 'identifier', entity_kind: 'tax_account', area_uid: 'area_us_va_alexandria', identifiers: [{ scheme: 'account_no', value: account }] },
        { client_id: 'ref', subject_kind: 'identifier', identifiers: [{ scheme: 'entity_ref', value: property }] },
        { client_id: 'mar', subject_kind: 'identifier', identifiers: [{ scheme: 'mar_id', value: String(mar) }] },
        { client_id: 'wrong-area', subject_kind: 'identifier', area_uid: 'area_us_va_alexandria', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
      ],
    });
    const [acct, ref, marItem, wrongArea] = items(result);
    expect(acct).toMatchObject({ outcome: 'ok', candidates: [{ entity_kind: 'tax_account', match_basis: 'account_no_exact', area_uid: 'area_us_va_alexandria' }] });
    expect(ref).toMatchObject({ outcome: 'ok', candidates: [{ entity_ref: property, match_basis: 'entity_ref_exact', property_ref: property }] });
    expect(marItem).toMatchObject({ outcome: 'ok', candidates: [{ entity_kind: 'address', match_basis: 'mar_id_exact' }] });
    expect(wrongArea).toMatchObject({ outcome: 'not_found' });
    expect(result.charged).toBe(3 * RESOLVED_ITEM_PRICE);
  });

  it('ranks a candidate matched by every identifier first', async () => {
    const result = await resolve({
      items: [{ client_id: 'both', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '0065 0004' }, { scheme: 'address', value: '1716 21ST ST NW' }] }],
    });
    const candidates = items(result)[0]?.['candidates'] as Json[];
    expect(candidates[0]).toMatchObject({ entity_kind: 'property' });
    expect((candidates[0]?.['matched_identifiers'] as Json[]).map((m) => m['match_basis'])).toEqual(['ssl_exact', 'address_exact']);
  });

  it('marks item-level problems invalid_input and leaves the rest of the batch alone', async () => {
    const good = { client_id: 'good', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] };
    const result = await resolve({
      items: [
        good,
        { ...good },
        { client_id: 'mismatch', subject_kind: 'address', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
        { client_id: 'scheme', subject_kind: 'identifier', identifiers: [{ scheme: 'parcel_id', value: '1' }] },
        { client_id: 'cursor', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
      ],
      candidate_cursors: { cursor: 'bm90LWEtY3Vyc29y' },
    });
    expect((result.body as Json)['status']).toBe('partial');
    const outcomes = items(result).map((item) => item['outcome']);
    expect(outcomes).toEqual(['ok', 'invalid_input', 'invalid_input', 'invalid_input', 'invalid_input']);
    expect(String(items(result)[1]?.['reason'])).toContain('repeats item 0');
    expect(String(items(result)[3]?.['reason'])).toContain('identifiers.0.scheme');
    expect(result.charged).toBe(RESOLVED_ITEM_PRICE);
  });

  it('answers ok for a fully resolved batch and refuses bad outer parameters with a 400', async () => {
    const ok = await resolve({ items: [{ client_id: 'one', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] }], candidate_limit: 1 });
    expect((ok.body as Json)['status']).toBe('ok');
    expect(items(ok)[0]?.['candidates']).toHaveLength(1);
    expect(items(ok)[0]?.['next_candidate_cursor']).toEqual(expect.any(String));

    const item = { client_id: 'one', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] };
    await expectRefused(resolve({ items: [] }), 400, 'invalid_items');
    await expectRefused(resolve({ items: Array.from({ length: 101 }, (_, i) => ({ ...item, client_id: `c${i}` })) }), 400, 'invalid_items');
    await expectRefused(resolve({ items: [item], candidate_limit: 51 }), 400, 'invalid_candidate_limit');
    await expectRefused(resolve({ items: [item], candidate_cursors: { someone_else: 'abc' } }), 400, 'invalid_candidate_cursors');
    await expectRefused(resolve([item]), 400, 'invalid_request');
  });

  it('replays an Idempotency-Key for free', async () => {
    const body = { items: [{ client_id: 'r', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] }] };
    const first = await resolve(body, { idempotencyKey: 'v2-resolve-replay' });
    const again = await resolve(body, { idempotencyKey: 'v2-resolve-replay' });
    expect(first.charged).toBe(RESOLVED_ITEM_PRICE);
    expect(again).toMatchObject({ charged: 0, replayed: true, text: first.text });
  });
});
