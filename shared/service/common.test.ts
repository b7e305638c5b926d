import { describe, expect, it } from 'vitest';
import {
  chargeFor,
  ConnectedEntityIdSchema,
  entityKindByPrefix,
  entityKindLabelByPrefix,
  entityPrefix,
  EntityKindSchema,
  fillPath,
  IdempotencyKeySchema,
  invalidRequestDetails,
  maxChargeFor,
  queryObject,
  RelationshipPredicateSchema,
  RequestHeadersSchema,
  SummaryEntityIdSchema,
  v3PricedVariant,
} from './common.ts';
import { operationSchemas, priceRuleFor, serviceOperationNames, serviceOperations } from './operations.ts';
import { V4SearchQuerySchema } from './v4.ts';

const UUID = '3f2b8c1e-9d4a-4e6b-8f0a-1c2d3e4f5a6b';

describe('entity ids', () => {
  it('gives the prefix of a well-formed id and its kind', () => {
    expect(entityPrefix(`acct_${UUID}`)).toBe('acct');
    expect(entityKindByPrefix.acct).toBe('tax_account');
    expect(entityKindLabelByPrefix.acct).toBe('tax account');
    expect(entityPrefix(`loan_${UUID}`)).toBe('loan');
    expect(entityPrefix(`bldg_${UUID}`)).toBeUndefined();
    expect(entityPrefix(`acct_${UUID.toUpperCase()}`)).toBeUndefined();
    expect(entityPrefix('acct')).toBeUndefined();
  });

  it('separates a wrong prefix from a wrong uuid in the message', () => {
    const wrongPrefix = ConnectedEntityIdSchema.safeParse(`prop_${UUID}`);
    const wrongUuid = ConnectedEntityIdSchema.safeParse('parc_1234');
    expect(wrongPrefix.error?.issues[0]?.message).toMatch(/starting with one of addr, parc, acct, unit/);
    expect(wrongUuid.error?.issues[0]?.message).toMatch(/uuid/);
    expect(SummaryEntityIdSchema.parse(`prop_${UUID}`)).toBe(`prop_${UUID}`);
  });

  it('enumerates v2 entity kinds and predicates', () => {
    expect(EntityKindSchema.options).toEqual(['property', 'tax_account', 'parcel', 'address', 'building', 'unit', 'land_interest']);
    expect(RelationshipPredicateSchema.options).toEqual(['located_in', 'taxed_in', 'assessed_in', 'served_by', 'permitted_by']);
    expect(EntityKindSchema.safeParse('owner').success).toBe(false);
  });
});

describe('Idempotency-Key', () => {
  it('accepts 1 to 256 characters', () => {
    expect(IdempotencyKeySchema.safeParse('k').success).toBe(true);
    expect(IdempotencyKeySchema.safeParse('k'.repeat(256)).success).toBe(true);
  });

  it('rejects 0 and 257 characters, naming the header', () => {
    for (const key of ['', 'k'.repeat(257)]) {
      const result = RequestHeadersSchema.safeParse({ 'idempotency-key': key });
      expect(result.success).toBe(false);
      expect(invalidRequestDetails(result.error!)).toMatchObject({ code: 'invalid_idempotency_key', parameter: 'idempotency-key' });
    }
    expect(RequestHeadersSchema.parse({ host: 'localhost' })).toEqual({});
  });
});

describe('invalidRequestDetails', () => {
  it('names the first parameter at fault in the code and every problem in the message', () => {
    const result = V4SearchQuerySchema.safeParse({ jurisdiction: '11', kind: 'Sale', limit: '101' });
    const details = invalidRequestDetails(result.error!);
    expect(details.code).toBe('invalid_kind');
    expect(details.issues.map((issue) => issue.parameter)).toEqual(['kind', 'limit']);
    expect(details.message).toBe('kind: must be 1 to 40 of a-z and _; limit: must be at most 100');
  });

  it('locates problems inside a filter by field', () => {
    const result = V4SearchQuerySchema.safeParse({ jurisdiction: '11', kind: 'sale', filter: '{"PRICE":{"lt":5}}' });
    const details = invalidRequestDetails(result.error!);
    expect(details.code).toBe('invalid_filter');
    expect(details.issues[0]?.location).toBe('filter.PRICE');
  });
});

