import { describe, expect, it } from 'vitest';
import { buildGraph, graphSpec } from './build-graph.ts';
import { envelope } from './test-kit.ts';
import { drawnCountLine, drawnGraph, squareOf, streetOf } from './portfolio-groups.ts';

const OWNER = 'owner:DISTRICT OF COLUMBIA';
// The sample's first two pages of DISTRICT OF COLUMBIA's holdings: 20 parcels, each a property on its parcel.
const dc = () => {
  const { model } = buildGraph(OWNER, [
    { kind: 'owner-search', name: 'DISTRICT OF COLUMBIA', envelope: envelope('searchDc1') },
    { kind: 'owner-search', name: 'DISTRICT OF COLUMBIA', envelope: envelope('searchDc2') },
  ]);
  return { model, view: graphSpec(model) };
};

describe('grouping a large owner’s holdings', () => {
  it('draws an owner of no more holdings than the threshold as it is', () => {
    const { model, view } = dc();
    const drawn = drawnGraph(view, model, { by: 'street', open: new Set() });
    expect(drawn.groups).toEqual([]);
    expect(drawn.spec.nodes).toEqual(view.spec.nodes);
    expect(drawn.spec.edges).toEqual(view.spec.edges);
    expect(drawn.counts).toMatchObject({ entities: 41, links: 40, closedGroups: 0, insideClosed: 0, allEntities: 41 });
  });

  it('groups the holdings by street (a dozen at most, the rest in one), each closed group one node linked to the owner, counting parcels', () => {
    const { model, view } = dc();
    const drawn = drawnGraph(view, model, { by: 'street', open: new Set(), above: 5 });
    expect(drawn.groups.map((group) => [group.label, group.holdings])).toEqual([
      ['8TH ST NW', 3],
      ['9TH ST NW', 5],
      ['S ST NW', 3],
      ['V ST NW', 3],
      // U ST NW's 2 and the 4 streets of one holding each share one group.
      ['Other streets', 6],
    ]);
    // Every holding of the owner is in a group.
    expect(drawn.groups.reduce((sum, group) => sum + group.holdings, 0)).toBe(20);
    const ninth = drawn.groups.find((group) => group.label === '9TH ST NW')!;
    const ids = new Set(drawn.spec.nodes.map((node) => node.id));
    expect(ninth.members.some((id) => ids.has(id))).toBe(false);
    expect(drawn.spec.edges.find((edge) => edge.source === ninth.id)).toMatchObject({ target: OWNER, label: 'owned by (5 holdings)', strength: 'fact' });
    expect(drawn.spec.nodes.find((node) => node.id === ninth.id)).toMatchObject({ label: '9TH ST NW', sublabel: '5 holdings · closed', expandable: true, group: { holdings: 5, open: false } });
    // Every drawn link has both its ends drawn.
    expect(drawn.spec.edges.every((edge) => ids.has(edge.source) && ids.has(edge.target))).toBe(true);
  });

  it('counts what the canvas draws: drawn plus inside closed groups is every entity of the table', () => {
    const { model, view } = dc();
    for (const by of ['street', 'square', 'use'] as const) {
      const drawn = drawnGraph(view, model, { by, open: new Set(), above: 5 });
      const groups = drawn.spec.nodes.filter((node) => node.group);
      expect(drawn.counts.entities).toBe(drawn.spec.nodes.length - groups.length);
      expect(drawn.counts.closedGroups).toBe(groups.length);
      expect(drawn.counts.entities + drawn.counts.insideClosed).toBe(view.spec.nodes.length);
      expect(groups.reduce((sum, node) => sum + node.group!.entities, 0)).toBe(drawn.counts.insideClosed);
    }
    const drawn = drawnGraph(view, model, { by: 'square', open: new Set(), above: 5 });
    expect(drawnCountLine(drawn.counts)).toBe(
      'Drawn: 1 entity and 0 links, with 3 closed groups holding 40 more entities (open a group to draw them). The table lists all 41 entities and 40 links.',
    );
    expect(drawn.spec.altText).toContain('Drawn: 1 entity and 0 links');
  });

  it('opens a group on demand: its holdings drawn inside it, and what hangs from them', () => {
    const { model, view } = dc();
    const closed = drawnGraph(view, model, { by: 'square', open: new Set(), above: 5 });
    const square = closed.groups.find((group) => group.label === 'Square 0400')!;
    const opened = drawnGraph(view, model, { by: 'square', open: new Set([square.id]), above: 5 });
    const inside = opened.spec.nodes.filter((node) => node.parent === square.id);
    expect(inside.map((node) => node.id).sort()).toEqual([...square.members].sort());
    expect(opened.spec.nodes.find((node) => node.id === square.id)).toMatchObject({ sublabel: '8 holdings · open', group: { open: true } });
    expect(opened.spec.edges.some((edge) => edge.source === square.id)).toBe(false);
    // The 8 holdings and the 8 properties on them are drawn now.
    expect(opened.counts.entities).toBe(closed.counts.entities + 16);
    expect(opened.counts).toMatchObject({ openGroups: 1, closedGroups: 2 });
  });

  it('reads a street without its house number and a square from its SSL', () => {
    expect(streetOf('1708 21ST ST NW')).toBe('21ST ST NW');
    expect(streetOf('1400-1412 8TH ST NW')).toBe('8TH ST NW');
    expect(streetOf('V ST NW')).toBe('V ST NW');
    expect(squareOf('0175    0826')).toBe('0175');
    expect(squareOf('PAR 01510123')).toBe('PAR 0151');
  });
});
