// The entity graph's keyboard: arrow keys, Home and End move through the nodes in a stable order,
// Enter expands, Space selects, E (Shift+E back) steps through the focused node's links, Escape goes
// back from a link to its node, + − 0 zoom; each move is said in the live region.
import type { KeyboardEvent } from 'react';
import type { GraphSpec } from '../../../shared/graph/graph-spec.ts';
import type { GraphCanvas } from './graph-canvas.ts';
import { describeEdge, describeNode, edgesOfNode } from './graph-style.ts';

export interface GraphFocus {
  nodeId: string | null;
  edgeId: string | null;
}

/** What the keys act on: the drawn spec, the keyboard's order and focus, and what the component does. */
export interface GraphKeys {
  spec: GraphSpec;
  order: readonly string[];
  focus: GraphFocus;
  /** The drawing, read when a key zooms (it is made after the first render). */
  canvas: () => GraphCanvas | null;
  setFocus: (focus: GraphFocus) => void;
  say: (text: string) => void;
  selectNode: (id: string) => void;
  selectEdge: (id: string) => void;
  expand: (id: string) => void;
}

/** Focus on the node at `index` in the keyboard's order (clamped), said aloud. */
export function moveFocus(keys: GraphKeys, index: number): void {
  const { order, spec } = keys;
  const id = order[Math.max(0, Math.min(order.length - 1, index))];
  if (id === undefined) return;
  keys.setFocus({ nodeId: id, edgeId: null });
  keys.say(describeNode(spec, id));
}

export function onGraphKey(event: KeyboardEvent<HTMLDivElement>, keys: GraphKeys): void {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const { spec, order, focus } = keys;
  const canvas = keys.canvas();
  const current = focus.nodeId === null ? -1 : order.indexOf(focus.nodeId);
  const nodeId = current >= 0 ? focus.nodeId : null;
  switch (event.key) {
    case 'ArrowDown':
    case 'ArrowRight':
      moveFocus(keys, current + 1);
      break;
    case 'ArrowUp':
    case 'ArrowLeft':
      moveFocus(keys, current < 0 ? 0 : current - 1);
      break;
    case 'Home':
      moveFocus(keys, 0);
      break;
    case 'End':
      moveFocus(keys, order.length - 1);
      break;
    case 'Enter':
      if (nodeId) keys.expand(nodeId);
      break;
    case ' ':
      if (focus.edgeId) {
        keys.selectEdge(focus.edgeId);
        const edge = spec.edges.find((candidate) => candidate.id === focus.edgeId);
        keys.say(`Link “${edge?.label ?? focus.edgeId}” selected.`);
      } else if (nodeId) {
        keys.selectNode(nodeId);
        keys.say(`${spec.nodes.find((node) => node.id === nodeId)?.label ?? nodeId} selected.`);
      }
      break;
    case 'e':
    case 'E': {
      if (!nodeId) break;
      const edges = edgesOfNode(spec, nodeId);
      if (edges.length === 0) {
        keys.say('This entity has no links drawn.');
        break;
      }
      const at = focus.edgeId === null ? -1 : edges.findIndex((edge) => edge.id === focus.edgeId);
      const index = event.shiftKey ? (at <= 0 ? edges.length - 1 : at - 1) : (at + 1) % edges.length;
      const edge = edges[index];
      if (!edge) break;
      keys.setFocus({ nodeId, edgeId: edge.id });
      keys.say(describeEdge(spec, edge.id, { index, count: edges.length }));
      break;
    }
    case 'Escape':
      // Back from a link to its node; otherwise Escape is the page's (close a panel, a dialog).
      if (!focus.edgeId || !nodeId) return;
      keys.setFocus({ nodeId, edgeId: null });
      keys.say(describeNode(spec, nodeId));
      break;
    case '+':
    case '=':
      canvas?.zoomBy(1.25);
      break;
    case '-':
      canvas?.zoomBy(0.8);
      break;
    case '0':
      canvas?.fit();
      break;
    default:
      return;
  }
  event.preventDefault();
}
