import { describe, expect, it } from 'vitest';
import cytoscape from 'cytoscape';
import { placeEdgeLabels } from './graph-core.ts';

const graph = () =>
  cytoscape({
    headless: true,
    elements: [
      ...['a', 'b', 'c'].map((id) => ({ group: 'nodes' as const, data: { id } })),
      { group: 'edges' as const, data: { id: 'ab', source: 'a', target: 'b' }, classes: ['label-target'] },
      { group: 'edges' as const, data: { id: 'bc', source: 'b', target: 'c' } },
      { group: 'edges' as const, data: { id: 'ca', source: 'c', target: 'a' }, classes: ['label-source'] },
    ],
  });

const classesOf = (cy: cytoscape.Core) => Object.fromEntries(cy.edges().map((edge) => [edge.id(), ['label-source', 'label-target'].filter((name) => edge.hasClass(name))]));

describe('placeEdgeLabels', () => {
  it('moves each edge’s words to the end asked for, and to the middle when none is', () => {
    const cy = graph();
    placeEdgeLabels(cy, new Map([['ab', 'source'], ['bc', 'target']]));
    expect(classesOf(cy)).toEqual({ ab: ['label-source'], bc: ['label-target'], ca: [] });
  });

  it('restyles only the edges whose end changes', () => {
    const cy = graph();
    const restyled: string[] = [];
    cy.on('class', 'edge', (event) => restyled.push((event.target as cytoscape.EdgeSingular).id()));
    placeEdgeLabels(cy, new Map([['ab', 'target'], ['bc', 'source'], ['ca', 'source']]));
    expect(classesOf(cy)).toEqual({ ab: ['label-target'], bc: ['label-source'], ca: ['label-source'] });
    expect(restyled).toEqual(['bc']);
  });
});
