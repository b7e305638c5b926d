import { describe, expect, it } from 'vitest';
import { graphNodeKinds, type GraphEdge, type GraphNode, type GraphSpec } from '../../../shared/graph/graph-spec.ts';
import {
  anchorsOfNewNodes,
  describeEdge,
  describeNode,
  diffGraphSpecs,
  drawableSpec,
  edgeCaption,
  edgeLook,
  fullLayoutOptions,
  graphPalette,
  hubEdgeLength,
  IDEAL_EDGE_LENGTH,
  graphStylesheet,
  keyboardOrder,
  kindLooks,
  labelEnds,
  readDesignTokens,
  themeVariables,
  toElements,
} from './graph-style.ts';

// The tokens the graph paints with, as renderer/design/tokens.css declares them (vitest reads a CSS
// import as empty, so the test carries its own copy).
const tokensCss = `/* Plat's design system. */
:root {
  --font-ui: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  --text-xs: 11px;
  --text-sm: 12px;
  --color-bg: #ffffff;
  --color-text: #1c2027;
  --color-text-muted: #5b6372;
  --color-text-faint: #6b7280;
  --color-focus: #2f5fd0;
  --color-accent: #2f5fd0;
  --color-success: #1d7a46;
  --color-warning: #8a5a00;
  --space-1: 4px;
}
@media (prefers-color-scheme: dark) {
  :root {
    --color-bg: #17191d;
    --color-text: #e3e6eb;
    --color-text-muted: #a2a9b5;
    --color-text-faint: #8d95a2;
    --color-accent: #6f97f5;
    --color-focus: #8aabf7;
    --color-success: #4cc38a;
    --color-warning: #e2b14f;
  }
}`;
const tokens = readDesignTokens(tokensCss);

const node = (id: string, kind: GraphNode['kind'], label: string, depth: number, extra: Partial<GraphNode> = {}): GraphNode => ({
  id,
  kind,
  label,
  sublabel: `${kind} detail`,
  root: depth === 0,
  depth,
  expandable: false,
  ...extra,
});
const edge = (id: string, source: string, target: string, label: string, extra: Partial<GraphEdge> = {}): GraphEdge => ({
  id,
  source,
  target,
  label,
  strength: 'fact',
  decision: null,
  confidence: null,
  ...extra,
});

// 1708 21ST ST NW → SSL 0065 0007 → account → JOEL KUIPERS, who (a lead says) also owns another holding.
const chain: GraphSpec = {
  layout: 'layered',
  nodes: [
    node('p0', 'property', '1708 21ST ST NW', 0),
    node('s0', 'parcel', 'SSL 0065 0007', 1),
    node('t0', 'tax_account', 'Account 0065-0007', 2),
    node('o0', 'owner', 'JOEL KUIPERS', 3),
    node('p1', 'property', '1527 17TH ST NW', 4, { expandable: true }),
    node('u1', 'unit', '3300 16TH ST NW #412', 4),
  ],
  edges: [
    edge('e1', 'p0', 's0', 'located on'),
    edge('e2', 's0', 't0', 'taxed under'),
    edge('e3', 't0', 'o0', 'owned by'),
    edge('e4', 'o0', 'p1', 'also owns', { strength: 'lead', confidence: 0.72 }),
    edge('e5', 'o0', 'u1', 'also owns', { strength: 'lead', decision: 'cut', confidence: 0.41 }),
  ],
  altText: 'A chain from 1708 21ST ST NW to its owner.',
};

