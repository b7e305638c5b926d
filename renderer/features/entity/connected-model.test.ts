import { describe, expect, it } from 'vitest';
import { envelope, ids } from '../../../shared/graph/test-kit.ts';
import { connectedView } from './connected-model.ts';
import { countText } from './ConnectedSection.tsx';
import { independentRelationships, RELATIONSHIP_IDS } from '../../../shared/service/dialect-test-kit.ts';

const lines = (view: ReturnType<typeof connectedView>) =>
  view.groups.map((group) => [group.label, group.entries.map((entry) => `${entry.via ? `${entry.via.name.label} — ${entry.label} → ` : ''}${entry.other.kindLabel} ${entry.other.name.label}`)]);

describe('connectedView', () => {
  it('names every linked entity by what a person recognises and reads each link from the page’s entity', () => {
    const view = connectedView(ids.property1708, [envelope('relationships1708Depth2')], envelope('entityProperty1708'));
    expect(view.root.name.label).toBe('1708 21ST ST NW');
    expect(lines(view)).toEqual([
      ['Located on', ['Parcel SSL 0065 0007']],
      ['Taxed under', ['Tax account Account 0065 0007']],
      ['Has address', ['Address 1708 21ST ST NW']],
      ['Owned by', ['Owner JOEL KUIPERS']],
    ]);
    const owner = view.groups.at(-1)?.entries[0];
    expect(owner?.other).toMatchObject({ ownerName: 'JOEL KUIPERS', openable: false });
    expect(owner).toMatchObject({ rule: 'owner_of_record', strength: 'fact', because: 'The ownership record of 1708 21ST ST NW names “JOEL KUIPERS” as its owner.' });
    // Each link cites its supporting records: the account by the ownership and assessment rows.
    const account = view.groups[1]?.entries[0];
    expect(account?.citationIds.map((id) => view.citations.get(id)?.sourceId)).toEqual(['dc_otr_ownership', 'dc_otr_assessment']);
    expect(account?.other.openable).toBe(true);
    expect(countText(view, 2)).toBe('4 entities within 2 links');
  });

  it('says links further out as a path from the entity they start at, and a same-name link as a lead about one owner', () => {
    const view = connectedView(ids.propertyPoozesh, [envelope('relationshipsPoozesh')]);
    const further = view.groups.find((group) => group.further);
    expect(further).toMatchObject({ label: 'Same owner name as', leads: true, ownerName: 'ABDOLLAH POOZESH' });
    expect(lines(view).at(-1)).toEqual(['Same owner name as', ['Account 0178 0087 — same owner name as → Tax account Account 0180 0031']]);
    expect(further?.entries[0]).toMatchObject({ depth: 2, strength: 'lead', rule: 'same_owner_name' });
  });

  it('marks every link through a placeholder SSL as a lead that says the key is not valid, and shows the records’ own limitations', () => {
    const view = connectedView(ids.parcelPlaceholder, [envelope('relationshipsPlaceholder')], envelope('entityPlaceholder'));
    expect(view.root.name.label).toBe('SSL 0000 0000: not a valid parcel key');
    expect(view.groups.map((group) => [group.label, group.entries.length, group.leads])).toEqual([
      ['Has address', 3, true],
      ['Has permit', 4, true],
    ]);
    expect(view.groups[0]?.entries[0]?.warning).toMatch(/^A lead, not a fact: SSL 0000 0000 is a placeholder/);
    expect(view.groups[1]?.entries.map((entry) => [entry.other.name.label, entry.other.openable])).toContainEqual(['Permit B1401123', false]);

    // A traversal from the rebuilt sample: the permit record says itself that its SSL keys no parcel.
    const page = envelope('relationshipsPlaceholder') as { data: { nodes: Array<Record<string, unknown>> } };
    const permit = page.data.nodes.find((node) => node.node_type === 'record');
    if (permit) permit.limitations = ['Its published SSL "0000 0000" is a placeholder (square and lot 0000), not a valid parcel key.'];
    const withNote = connectedView(ids.parcelPlaceholder, [page]);
    const noted = withNote.groups.flatMap((group) => group.entries).find((entry) => entry.other.id === permit?.id);
    expect(noted?.other.limitations).toEqual(['Its published SSL "0000 0000" is a placeholder (square and lot 0000), not a valid parcel key.']);
  });

  it('says how much of a capped answer is listed and that the service stopped', () => {
    const view = connectedView(ids.property1708, [envelope('relationships1708Capped')]);
    expect(view).toMatchObject({ linksHeld: 2, linksFound: 3, stopped: '3 entities' });
    expect(countText(view, 2)).toBe('2 entities within 2 links · 2 of 3 links listed · the service stopped at 3 entities, so more may be linked');
  });

  it('keeps what it can read when an answer is an error, and says so', () => {
    const view = connectedView(ids.parcel1708, [envelope('connectedNotFound')]);
    expect(view.groups).toEqual([]);
    expect(view.problems).toEqual([expect.stringMatching(/^The relationships answer is an error \(not_found\)/)]);
  });
});

describe('connectedView of another service’s traversal', () => {
  it('lists every link of nodes {entity_ref, entity_kind, label, depth}, an unknown predicate as published and marked, each cited', () => {
    const view = connectedView(RELATIONSHIP_IDS.property, [independentRelationships()]);
    expect(view.problems).toEqual([]);
    expect(lines(view)).toEqual([
      ['situs_of, read backwards — not recognised by Plat', ['Parcel SSL 0065 0007']],
      ['account_for, read backwards — not recognised by Plat', ['Tax account Account 0065 0007']],
      ['owner_of, read backwards — not recognised by Plat', ['Address 1708 21ST ST NW']],
    ]);
    const parcel = view.groups[0]?.entries[0];
    expect(parcel?.citationIds.map((id) => view.citations.get(id)?.publisher)).toEqual(['DC Office of Tax and Revenue']);
    expect(parcel?.other.openable).toBe(true);
    expect(countText(view, 1)).toBe('3 entities within 1 link');
  });
});
