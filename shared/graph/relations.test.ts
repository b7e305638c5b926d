import { describe, expect, it } from 'vitest';
import { entityName, kindOfId, ownerNameKey, relationGroups, relationLabel, sslProblem, sslText } from './relations.ts';
import { buildGraph } from './build-graph.ts';
import { modelLinks } from './links.ts';
import { envelope, fixtures, ids } from './test-kit.ts';

const edges1708 = fixtures.relationships1708Depth2.envelope.data.edges.map((edge) => ({ source: edge.subject_ref, predicate: edge.predicate, target: edge.object_ref }));
const kindOf = (id: string) => kindOfId(id) ?? undefined;

describe('relationLabel', () => {
  it('reads each predicate in the direction it is shown, both ways', () => {
    const both = (predicate: string, objectKind?: string) => [relationLabel(predicate, 'out', objectKind), relationLabel(predicate, 'in', objectKind)];
    expect(both('located_in', 'parcel')).toEqual(['located on', 'holds']);
    expect(both('located_in', 'unit')).toEqual(['located in', 'holds']);
    expect(both('taxed_in')).toEqual(['taxed under', 'taxes']);
    expect(both('assessed_in')).toEqual(['assesses', 'assessed under']);
    expect(both('served_by')).toEqual(['has address', 'addresses']);
    expect(both('permitted_by')).toEqual(['has permit', 'permit for']);
    expect(both('owned_by')).toEqual(['owned by', 'owns']);
    expect(both('same_owner')).toEqual(['same owner name as', 'same owner name as']);
  });

  it('shows a predicate it does not know as published, marked not recognised, and says when it is read backwards', () => {
    expect(relationLabel('owner_of', 'out')).toBe('owner_of — not recognised by Plat');
    expect(relationLabel('owner_of', 'in')).toBe('owner_of, read backwards — not recognised by Plat');
  });
});

describe('relationGroups', () => {
  it('groups a parcel’s links from the real traversal as they read from the parcel', () => {
    const groups = relationGroups(ids.parcel1708, edges1708, kindOf);
    expect(groups.map((group) => [group.label, group.entries.map((entry) => entry.other)])).toEqual([
      ['Holds', [ids.property1708]],
      ['Assessed under', [ids.account1708]],
      ['Has address', [ids.address1708]],
    ]);
  });

  it('groups an owner’s holdings under "Owns", read from the owner', () => {
    const { model } = buildGraph(ids.propertyPoozesh, [{ kind: 'owner-search', name: 'ABDOLLAH POOZESH', envelope: envelope('searchPoozesh') }]);
    const groups = relationGroups('owner:ABDOLLAH POOZESH', modelLinks(model));
    expect(groups.map((group) => [group.label, group.entries.map((entry) => entry.other)])).toEqual([['Owns', [ids.propertyPoozesh, ids.propertyPoozesh2]]]);
    expect(relationGroups(ids.propertyPoozesh2, modelLinks(model), kindOf).map((group) => group.label)).toEqual(['Located on', 'Owned by']);
  });

  it('reads the same links forwards from the property', () => {
    const groups = relationGroups(ids.property1708, edges1708, kindOf);
    expect(groups.map((group) => group.label)).toEqual(['Located on', 'Taxed under', 'Has address']);
    expect(groups.every((group) => group.direction === 'out')).toBe(true);
  });
});