describe('design tokens', () => {
  it('reads each theme from tokens.css, the dark block overriding the light one', () => {
    const tokens = readDesignTokens(`/* --color-bg: #000000; in a comment */
      :root { --color-bg: #ffffff; --color-warning: #8a5a00; --space-1: 4px; }
      @media (prefers-color-scheme: dark) { :root { --color-bg: #17191d; } }`);
    expect(tokens.light['--color-bg']).toBe('#ffffff');
    expect(tokens.dark['--color-bg']).toBe('#17191d');
    // Not overridden: the light value carries over.
    expect(tokens.dark['--color-warning']).toBe('#8a5a00');
  });

  it('paints leads, confirmations and the background with the tokens of the chosen theme', () => {
    const light = graphPalette('light', tokens);
    const dark = graphPalette('dark', tokens);
    expect(light.lead).toBe(tokens.light['--color-warning']);
    expect(light.confirmed).toBe(tokens.light['--color-success']);
    expect(light.background).toBe(tokens.light['--color-bg']);
    expect(dark.background).toBe(tokens.dark['--color-bg']);
    expect(dark.lead).not.toBe(light.lead);
    expect(light.fontFamily).toContain('Segoe UI');
    expect(themeVariables('dark', tokens)['--color-bg']).toBe('#17191d');
    expect(Object.keys(themeVariables('light', tokens))).toContain('--color-warning');
    expect(Object.keys(themeVariables('light', tokens)).every((name) => name.startsWith('--color-'))).toBe(true);
  });

  it('names the missing token when tokens.css loses one the graph needs', () => {
    const partial = readDesignTokens(':root { --color-bg: #fff; }');
    expect(() => graphPalette('light', partial)).toThrow(/no --color-text for the light theme/);
  });
});

describe('elements from a spec', () => {
  it('classes nodes by kind, marks the root and the expandable ones, and captions two lines', () => {
    const elements = toElements(chain);
    const root = elements.find((element) => element.data.id === 'p0');
    const holding = elements.find((element) => element.data.id === 'p1');
    expect(root?.classes).toEqual(['kind-property', 'root']);
    expect(holding?.classes).toEqual(['kind-property', 'expandable']);
    expect(elements.find((element) => element.data.id === 't0')?.classes).toEqual(['kind-tax_account']);
    expect(root?.data.caption).toBe('1708 21ST ST NW\nproperty detail');
    expect(root?.group).toBe('nodes');
  });

  it('draws leads, confirmed and cut links apart, in class and in words', () => {
    const elements = toElements({
      ...chain,
      edges: [...chain.edges, edge('e6', 'o0', 'p0', 'same person as', { strength: 'lead', decision: 'confirmed', confidence: 0.9 })],
    });
    const classesOf = (id: string) => elements.find((element) => element.data.id === id)?.classes;
    expect(classesOf('e3')).toEqual(['fact']);
    expect(classesOf('e4')).toEqual(['lead']);
    expect(classesOf('e5')).toEqual(['lead', 'cut']);
    expect(classesOf('e6')).toEqual(['lead', 'confirmed']);
    expect(elements.find((element) => element.data.id === 'e4')?.data).toMatchObject({ source: 'o0', target: 'p1', caption: '⚠ also owns · 72%' });
    expect(edgeCaption(chain.edges[4]!)).toBe('✕ also owns (cut)');
    expect(edgeCaption({ ...chain.edges[3]!, decision: 'confirmed' })).toBe('✓ also owns');
    expect(edgeCaption({ ...chain.edges[3]!, confidence: null })).toBe('⚠ also owns');
    expect(edgeCaption(chain.edges[0]!)).toBe('located on');
    expect(chain.edges.map(edgeLook)).toEqual(['fact', 'fact', 'fact', 'lead', 'cut']);
  });

  it('moves the words of a hub’s links to their quieter end', () => {
    const holdings = Array.from({ length: 6 }, (_, index) => node(`h${index}`, 'property', `${1500 + index} R ST NW`, 1));
    const portfolio: GraphSpec = {
      layout: 'force',
      nodes: [node('dc', 'owner', 'DISTRICT OF COLUMBIA', 0), ...holdings],
      edges: holdings.map((holding, index) => edge(`o${index}`, holding.id, 'dc', 'owned by')),
      altText: 'A portfolio.',
    };
    const ends = labelEnds(portfolio);
    expect(ends.get('o0')).toBe('source');
    expect(ends.size).toBe(6);
    expect(toElements(portfolio).find((element) => element.data.id === 'o0')?.classes).toEqual(['fact', 'label-source']);
    // A chain has no hub: its words stay in the middle.
    expect(labelEnds(chain).size).toBe(0);
  });

  it('draws a dense graph’s links without words until pointed at, selected or focused, on screen and in the image', () => {
    const holdings = Array.from({ length: 26 }, (_, index) => node(`h${index}`, 'property', `${1500 + index} R ST NW`, 1));
    const dense: GraphSpec = {
      layout: 'force',
      nodes: [node('dc', 'owner', 'DISTRICT OF COLUMBIA', 0), ...holdings],
      edges: holdings.map((holding, index) => edge(`o${index}`, holding.id, 'dc', 'owned by')),
      altText: 'A portfolio.',
    };
    expect(toElements(dense).find((element) => element.data.id === 'o0')?.classes).toEqual(['fact', 'label-source', 'quiet']);
    expect(toElements({ ...dense, edges: dense.edges.slice(0, 25) }).find((element) => element.data.id === 'o0')?.classes).toEqual(['fact', 'label-source']);
    const style = graphStylesheet('light', { tokens }) as Array<{ selector: string; style: Record<string, unknown> }>;
    expect(style.find((block) => block.selector === 'edge.quiet')?.style).toMatchObject({ label: '', 'source-label': '', 'target-label': '' });
    const shown = style.find((block) => block.selector.includes('edge.quiet.hovered'));
    expect(shown?.selector).toContain('edge.quiet.is-selected');
    expect(shown?.style.label).toBe('data(caption)');
    // Later rules win in cytoscape: the pointed-at words come after the quiet rule and the end rules.
    expect(style.indexOf(shown!)).toBeGreaterThan(style.findIndex((block) => block.selector === 'edge.label-source'));
  });

  it('adds an open group before the holdings drawn inside it, a closed group as one node', () => {
    const spec: GraphSpec = {
      layout: 'force',
      nodes: [
        node('dc', 'owner', 'DISTRICT OF COLUMBIA', 0),
        node('h1', 'property', '1 R ST NW', 1, { parent: 'group:r' }),
        node('group:r', 'property', 'R ST NW', 1, { group: { holdings: 1, entities: 1, open: true } }),
        node('group:s', 'property', 'S ST NW', 1, { group: { holdings: 4, entities: 8, open: false }, expandable: true }),
      ],
      edges: [edge('o1', 'h1', 'dc', 'owned by'), edge('g', 'group:s', 'dc', 'owned by (4 holdings)')],
      altText: 'Groups.',
    };
    const elements = toElements(spec);
    const ids = elements.map((element) => element.data.id);
    expect(ids.indexOf('group:r')).toBeLessThan(ids.indexOf('h1'));
    expect(elements.find((element) => element.data.id === 'h1')?.data.parent).toBe('group:r');
    expect(elements.find((element) => element.data.id === 'group:s')?.classes).toEqual(['kind-property', 'expandable', 'group', 'group-closed']);
    expect(elements.find((element) => element.data.id === 'group:r')?.classes).toEqual(['kind-property', 'group', 'group-open']);
  });

  it('leaves out what cannot be drawn and says why, drawing the rest', () => {
    const broken: GraphSpec = {
      ...chain,
      nodes: [...chain.nodes, node('p0', 'address', 'a second p0', 1)],
      edges: [...chain.edges, edge('e9', 'o0', 'gone', 'owned by'), edge('e1', 'p0', 't0', 'a second e1')],
    };
    const { spec, problems } = drawableSpec(broken);
    expect(spec.nodes).toHaveLength(chain.nodes.length);
    expect(spec.edges.map((item) => item.id)).toEqual(chain.edges.map((item) => item.id));
    expect(problems).toEqual([
      'Two entities share the id p0; only the first (1708 21ST ST NW) is drawn, not a second p0.',
      'The link “owned by” (e9) is not drawn: gone is not in the graph.',
      'The link e1 (a second e1) is not drawn: its id is already used in the graph.',
    ]);
    expect(drawableSpec(chain).problems).toEqual([]);
  });
});

