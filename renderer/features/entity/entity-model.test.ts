import { describe, expect, it } from 'vitest';
import {
  attributeRows,
  canListConnected,
  canSummarise,
  entityKindLabel,
  groupConnected,
  identifierRows,
  provenanceCitations,
  relationshipGroups,
  shortEntityId,
  summaryView,
} from './entity-model.ts';

const PARCEL = 'parc_b224a646-7a37-5c5f-8006-5d110b6f4942';
const PROPERTY = 'prop_37d633c0-1111-5222-8333-944455556666';
const ACCOUNT = 'acct_1f8e5dc3-1111-5222-8333-944455556666';

const otr = { source: 'DC Office of Tax and Revenue', dataset: 'Real Property Tax Database', as_of: '2017-02-05T00:00:00Z', synthetic: false };
const synthetic = { source: 'Plat synthetic sample (not a public record)', dataset: 'Imputed characteristics', as_of: '2022-11-20T00:00:00Z', synthetic: true };

describe('entity ids', () => {
  it('names the kind behind each prefix, and shortens ids for lists', () => {
    expect(entityKindLabel(PARCEL)).toBe('parcel');
    expect(entityKindLabel(ACCOUNT)).toBe('tax account');
    expect(entityKindLabel('rec_abc')).toBe('entity');
    expect(shortEntityId(PARCEL)).toBe('parc_b224a646…');
    expect(shortEntityId('odd')).toBe('odd');
  });

  it('knows which ids the connected operation takes (not properties or loans) and which the summary takes', () => {
    expect(canListConnected(PARCEL)).toBe(true);
    expect(canListConnected(PROPERTY)).toBe(false);
    expect(canListConnected('parc_not-a-uuid')).toBe(false);
    expect(canSummarise(PROPERTY)).toBe(true);
    expect(canSummarise('rec_b224a646-7a37-5c5f-8006-5d110b6f4942')).toBe(false);
  });
});

describe('groupConnected', () => {
  it('groups by relation in first-seen order, nearest first, and flags name-only owner links', () => {
    const groups = groupConnected([
      { q_id: ACCOUNT, type: 'tax_account', relation: 'same_owner', via: PROPERTY, depth: 2, confidence: 0.85, explanation: 'Same owner name' },
      { q_id: PROPERTY, type: 'property', relation: 'located_in', via: PARCEL, depth: 1, citation: otr },
      { q_id: 'acct_00000000-1111-5222-8333-944455556666', type: 'tax_account', relation: 'same_owner', via: PARCEL, depth: 1 },
    ]);
    expect(groups.map((g) => [g.relation, g.label, g.entries.length, g.nameOnly])).toEqual([
      ['same_owner', 'Same owner name', 2, true],
      ['located_in', 'Located in', 1, false],
    ]);
    expect(groups[0]?.entries.map((e) => e.depth)).toEqual([1, 2]);
    expect(groups[0]?.entries[1]?.confidence).toBe(0.85);
    expect(groups[1]?.entries[0]?.citation?.publisher).toBe('DC Office of Tax and Revenue');
    expect(groups[1]?.entries[0]?.openable).toBe(true);
  });
});

describe('summaryView', () => {
  it('lists canonical fields in order, each best value cited, alternatives beside it, synthetic ones marked', () => {
    const view = summaryView({
      year_built: { value: 1890, status: 'synthetic', citation: synthetic, alternatives: [] },
      address: {
        value: '1128 6TH ST NW',
        status: 'reported',
        citation: otr,
        alternatives: [{ value: '1128 6th Street NW', status: 'reported', citation: { ...otr, source: 'DC Department of Consumer and Regulatory Affairs' } }],
      },
      limitations: ['living_area_sqft: no source in the sample publishes living area.'],
    });
    expect(view.rows.map((row) => row.field)).toEqual(['address', 'year_built']);
    const [address, year] = view.rows;
    expect(address?.best?.citation.publisher).toBe('DC Office of Tax and Revenue');
    expect(address?.alternatives.map((a) => [a.text, a.citation.publisher])).toEqual([['1128 6th Street NW', 'DC Department of Consumer and Regulatory Affairs']]);
    expect(year?.best?.synthetic).toBe(true);
    expect(year?.best?.citation.synthetic).toBe(true);
    expect(view.limitations).toHaveLength(1);
  });

  it('shows an entry of another shape as given, uncited, rather than inventing a citation', () => {
    const view = summaryView({ bedrooms: 4, custom_field: { anything: true } });
    expect(view.rows.map((row) => [row.field, row.best, row.raw])).toEqual([
      ['bedrooms', null, '4'],
      ['custom_field', null, '{"anything":true}'],
    ]);
  });
});

