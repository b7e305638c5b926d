// The selected entity or owner: what it is (named as people know it, the id second and copyable),
// its links grouped by relation (each opens "why linked"), showing more of its links at the price
// shown before the click, and where to go from it (its page, the graph drawn from it, its runsheet).
import { useId, useMemo, type RefObject } from 'react';
import type { GraphModel } from '../../../shared/graph/build-graph.ts';
import type { GraphView } from '../../../shared/graph/graph-view.ts';
import { graphNodeKindLabels } from '../../../shared/graph/graph-spec.ts';
import { ownerVariants } from '../../../shared/graph/links.ts';
import { relationGroups } from '../../../shared/graph/relations.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import type { CallOptions } from '../../platform/service-calls.ts';
import type { GraphRequest } from './graph-model.ts';

export function NodePanel(props: {
  model: GraphModel;
  view: GraphView;
  nodeId: string;
  /** What showing more of its links asks (empty: nothing more to ask). */
  expansion: GraphRequest[];
  /** Why it cannot be expanded, when it cannot. */
  expansionNote: string | null;
  expanding: boolean;
  onExpand: (options: CallOptions) => void;
  onSelectLink: (key: string) => void;
  onOpenPage: ((id: string) => void) | null;
  onMakeRoot: ((id: string) => void) | null;
  onRunsheet: (() => void) | null;
  /** The expand button's holder: Enter on a node whose expansion costs money moves the focus there. */
  expandRef: RefObject<HTMLSpanElement | null>;
}) {
  const { model, view, nodeId, expansion, expandRef } = props;
  const headingId = useId();
  const node = view.spec.nodes.find((candidate) => candidate.id === nodeId);
  const groups = useMemo(() => relationGroups(nodeId, view.links, (id) => model.entities.get(id)?.kind), [nodeId, view.links, model]);
  const labels = useMemo(() => new Map(view.spec.nodes.map((candidate) => [candidate.id, candidate.label])), [view.spec.nodes]);
  const claims = model.owners.get(nodeId);
  if (!node) {
    return (
      <section className="graph-panel stack" aria-labelledby={headingId}>
        <h3 id={headingId}>Entity</h3>
        <p className="muted">This entity is not drawn now (a filter hides it, or the root changed).</p>
      </section>
    );
  }
  const first = expansion[0];
  const owner = node.kind === 'owner';
  return (
    <section className="graph-panel stack" aria-labelledby={headingId} data-testid="node-panel">
      <p className="graph-panel__eyebrow">{graphNodeKindLabels[node.kind]}</p>
      <h3 id={headingId} className="graph-panel__title">
        {node.label}
      </h3>
      <p className="muted graph-panel__sub">{node.sublabel}</p>
      {!owner && (
        <p className="graph-panel__id">
          <span className="muted">Id </span>
          <input className="input input--compact mono graph-panel__id-input" readOnly value={node.id} aria-label="Entity id (select to copy)" onFocus={(event) => event.currentTarget.select()} />
        </p>
      )}
      {claims && (
        <div className="graph-panel__block stack gap-1">
          <h4>Published as</h4>
          <ul className="graph-records">
            {ownerVariants(claims.values()).map((variant) => {
              const cited = [...claims.values()].find((claim) => claim.published === variant.published && claim.citation !== null)?.citation ?? null;
              return (
                <li key={variant.published}>
                  “{variant.published}” on {variant.count} {variant.count === 1 ? 'record' : 'records'} {cited && <CitationChip citation={cited} />}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <div className="graph-panel__block stack gap-1">
        <h4>More links</h4>
        {first ? (
          <span ref={expandRef} className="graph-panel__expand">
            <ChargeButton
              operation={first.operation}
              request={first.parts as never}
              label={owner ? 'Show other holdings' : 'Show more links'}
              what={owner ? `the holdings of owners named like “${first.kind === 'owner-search' ? first.name : node.label}”` : `the links of ${node.label}`}
              busy={props.expanding}
              onRun={props.onExpand}
            />
          </span>
        ) : (
          <p className="muted">{props.expansionNote ?? 'Every link of this entity the service lists is drawn.'}</p>
        )}
      </div>
      {groups.length > 0 && (
        <div className="graph-panel__block stack gap-1">
          <h4>Links drawn</h4>
          <ul className="graph-links">
            {groups.map((group) => (
              <li key={group.key}>
                <span className="graph-links__relation">{group.label}</span>
                <ul>
                  {group.entries.map((entry) => (
                    <li key={entry.link.key}>
                      <button type="button" className="link-button link-button--underlined" onClick={() => props.onSelectLink(entry.link.key)}>
                        {labels.get(entry.other) ?? entry.other}
                      </button>
                      {entry.link.strength === 'lead' && <span className="graph-strength graph-strength--lead"> lead</span>}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="graph-panel__actions cluster">
        {props.onRunsheet && (
          <button type="button" className="button" onClick={props.onRunsheet}>
            Runsheet
          </button>
        )}
        {props.onOpenPage && (
          <button type="button" className="button" onClick={() => props.onOpenPage?.(node.id)}>
            Open its page
          </button>
        )}
        {props.onMakeRoot && !node.root && (
          <button type="button" className="button" onClick={() => props.onMakeRoot?.(node.id)}>
            Draw the graph from here
          </button>
        )}
      </p>
    </section>
  );
}