describe('what changes on screen', () => {
  const grown: GraphSpec = {
    ...chain,
    nodes: [...chain.nodes.map((item) => (item.id === 'p1' ? { ...item, expandable: false } : item)), node('s1', 'parcel', 'SSL 0178 0042', 5), node('b1', 'building', 'Rowhouse', 5)],
    edges: [...chain.edges, edge('e7', 'p1', 's1', 'located on'), edge('e8', 'b1', 'p1', 'stands on')],
  };

  it('lays out everything the first time, when the layout changes, and when a lone root grows', () => {
    expect(diffGraphSpecs(null, chain).layout).toBe('full');
    expect(diffGraphSpecs(chain, { ...chain, layout: 'force' }).layout).toBe('full');
    const root = chain.nodes[0]!;
    expect(diffGraphSpecs({ ...chain, nodes: [root], edges: [] }, chain).layout).toBe('full');
    expect(diffGraphSpecs(null, { ...chain, nodes: [], edges: [] }).layout).toBe('none');
  });

  it('places only the new nodes after an expansion, and updates the expanded one', () => {
    const diff = diffGraphSpecs(chain, grown);
    expect(diff.layout).toBe('incremental');
    expect(diff.addedNodes.map((item) => item.id)).toEqual(['s1', 'b1']);
    expect(diff.addedEdges.map((item) => item.id)).toEqual(['e7', 'e8']);
    expect(diff.changedNodes.map((item) => item.id)).toEqual(['p1']);
    expect(diff.removedNodeIds).toEqual([]);
  });

  it('moves nothing when only a decision changes, and re-adds an edge whose ends changed', () => {
    const decided = { ...chain, edges: chain.edges.map((item) => (item.id === 'e4' ? { ...item, decision: 'confirmed' as const } : item)) };
    const diff = diffGraphSpecs(chain, decided);
    expect(diff.layout).toBe('none');
    expect(diff.changedEdges.map((item) => item.id)).toEqual(['e4']);
    const rewired = { ...chain, edges: chain.edges.map((item) => (item.id === 'e4' ? { ...item, target: 'u1' } : item)) };
    const rewiredDiff = diffGraphSpecs(chain, rewired);
    expect(rewiredDiff.removedEdgeIds).toEqual(['e4']);
    expect(rewiredDiff.addedEdges.map((item) => item.id)).toEqual(['e4']);
    expect(rewiredDiff.changedEdges).toEqual([]);
  });

  it('hangs each new node from the drawn node it was expanded from, on the side its edge points to', () => {
    const anchors = anchorsOfNewNodes(grown, new Set(chain.nodes.map((item) => item.id)));
    expect(anchors.get('s1')).toEqual({ anchorId: 'p1', side: 'after' });
    expect(anchors.get('b1')).toEqual({ anchorId: 'p1', side: 'before' });
  });

  it('follows chains of new nodes, and leaves a node linked to nothing drawn without an anchor', () => {
    const further: GraphSpec = {
      ...grown,
      nodes: [...grown.nodes, node('t1', 'tax_account', 'Account 0178-0042', 6), node('lone', 'owner', 'NOBODY', 6)],
      edges: [...grown.edges, edge('e9', 's1', 't1', 'taxed under')],
    };
    const anchors = anchorsOfNewNodes(further, new Set(chain.nodes.map((item) => item.id)));
    expect(anchors.get('t1')).toEqual({ anchorId: 'p1', side: 'after' });
    expect(anchors.get('lone')).toBeNull();
  });
});

