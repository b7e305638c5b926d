// The entity graph's legend: a swatch per kind of entity drawn and per look of link, and the keys.
import type { ReactNode } from 'react';
import { graphNodeKindLabels, type GraphNodeKind } from '../../../shared/graph/graph-spec.ts';
import { NOT_RECOGNISED } from '../../../shared/service/unrecognised.ts';
import { SWATCH_BOX, edgeLookDash, edgeLookLabels, kindLooks, swatchGeometry, type EdgeLook, type GraphPalette, type NodeShape } from './graph-style.ts';

function Swatch({ shape }: { shape: NodeShape }) {
  const geometry = swatchGeometry[shape];
  switch (geometry.type) {
    case 'rect':
      return <rect x={geometry.x} y={geometry.y} width={geometry.width} height={geometry.height} rx={geometry.radius} />;
    case 'circle':
      return <circle cx={geometry.cx} cy={geometry.cy} r={geometry.r} />;
    case 'polygon':
      return <polygon points={geometry.points.map(([x, y]) => `${x},${y}`).join(' ')} />;
  }
}

function KindSwatch({ kind, palette }: { kind: GraphNodeKind; palette: GraphPalette }) {
  const look = kindLooks[kind];
  return (
    <svg
      className="entity-graph__swatch"
      viewBox={`0 0 ${SWATCH_BOX.width} ${SWATCH_BOX.height}`}
      width={SWATCH_BOX.width}
      height={SWATCH_BOX.height}
      aria-hidden="true"
      fill={look.fill}
      stroke={palette.text}
      strokeOpacity="0.6"
      strokeWidth="1"
    >
      <Swatch shape={look.shape} />
    </svg>
  );
}

function EdgeSwatch({ look, palette }: { look: EdgeLook; palette: GraphPalette }) {
  const colour = palette[look];
  const dash = edgeLookDash[look];
  return (
    <svg className="entity-graph__swatch entity-graph__swatch--edge" viewBox="0 0 30 12" width="30" height="12" aria-hidden="true" opacity={look === 'cut' ? 0.7 : 1}>
      <line x1="1" y1="6" x2={look === 'cut' ? 26 : 23} y2="6" stroke={colour} strokeWidth={look === 'fact' || look === 'cut' ? 1.5 : 2} strokeDasharray={dash?.join(' ')} />
      {look === 'cut' ? <line x1="27" y1="1.5" x2="27" y2="10.5" stroke={colour} strokeWidth="2" /> : <polygon points="22,2 29,6 22,10" fill={colour} />}
    </svg>
  );
}

/** What a node with links not yet drawn looks like. */
function MoreLinksSwatch({ palette }: { palette: GraphPalette }) {
  return (
    <svg className="entity-graph__swatch" viewBox="0 0 20 16" width="20" height="16" aria-hidden="true">
      <circle cx="10" cy="8" r="4.5" fill={palette.faint} />
      <circle cx="10" cy="8" r="7" fill="none" stroke={palette.muted} strokeWidth="1.2" strokeDasharray="2.5 2" />
    </svg>
  );
}

/** One line of the legend: the swatch, then what it stands for. */
function LegendItem({ swatch, label }: { swatch: ReactNode; label: string }) {
  return (
    <li className="entity-graph__legend-item">
      {swatch}
      {label}
    </li>
  );
}

const edgeLooks: EdgeLook[] = ['fact', 'lead', 'confirmed', 'cut'];

export function GraphLegend({ kinds, palette, helpId, notRecognised = false }: { kinds: GraphNodeKind[]; palette: GraphPalette; helpId: string; notRecognised?: boolean }) {
  return (
    <div className="entity-graph__legend" role="group" aria-label="Legend">
      <ul className="entity-graph__legend-list">
        {kinds.map((kind) => (
          <LegendItem key={kind} swatch={<KindSwatch kind={kind} palette={palette} />} label={graphNodeKindLabels[kind]} />
        ))}
      </ul>
      <ul className="entity-graph__legend-list">
        {edgeLooks.map((look) => (
          <LegendItem key={look} swatch={<EdgeSwatch look={look} palette={palette} />} label={edgeLookLabels[look]} />
        ))}
        <LegendItem swatch={<MoreLinksSwatch palette={palette} />} label="More links to show" />
      </ul>
      {notRecognised && (
        <p className="entity-graph__help" data-testid="graph-legend-not-recognised">
          A link named in the service’s own term (such as owner_of) is drawn as published: {NOT_RECOGNISED}. Its panel and the table say so.
        </p>
      )}
      <p id={helpId} className="entity-graph__help">
        Arrow keys move between entities · Enter or double-click shows more links · Space selects · E steps through links · + − 0 zoom
      </p>
    </div>
  );
}
