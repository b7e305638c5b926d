import type { GraphDecision } from '../../../shared/graph/decisions.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { decisionLabels } from './graph-model.ts';

/** The side panel with nothing selected: how to select, and the decisions kept with the assignment. */
export function SelectionHint(props: {
  decisions: GraphDecision[];
  titles: ReadonlyMap<string, string>;
  /** A decided link this graph does not draw, in words (its ends named, never their ids). */
  describe: (key: string) => string;
  onShow: (key: string) => void;
  hasAssignment: boolean;
}) {
  const { decisions, titles } = props;
  return (
    <section className="graph-panel graph-panel--hint stack">
      <h3>Select a link or an entity</h3>
      <p>
        Click a link, or move through the entities with the arrow keys, step through a node’s links with E and press Space: the link’s rule, its records and their
        sources are shown here, and you can confirm or cut it. Enter shows more of a node’s links (free ones at once; a priced one shows its price first). Escape
        puts the selection down.
      </p>
      {props.hasAssignment && (
        <div className="graph-panel__block" data-testid="graph-decisions">
          <h4>Your decisions in this assignment</h4>
          {decisions.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <ul className="graph-records">
              {decisions.map((decision) => {
                const title = titles.get(decision.edgeKey);
                return (
                  <li key={decision.edgeKey}>
                    <strong className={`graph-decided graph-decided--${decision.decision}`}>{decisionLabels[decision.decision]}</strong>{' '}
                    {title ? (
                      <button type="button" className="link-button link-button--underlined" onClick={() => props.onShow(decision.edgeKey)}>
                        {title}
                      </button>
                    ) : (
                      <span title={decision.edgeKey}>
                        {props.describe(decision.edgeKey)} <span className="muted">(not drawn in this graph)</span>
                      </span>
                    )}{' '}
                    <span className="muted">
                      by you on {formatDateTime(decision.at)}: {decision.note}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