describe('keyboard and words', () => {
  it('orders nodes by depth, then label (numbers as numbers), then id', () => {
    const nodes = [node('b', 'property', '10 R ST NW', 1), node('a', 'property', '9 R ST NW', 1), node('r', 'owner', 'ZED', 0), node('c', 'parcel', '9 R ST NW', 1)];
    expect(keyboardOrder(nodes)).toEqual(['r', 'a', 'c', 'b']);
  });

  it('tells where the keyboard is: kind, label, links, leads to check, whether it expands, position', () => {
    expect(describeNode(chain, 'p0')).toBe('Property: 1708 21ST ST NW (where the graph starts). property detail. 1 link. 1 of 6.');
    // The cut lead is decided: only the open one is "to check".
    expect(describeNode(chain, 'o0')).toBe('Owner: JOEL KUIPERS. owner detail. 3 links, 1 lead to check. 4 of 6.');
    expect(describeNode(chain, 'p1')).toContain('Enter shows more links.');
    expect(describeEdge(chain, 'e4', { index: 0, count: 3 })).toBe('JOEL KUIPERS also owns 1527 17TH ST NW. A lead, not a fact (72% confidence). Link 1 of 3. Space selects it.');
    expect(describeEdge(chain, 'e5')).toContain('; cut by the researcher.');
    expect(describeEdge(chain, 'e1')).toContain('From the records.');
  });
});