describe('the v2 record', () => {
  const sources = [
    { source_ref: 'rec_1', source_kind: 'record', publisher: 'DC Office of Tax and Revenue', captured_at: '2017-02-05T00:00:00Z', synthetic: 'false' },
    { source_ref: 'rec_2', source_kind: 'record', publisher: 'Plat synthetic sample (not a public record)', captured_at: '2022-11-20T00:00:00Z', synthetic: 'true' },
  ];

  it('reads the provenance block, synthetic written as text included', () => {
    const citations = provenanceCitations(sources);
    expect(citations.get('rec_1')?.synthetic).toBe(false);
    expect(citations.get('rec_2')?.synthetic).toBe(true);
  });

  it('cites identifiers through their source refs', () => {
    const rows = identifierRows([{ scheme: 'ssl', value: '0449    0040', source_refs: ['rec_1'] }, 'bare'], provenanceCitations(sources));
    expect(rows[0]).toMatchObject({ scheme: 'ssl', value: '0449    0040' });
    expect(rows[0]?.citation?.publisher).toBe('DC Office of Tax and Revenue');
    expect(rows[1]).toEqual({ scheme: '', value: 'bare', citation: null });
  });

  it('reads cited attributes with their alternatives, cites plain ones by source ref, and leaves the rest uncited', () => {
    const rows = attributeRows(
      {
        owner_name: { value: 'GALBRAITH AME ZION CHURCH', citation: otr, alternatives: [] },
        bedrooms: { value: 4, synthetic: true, citation: synthetic },
        zoning: { value: 'R-4', source_refs: ['rec_1'] },
        note: 'plain',
      },
      provenanceCitations(sources),
    );
    expect(rows.map((row) => [row.field, row.best?.text ?? null, row.best?.synthetic ?? null, row.raw])).toEqual([
      ['owner_name', 'GALBRAITH AME ZION CHURCH', false, null],
      ['bedrooms', '4', true, null],
      ['zoning', 'R-4', false, null],
      ['note', null, null, 'plain'],
    ]);
  });

  it('turns a relationship traversal into the same groups, records not openable', () => {
    const groups = relationshipGroups(
      {
        root_ref: PROPERTY,
        depth: 1,
        max_nodes: 100,
        max_edges: 200,
        nodes: [
          { id: PARCEL, node_type: 'entity', kind: 'parcel', label: '1128 6TH ST NW (parcel)' },
          { id: 'rec_9', node_type: 'record', kind: 'permit', label: 'permit B123' },
        ],
        edges: [
          { relationship_ref: 'rel_1', subject_ref: PROPERTY, predicate: 'located_in', object_ref: PARCEL, confidence: 1, source_refs: ['rec_1'], via_ref: PROPERTY },
          { relationship_ref: 'rel_2', subject_ref: PROPERTY, predicate: 'permitted_by', object_ref: 'rec_9', source_refs: [] },
        ],
      },
      sources,
    );
    expect(groups.map((g) => g.relation)).toEqual(['located_in', 'permitted_by']);
    expect(groups[0]?.entries[0]).toMatchObject({ qId: PARCEL, type: 'parcel', label: '1128 6TH ST NW', openable: true });
    expect(groups[0]?.entries[0]?.citation?.publisher).toBe('DC Office of Tax and Revenue');
    expect(groups[1]?.entries[0]).toMatchObject({ qId: 'rec_9', openable: false });
  });
});
