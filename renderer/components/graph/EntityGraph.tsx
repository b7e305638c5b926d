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
import { moveFocus, onGraphKey, type GraphFocus, type GraphKeys } from './graph-keyboard.ts';
import { GraphLegend } from './GraphLegend.tsx';
import { drawableSpec, graphPalette, keyboardOrder, kindsIn, themeVariables } from './graph-style.ts';
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
  const [focus, setFocus] = useState<GraphFocus>({ nodeId: null, edgeId: null });
  const [hasFocus, setHasFocus] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // A failed layout, for the spec it failed on (a later spec clears it).
  const [failure, setFailure] = useState<{ spec: GraphSpec; message: string } | null>(null);
  // What cytoscape holds, on the canvas for anyone checking it against the status line.
  const [drawn, setDrawn] = useState<{ entities: number; groups: number; links: number } | null>(null);

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
        const node = latest.current.spec.nodes.find((candidate) => candidate.id === id);
        // A group opens and closes on demand; any other node expands when it has more to show.
        if (node?.expandable || node?.group) latest.current.onExpandNode?.(id);
      },
      layoutDone: (elapsedMs) => latest.current.onLayoutDone?.(elapsedMs),
      failed: (message) => setFailure({ spec: latest.current.spec, message }),
      drawn: setDrawn,
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

  const selectNode = (id: string) => {
    setOwnSelection(id);
    onSelectNode?.(id);
  };

  const expand = (id: string) => {
    const node = drawable.spec.nodes.find((candidate) => candidate.id === id);
    if (!node) return;
    if (node.group) {
      onExpandNode?.(id);
      say(`${node.label}: ${node.group.open ? 'closed' : 'opened'}.`);
    } else if (node.expandable) {
      onExpandNode?.(id);
      say(`More links of ${node.label} asked for.`);
    } else say(`No more links to show for ${node.label}.`);
  };

  const keys: GraphKeys = {
    spec: drawable.spec,
    order,
    focus,
    canvas: () => canvasRef.current,
    setFocus,
    say,
    selectNode,
    selectEdge: (id) => {
      setOwnSelection(id);
      onSelectEdge?.(id);
    },
    expand,
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => onGraphKey(event, keys);

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    setHasFocus(true);
    // Reached by the keyboard: start at the first entity (a click picks its own node).
    if (event.currentTarget.matches(':focus-visible') && (focus.nodeId === null || !order.includes(focus.nodeId))) moveFocus(keys, 0);
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
        data-drawn-entities={drawn?.entities}
        data-drawn-groups={drawn?.groups}
        data-drawn-links={drawn?.links}
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
      <GraphLegend kinds={kinds} palette={palette} helpId={helpId} notRecognised={drawable.spec.edges.some((edge) => edge.notRecognised === true)} />
    </div>
  );
}