describe('entityName', () => {
  const nodes = new Map(fixtures.relationships1708Depth2.envelope.data.nodes.map((node) => [node.id, node]));
  const named = (id: string) => {
    const node = nodes.get(id);
    return entityName({ id, kind: kindOfId(id) ?? 'record', identifiers: node?.identifiers ?? [] });
  };

  it('names each entity of the real answer by what a person recognises, the kind second', () => {
    expect(named(ids.property1708)).toEqual({ label: '1708 21ST ST NW', sublabel: 'Property · SSL 0065 0007', invalidKey: null });
    expect(named(ids.parcel1708)).toMatchObject({ label: 'SSL 0065 0007', sublabel: 'Parcel' });
    expect(named(ids.account1708)).toMatchObject({ label: 'Account 0065 0007', sublabel: 'Tax account' });
    expect(named(ids.address1708)).toMatchObject({ label: '1708 21ST ST NW', sublabel: 'Address' });
  });

  it('falls back to the kind and a short id only when the answers carry no identifier', () => {
    expect(entityName({ id: ids.account1708, kind: 'tax_account', identifiers: [] }).label).toBe('Tax account acct_38bde8b8…');
    expect(entityName({ id: ids.account1708, kind: 'tax_account', identifiers: [{ scheme: 'account_no', value: '13244500' }] }).label).toBe('Account 13244500');
  });

  it('says a placeholder SSL is not a valid parcel key instead of naming a real-looking parcel', () => {
    const node = fixtures.relationshipsPlaceholder.envelope.data.nodes.find((candidate) => candidate.id === ids.parcelPlaceholder);
    const name = entityName({ id: ids.parcelPlaceholder, kind: 'parcel', identifiers: node?.identifiers ?? [] });
    expect(name.label).toBe('SSL 0000 0000: not a valid parcel key');
    expect(name.invalidKey).toMatch(/placeholder.*not a valid parcel key/);
  });

  it('names a permit record by its permit number', () => {
    const record = fixtures.relationshipsPlaceholder.envelope.data.nodes.find((node) => node.node_type === 'record');
    expect(entityName({ id: record?.id ?? '', kind: 'record', identifiers: record?.identifiers ?? [], recordKind: record?.kind ?? null })).toMatchObject({
      label: 'Permit B1502153',
      sublabel: 'Permit record',
    });
  });
});

describe('SSL keys', () => {
  it('writes SSLs as people do and refuses placeholders and non-SSLs as parcel keys', () => {
    expect(sslText('0065    0007')).toBe('0065 0007');
    expect(sslText('0242N   2035')).toBe('0242N 2035');
    expect(sslProblem('0065    0007')).toBeNull();
    expect(sslProblem('0000    0000')).toMatch(/^SSL 0000 0000 is a placeholder/);
    expect(sslProblem('27')).toMatch(/not an SSL/);
  });
});

describe('ownerNameKey', () => {
  it('groups published spellings that differ in spacing, punctuation, case and & only', () => {
    expect(ownerNameKey('NORMAN A PUGH-NEWBY')).toBe(ownerNameKey('NORMAN A PUGH NEWBY'));
    expect(ownerNameKey('FAITH & HOPE FULL GOSPEL CHURCH')).toBe(ownerNameKey('Faith and Hope Full Gospel Church'));
    expect(ownerNameKey('FAWZI M. KRONFOL')).toBe('FAWZI M KRONFOL');
    expect(ownerNameKey('DANIEL  SHERIDAN')).toBe('DANIEL SHERIDAN');
    expect(ownerNameKey("O'BRIEN, JOHN")).toBe('OBRIEN JOHN');
    expect(ownerNameKey('JOSÉ MÜLLER')).toBe('JOSE MULLER');
  });

  it('keeps entity suffixes and middle initials, which can tell owners apart', () => {
    expect(ownerNameKey('ACME HOLDINGS L.L.C.')).toBe('ACME HOLDINGS LLC');
    expect(ownerNameKey('Acme Holdings, Incorporated')).toBe('ACME HOLDINGS INC');
    expect(ownerNameKey('ACME HOLDINGS LLC')).not.toBe(ownerNameKey('ACME HOLDINGS INC'));
    expect(ownerNameKey('NORMAN PUGH NEWBY')).not.toBe(ownerNameKey('NORMAN A PUGH NEWBY'));
  });

  it('matches the key the service gives as the basis of its same-owner link', () => {
    const sameOwner = fixtures.relationshipsPoozesh.envelope.data.edges.find((edge) => edge.predicate === 'same_owner');
    const published = fixtures.searchPoozesh.envelope.data.items[0]?.facts?.owner_name?.value ?? '';
    expect(sameOwner?.basis).toBe(ownerNameKey(published));
  });
});
