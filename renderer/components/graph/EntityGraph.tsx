// The one entity graph (cytoscape.js): typed nodes with a legend, labelled directed edges, leads
// drawn apart from facts and the researcher's decisions drawn on them. elk's layered layout reads a
// parcel → account → owner chain left to right; fcose spreads a portfolio. An expansion keeps what
// is drawn where it is and settles only the new nodes beside the node they hang from. Keyboard:
// arrow keys move through the nodes in a stable order, Enter expands, Space selects, E steps
// through the focused node's links; a live region says where the keyboard is.
import { useEffect, useId, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent } from 'react';
import type { GraphSpec } from '../../../shared/graph/graph-spec.ts';
import type { EntityGraphProps } from './graph-types.ts';
import { GraphCanvas } from './graph-canvas.ts';
import { GraphLegend } from './GraphLegend.tsx';
import { describeEdge, describeNode, drawableSpec, edgesOfNode, graphPalette, keyboardOrder, kindsIn, themeVariables } from './graph-style.ts';
import './graph.css';

export function EntityGraph({ spec, theme, selectedId, onSelectNode, onSelectEdge, onExpandNode, onLayoutDone, className }: EntityGraphProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<GraphCanvas | null>(null);
  const helpId = useId();
  const drawable = useMemo(() => drawableSpec(spec), [spec]);
  const order = useMemo(() => keyboardOrder(drawable.spec.nodes), [drawable]);
  const palette = useMemo(() => graphPalette(theme), [theme]);
  const kinds = useMemo(() => kindsIn(drawable.spec), [drawable]);
  const [ownSelection, setOwnSelection] = useState<string | null>(null);
  const selection = selectedId === undefined ? ownSelection : selectedId;
  const [focus, setFocus] = useState<{ nodeId: string | null; edgeId: string | null }>({ nodeId: null, edgeId: null });
  const [hasFocus, setHasFocus] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // A failed layout, for the spec it failed on (a later spec clears it).
  const [failure, setFailure] = useState<{ spec: GraphSpec; message: string } | null>(null);

  // The latest handlers and spec, for cytoscape's listeners (set once, when the canvas is made).
  const latest = useRef({ onSelectNode, onSelectEdge, onExpandNode, onLayoutDone, spec: drawable.spec });
  useEffect(() => {
    latest.current = { onSelectNode, onSelectEdge, onExpandNode, onLayoutDone, spec: drawable.spec };
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const canvas = new GraphCanvas(container, 'light', {
      nodeTapped: (id) => {
        setOwnSelection(id);
        setFocus({ nodeId: id, edgeId: null });
        latest.current.onSelectNode?.(id);
      },
      edgeTapped: (id) => {
        setOwnSelection(id);
        latest.current.onSelectEdge?.(id);
      },
      nodeDoubleTapped: (id) => {
        if (latest.current.spec.nodes.find((node) => node.id === id)?.expandable) latest.current.onExpandNode?.(id);
      },
      layoutDone: (elapsedMs) => latest.current.onLayoutDone?.(elapsedMs),
      failed: (message) => setFailure({ spec: latest.current.spec, message }),
    });
    canvasRef.current = canvas;
    return () => {
      canvasRef.current = null;
      canvas.destroy();
    };
  }, []);

  useEffect(() => canvasRef.current?.setTheme(theme), [theme]);

  useEffect(() => {
    canvasRef.current?.show(drawable.spec, performance.now());
  }, [drawable]);

  useEffect(() => {
    canvasRef.current?.setState({ selection, focusNode: focus.nodeId, focusEdge: focus.edgeId, showFocus: hasFocus });
  }, [selection, focus, hasFocus, drawable]);

  const say = (text: string) => setAnnouncement(text);

  const moveTo = (index: number) => {
    const id = order[Math.max(0, Math.min(order.length - 1, index))];
    if (id === undefined) return;
    setFocus({ nodeId: id, edgeId: null });
    say(describeNode(drawable.spec, id));
  };

  const selectNode = (id: string) => {
    setOwnSelection(id);
    onSelectNode?.(id);
  };

  const expand = (id: string) => {
    const node = drawable.spec.nodes.find((candidate) => candidate.id === id);
    if (!node) return;
    if (node.expandable) {
      onExpandNode?.(id);
      say(`More links of ${node.label} asked for.`);
    } else say(`No more links to show for ${node.label}.`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = focus.nodeId === null ? -1 : order.indexOf(focus.nodeId);
    const nodeId = current >= 0 ? focus.nodeId : null;
    const canvas = canvasRef.current;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowRight':
        moveTo(current + 1);
        break;
      case 'ArrowUp':
      case 'ArrowLeft':
        moveTo(current < 0 ? 0 : current - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(order.length - 1);
        break;
      case 'Enter':
        if (nodeId) expand(nodeId);
        break;
      case ' ':
        if (focus.edgeId) {
          setOwnSelection(focus.edgeId);
          onSelectEdge?.(focus.edgeId);
          const edge = drawable.spec.edges.find((candidate) => candidate.id === focus.edgeId);
          say(`Link “${edge?.label ?? focus.edgeId}” selected.`);
        } else if (nodeId) {
          selectNode(nodeId);
          say(`${drawable.spec.nodes.find((node) => node.id === nodeId)?.label ?? nodeId} selected.`);
        }
        break;
      case 'e':
      case 'E': {
        if (!nodeId) break;
        const edges = edgesOfNode(drawable.spec, nodeId);
        if (edges.length === 0) {
          say('This entity has no links drawn.');
          break;
        }
        const at = focus.edgeId === null ? -1 : edges.findIndex((edge) => edge.id === focus.edgeId);
        const index = event.shiftKey ? (at <= 0 ? edges.length - 1 : at - 1) : (at + 1) % edges.length;
        const edge = edges[index];
        if (!edge) break;
        setFocus({ nodeId, edgeId: edge.id });
        say(describeEdge(drawable.spec, edge.id, { index, count: edges.length }));
        break;
      }
      case 'Escape':
        // Back from a link to its node; otherwise Escape is the page's (close a panel, a dialog).
        if (!focus.edgeId || !nodeId) return;
        setFocus({ nodeId, edgeId: null });
        say(describeNode(drawable.spec, nodeId));
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
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    setHasFocus(true);
    // Reached by the keyboard: start at the first entity (a click picks its own node).
    if (event.currentTarget.matches(':focus-visible') && (focus.nodeId === null || !order.includes(focus.nodeId))) moveTo(0);
  };

  const problems = drawable.problems;
  return (
    <div className={`entity-graph entity-graph--${theme}${className ? ` ${className}` : ''}`} style={themeVariables(theme) as CSSProperties}>
      <div
        ref={containerRef}
        className="entity-graph__canvas"
        tabIndex={0}
        role="application"
        aria-roledescription="entity graph"
        aria-label={`Entity graph. ${drawable.spec.altText}`}
        aria-describedby={helpId}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={() => setHasFocus(false)}
      />
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {failure?.spec === drawable.spec && (
        <p className="notice notice--error entity-graph__notice" role="alert">
          The graph could not be laid out ({failure.message}). Its table lists every entity and link.
        </p>
      )}
      {problems.length > 0 && (
        <div className="notice notice--warning entity-graph__notice" role="status">
          <p>
            {problems.length === 1 ? 'One part of the graph is not drawn' : `${problems.length} parts of the graph are not drawn`}; the table lists them all.
          </p>
          <ul>
            {problems.slice(0, 3).map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
            {problems.length > 3 && <li>and {problems.length - 3} more.</li>}
          </ul>
        </div>
      )}
      <GraphLegend kinds={kinds} palette={palette} helpId={helpId} />
    </div>
  );
}