describe('stylesheet and layouts', () => {
  const styleOf = (sheet: ReturnType<typeof graphStylesheet>, selector: string) => {
    const block = sheet.find((item) => item.selector === selector);
    return (block && 'style' in block ? block.style : undefined) as Record<string, unknown> | undefined;
  };

  it('gives every kind its own shape and colour', () => {
    const sheet = graphStylesheet('light', { tokens });
    const shapes = new Set(graphNodeKinds.map((kind) => styleOf(sheet, `node.kind-${kind}`)?.shape));
    const fills = new Set(graphNodeKinds.map((kind) => styleOf(sheet, `node.kind-${kind}`)?.['background-color']));
    expect(shapes.size).toBe(graphNodeKinds.length);
    expect(fills.size).toBe(graphNodeKinds.length);
    expect(styleOf(sheet, 'node.kind-tax_account')?.shape).toBe(kindLooks.tax_account.shape);
  });

  it('dashes leads in the warning colour, draws confirmed solid and cut dotted and faded', () => {
    for (const theme of ['light', 'dark'] as const) {
      const sheet = graphStylesheet(theme, { tokens });
      const palette = graphPalette(theme, tokens);
      expect(styleOf(sheet, 'edge.lead')).toMatchObject({ 'line-style': 'dashed', 'line-color': palette.lead });
      expect(styleOf(sheet, 'edge.confirmed')).toMatchObject({ 'line-style': 'solid', 'line-color': palette.confirmed });
      expect(styleOf(sheet, 'edge.cut')).toMatchObject({ 'line-style': 'dotted', opacity: 0.6 });
      // The decision is drawn over the kind of link: its block comes after the lead's.
      const order = sheet.map((item) => item.selector);
      expect(order.indexOf('edge.cut')).toBeGreaterThan(order.indexOf('edge.lead'));
    }
  });

  it('draws every label in print, and names fonts the way cytoscape parses them', () => {
    expect(styleOf(graphStylesheet('light', { print: true, tokens }), 'edge')?.['min-zoomed-font-size']).toBe(0);
    expect(styleOf(graphStylesheet('light', { tokens }), 'edge')?.['min-zoomed-font-size']).toBeGreaterThan(0);
    const fontFamily = String(styleOf(graphStylesheet('light', { tokens }), 'node')?.['font-family']);
    expect(fontFamily).toContain('"Segoe UI"');
    expect(fontFamily).not.toContain("'");
  });

  it('lays chains out with elk left to right and portfolios with fcose', () => {
    expect(fullLayoutOptions('layered', 10)).toMatchObject({ name: 'elk', elk: { algorithm: 'layered', 'elk.direction': 'RIGHT' } });
    expect(fullLayoutOptions('force', 40)).toMatchObject({ name: 'fcose', quality: 'proof', nodeDimensionsIncludeLabels: true, animate: false });
    expect(fullLayoutOptions('force', 2000)).toMatchObject({ name: 'fcose', quality: 'default', nodeDimensionsIncludeLabels: false });
  });

  it('lengthens a hub’s edges with the root of its links, leaving a chain’s alone', () => {
    expect(hubEdgeLength(1)).toBe(IDEAL_EDGE_LENGTH);
    expect(hubEdgeLength(2)).toBe(IDEAL_EDGE_LENGTH);
    expect(hubEdgeLength(6)).toBe(IDEAL_EDGE_LENGTH + 40);
    expect(hubEdgeLength(41)).toBeGreaterThan(hubEdgeLength(11));
  });
});

describe('redrawing a regrouped graph', () => {
  const member = (id: string): GraphNode => ({ id, kind: 'property', label: id, sublabel: '', root: false, depth: 1, expandable: true });
  const owner: GraphNode = { id: 'dc', kind: 'owner', label: 'DC', sublabel: '', root: true, depth: 0, expandable: false };
  const closedGroup: GraphNode = { ...member('group:dc:street:R ST NW'), group: { holdings: 2, entities: 2, open: false } };
  const spec = (nodes: GraphNode[]): GraphSpec => ({ layout: 'force', nodes, edges: [], altText: '' });

  it('lays the whole out again when groups are made or unmade, and places an opened group’s holdings alone', () => {
    expect(diffGraphSpecs(spec([owner, member('a'), member('b')]), spec([owner, closedGroup])).layout).toBe('full');
    expect(diffGraphSpecs(spec([owner, closedGroup]), spec([owner, member('a'), member('b')])).layout).toBe('full');
    const opened = { ...closedGroup, group: { holdings: 2, entities: 2, open: true } };
    expect(diffGraphSpecs(spec([owner, closedGroup]), spec([owner, opened, { ...member('a'), parent: opened.id }, { ...member('b'), parent: opened.id }])).layout).toBe('incremental');
  });
});
