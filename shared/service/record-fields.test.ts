import { describe, expect, it } from 'vitest';
import { embeddedCatalog, independentCatalog } from './record-fields-fixtures.ts';
import { fieldForRole, readRole, recordFieldMap, roleNotRecognised, roleNumber, roleOfFieldName, roleSearchProblem, rolesOf, sourceFieldsOf } from './record-fields.ts';

describe('catalog fields in any of the shapes the spec leaves open', () => {
  it('reads a list of names, a list of objects named by name/field/key/field_name/id, and an object keyed by name', () => {
    expect(sourceFieldsOf(['ssl', 'owner']).map((f) => f.name)).toEqual(['ssl', 'owner']);
    expect(sourceFieldsOf([{ field: 'A' }, { key: 'B' }, { field_name: 'C' }, { id: 'D' }, { name: 'E' }]).map((f) => f.name)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(sourceFieldsOf({ SALEPRICE: { data_type: 'money', label: 'Sale price' } })).toEqual([{ name: 'SALEPRICE', type: 'number', description: 'Sale price' }]);
  });
});

describe('roles found in the catalog of either dialect', () => {
  const roles = ['ssl', 'owner_name', 'address', 'use_code', 'sale_price', 'sale_date', 'assessed_value'] as const;
  it('maps the embedded names', () => {
    const map = recordFieldMap(embeddedCatalog, 'ownership');
    expect(roles.map((role) => fieldForRole(map, role))).toEqual(['ssl', 'owner', 'address', 'use_code', 'last_sale_price', 'last_sale_recordation_date', 'assessment_2016']);
  });
  it('maps the independent dialect’s names', () => {
    const map = recordFieldMap(independentCatalog, 'ownership');
    expect(roles.map((role) => fieldForRole(map, role))).toEqual(['SSL', 'OWNERNAME', 'PREMISEADD', 'USECODE', 'SALEPRICE', 'SALEDATE', 'ASSESSMENT']);
  });
  it('takes a permit’s canonical SSL as its parcel key, in both dialects', () => {
    expect(fieldForRole(recordFieldMap(embeddedCatalog, 'permit'), 'ssl')).toBe('SSL_CANONICAL');
    expect(fieldForRole(recordFieldMap(independentCatalog, 'permit'), 'ssl')).toBe('SSLCANONICAL');
    expect(fieldForRole(recordFieldMap(independentCatalog, 'permit'), 'owner_name')).toBe('OWNERNAME');
    expect(fieldForRole(recordFieldMap(independentCatalog, 'permit'), 'permit_issue_date')).toBe('ISSUEDATE');
  });
  it('finds a field by its label when its name says nothing', () => {
    const found = rolesOf(sourceFieldsOf({ F1: { label: 'Square suffix lot' }, F2: { label: 'Owner of record' }, F3: { description: 'Sale price in dollars' } }));
    expect(found).toMatchObject({ ssl: 'F1', owner_name: 'F2', sale_price: 'F3' });
  });
  it('never takes a second owner for the owner', () => {
    expect(rolesOf(sourceFieldsOf(['OWNER_NAME_2', 'OWNERNAME']))).toMatchObject({ owner_name: 'OWNERNAME', second_owner: 'OWNER_NAME_2' });
  });
  it('leaves a role the catalog lacks unknown, and says so before any search', () => {
    const map = recordFieldMap([{ ...embeddedCatalog[1]!, fields: ['PARCEL', 'PRICE'] }], 'sale');
    expect(fieldForRole(map, 'ssl')).toBeNull();
    expect(roleSearchProblem(map, 'ssl', 'DC', 'parcel')).toBe('This service’s catalog names no SSL field for sale records in DC; Plat cannot search them by parcel.');
    expect(roleSearchProblem(recordFieldMap([], 'sale'), 'ssl', 'DC', 'parcel')).toMatch(/lists no fields for sale records in DC/);
  });
  it('knows a role by a field name alone', () => {
    expect(['OWNERNAME', 'owner', 'assessment_2016', 'SALEDATE', 'WARD'].map(roleOfFieldName)).toEqual(['owner_name', 'owner_name', 'assessed_value', 'sale_date', null]);
  });
});

describe('a record’s value for a role', () => {
  const independentMap = recordFieldMap(independentCatalog, 'ownership');
  it('reads the independent dialect’s row with its catalog', () => {
    const row = { SSL: '0065    0007', OWNERNAME: 'JOEL KUIPERS', SALEPRICE: '1361000.00', SALEDATE: '2013-12-17' };
    expect(readRole(row, 'owner_name', independentMap)).toEqual({ status: 'found', field: 'OWNERNAME', value: 'JOEL KUIPERS' });
    expect(roleNumber(readRole(row, 'sale_price', independentMap))).toBe(1361000);
    expect(readRole(row, 'use_code', independentMap)).toEqual({ status: 'blank', field: 'USECODE' });
  });
  it('reads the row’s own names when no catalog was read, in both dialects', () => {
    expect(readRole({ owner: 'JOEL KUIPERS' }, 'owner_name')).toEqual({ status: 'found', field: 'owner', value: 'JOEL KUIPERS' });
    expect(readRole({ OWNERNAME: 'JOEL KUIPERS' }, 'owner_name', null)).toEqual({ status: 'found', field: 'OWNERNAME', value: 'JOEL KUIPERS' });
    expect(readRole({ owner: '' }, 'owner_name')).toEqual({ status: 'blank', field: 'owner' });
  });
  it('is unknown, not blank, when no field plays the role', () => {
    const map = recordFieldMap([{ kind: 'ownership', source_id: 'x', fields: ['TITULAR'] }], 'ownership');
    expect(readRole({ TITULAR: 'JOEL KUIPERS' }, 'owner_name', map)).toEqual({ status: 'unknown' });
    expect(readRole({ TITULAR: 'JOEL KUIPERS' }, 'owner_name')).toEqual({ status: 'unknown' });
    expect(roleNotRecognised('owner_name', map)).toMatch(/^Not recognised by Plat: .*owner name \(its fields: TITULAR\)/);
  });
});
