// Where an expansion's new nodes go: beside the drawn node they hang from, settled by a short fcose
// with the drawn ones held still, so what was drawn stays where it was.
import type cytoscape from 'cytoscape';
import type { GraphSpec } from '../../../shared/graph/graph-spec.ts';
import { BODIES_ONLY, positionOf, runLayout } from './graph-core.ts';
import { IDEAL_EDGE_LENGTH, LAYER_GAP, anchorsOfNewNodes, forceEdgeLength } from './graph-style.ts';

/**
 * Places the nodes an expansion added: each group beside the drawn node it hangs from (layered:
 * one column after or before it, as its edges point; force: fanned out away from that node's drawn
 * neighbours), then a short fcose over them and the drawn nodes around them, the drawn ones fixed,
 * so the new ones settle without overlapping. Returns the added nodes.
 */
export async function placeNewNodes(cy: cytoscape.Core, spec: GraphSpec, drawnIds: ReadonlySet<string>): Promise<cytoscape.NodeCollection> {
  const anchors = anchorsOfNewNodes(spec, drawnIds);
  const groups = new Map<string, { anchorId: string; side: 'after' | 'before'; ids: string[] }>();
  const loose: string[] = [];
  for (const [id, anchor] of anchors) {
    if (!anchor) {
      loose.push(id);
      continue;
    }
    const key = `${anchor.side}\u0000${anchor.anchorId}`;
    const group = groups.get(key) ?? { ...anchor, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
  }
  const drawn = cy.nodes().filter((node) => drawnIds.has(node.id())).nodes();
  const drawnBox = drawn.boundingBox(BODIES_ONLY);
  const seeds = new Map<string, { x: number; y: number }>();
  for (const group of groups.values()) {
    const anchor = cy.getElementById(group.anchorId) as cytoscape.NodeSingular;
    const at = positionOf(anchor);
    const count = group.ids.length;
    if (spec.layout === 'layered') {
      const x = at.x + (group.side === 'after' ? 1 : -1) * (LAYER_GAP + anchor.width());
      group.ids.forEach((id, index) => seeds.set(id, { x, y: at.y + (index - (count - 1) / 2) * 84 }));
    } else {
      // Fan out on the side away from the anchor's drawn neighbours (or from the graph's middle).
      const neighbours = anchor.neighborhood('node').filter((node) => drawnIds.has(node.id()));
      const from = neighbours.nonempty() ? neighbours.boundingBox(BODIES_ONLY) : drawnBox;
      const dx = at.x - (from.x1 + from.x2) / 2;
      const dy = at.y - (from.y1 + from.y2) / 2;
      const angle = dx === 0 && dy === 0 ? 0 : Math.atan2(dy, dx);
      const spread = Math.min(2 * Math.PI, Math.max(Math.PI / 2, count * 0.5));
      const radius = Math.max(IDEAL_EDGE_LENGTH, (count * 64) / spread);
      group.ids.forEach((id, index) => {
        const a = angle + spread * ((index + 0.5) / count - 0.5);
        seeds.set(id, { x: at.x + radius * Math.cos(a), y: at.y + radius * Math.sin(a) });
      });
    }
  }
  loose.forEach((id, index) => seeds.set(id, { x: drawnBox.x2 + LAYER_GAP, y: drawnBox.y1 + index * 72 }));
  cy.batch(() => {
    for (const [id, position] of seeds) cy.getElementById(id).position(position);
  });
  const added = cy.nodes().filter((node) => seeds.has(node.id()));
  if (added.empty()) return added;

  const box = added.boundingBox(BODIES_ONLY);
  const margin = 2 * IDEAL_EDGE_LENGTH;
  // An open group's box follows its holdings: it is never fixed itself.
  const context = drawn.filter((node) => !node.isParent()).nodes().filter((node) => {
    const { x, y } = node.position();
    return x >= box.x1 - margin && x <= box.x2 + margin && y >= box.y1 - margin && y <= box.y2 + margin;
  });
  const anchorIds = new Set([...groups.values()].map((group) => group.anchorId));
  const anchorNodes = cy.nodes().filter((node) => anchorIds.has(node.id()));
  const fixed = context.union(anchorNodes).nodes();
  const nodes = added.union(fixed);
  const edges = nodes.connectedEdges().filter((edge) => nodes.has(edge.source()) && nodes.has(edge.target()));
  const columns = [...groups.values()].filter((group) => group.ids.length > 1).map((group) => group.ids);
  await runLayout(nodes.union(edges), {
    name: 'fcose',
    quality: 'proof',
    randomize: false,
    animate: false,
    fit: false,
    nodeDimensionsIncludeLabels: true,
    nodeRepulsion: 15000,
    idealEdgeLength: spec.layout === 'layered' ? LAYER_GAP : forceEdgeLength,
    nodeSeparation: 90,
    numIter: 300,
    packComponents: false,
    tile: false,
    fixedNodeConstraint: fixed.map((node) => ({ nodeId: node.id(), position: positionOf(node) })),
    ...(spec.layout === 'layered'
      ? {
          ...(columns.length > 0 ? { alignmentConstraint: { vertical: columns } } : {}),
          relativePlacementConstraint: [...groups.values()].flatMap((group) =>
            group.ids.map((id) => (group.side === 'after' ? { left: group.anchorId, right: id, gap: LAYER_GAP } : { left: id, right: group.anchorId, gap: LAYER_GAP })),
          ),
        }
      : {}),
  });
  return added;
}