describe('queryObject', () => {
  it('keeps single values as strings and repeated ones as arrays', () => {
    expect(queryObject('a=1&b=x%20y&a=2')).toEqual({ a: ['1', '2'], b: 'x y' });
    expect(queryObject(new URLSearchParams({ kind: 'sale' }))).toEqual({ kind: 'sale' });
  });
});

describe('operations and prices', () => {
  it('lists the ten operations with their paths, methods and idempotency', () => {
    expect(serviceOperationNames).toEqual([
      'v4.search',
      'v4.catalog',
      'v4.connected',
      'v4.summary',
      'v3.recordQuery',
      'v2.searchProperties',
      'v2.resolveEntities',
      'v2.getCatalog',
      'v2.getEntity',
      'v2.traverseRelationships',
    ]);
    expect(serviceOperations['v4.summary']).toMatchObject({ method: 'GET', path: '/api/v4/entities/:q_id/summary', idempotencyKey: true, generation: 'v4' });
    expect(serviceOperations['v2.getCatalog'].idempotencyKey).toBe(false);
    for (const name of serviceOperationNames) {
      const operation = serviceOperations[name];
      expect(operation.name).toBe(name);
      expect(operation.path.startsWith(`/api/${operation.generation}/`)).toBe(true);
      // Only operations that take the header validate it.
      expect('headers' in operationSchemas[name]).toBe(operation.idempotencyKey);
    }
  });

  it('prices v4 as the spec says and v2/v3 as Plat decided', () => {
    expect(priceRuleFor('v4.summary')).toEqual({ kind: 'per_call', microUsd: 100_000 });
    expect(priceRuleFor('v4.catalog')).toEqual({ kind: 'free' });
    expect(priceRuleFor('v4.connected')).toEqual({ kind: 'free' });
    expect(priceRuleFor('v4.search').kind).toBe('per_page_with_results');
    expect(priceRuleFor('v2.searchProperties')).toEqual({ kind: 'per_page_with_results', microUsd: 20_000 });
    expect(priceRuleFor('v2.resolveEntities')).toEqual({ kind: 'per_resolved_item', microUsd: 5_000 });
    expect(priceRuleFor('v2.getEntity')).toEqual({ kind: 'free' });
    expect(priceRuleFor('v2.traverseRelationships')).toEqual({ kind: 'free' });
    expect(priceRuleFor('v2.getCatalog')).toEqual({ kind: 'free' });
    expect(priceRuleFor('v3.recordQuery', { mode: 'report', projection: 'report_subject_v1' })).toEqual({ kind: 'per_call', microUsd: 250_000 });
    expect(priceRuleFor('v3.recordQuery', { mode: 'report', projection: 'report_comparables_v1' })).toEqual({ kind: 'per_page_with_results', microUsd: 150_000 });
    expect(priceRuleFor('v3.recordQuery', { mode: 'catalog', projection: 'report_subject_v1' })).toEqual({ kind: 'free' });
    expect(priceRuleFor('v3.recordQuery', { mode: 'aggregate' })).toEqual({ kind: 'per_call', microUsd: 50_000 });
    expect(() => priceRuleFor('v3.recordQuery')).toThrow(RangeError);
    expect(() => v3PricedVariant({ mode: 'report' })).toThrow(RangeError);
  });

  it('charges a page only when it has results, and resolutions per resolved item', () => {
    const search = priceRuleFor('v2.searchProperties');
    expect(chargeFor(search, { hasResults: true })).toBe(20_000);
    expect(chargeFor(search, { hasResults: false })).toBe(0);
    const resolve = priceRuleFor('v2.resolveEntities');
    expect(chargeFor(resolve, { hasResults: true, resolvedItems: 3 })).toBe(15_000);
    expect(maxChargeFor(resolve, { items: 40 })).toBe(200_000);
    expect(maxChargeFor(search)).toBe(20_000);
    expect(chargeFor(priceRuleFor('v4.summary'), { hasResults: false })).toBe(100_000);
    expect(maxChargeFor(priceRuleFor('v4.catalog'))).toBe(0);
  });

  it('fills path templates with encoded values', () => {
    expect(fillPath(serviceOperations['v2.getEntity'].path, { entity_ref: 'ent/1 2' })).toBe('/api/v2/entities/ent%2F1%202');
    expect(() => fillPath(serviceOperations['v4.summary'].path, {})).toThrow(/q_id/);
  });
});
