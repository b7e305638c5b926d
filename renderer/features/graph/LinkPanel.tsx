// "Why linked": the selected link explained in plain words — the rule that made it, the warning a
// lead carries, the supporting records each with its citation, the validity dates, the confidence and
// the service's own words — with the researcher's decision on it (who decided, when, why), and the
// buttons to confirm, cut or withdraw.
import { useId, useMemo } from 'react';
import type { GraphModel } from '../../../shared/graph/build-graph.ts';
import { linkStanding, linkStandingLabels, type GraphDecision } from '../../../shared/graph/decisions.ts';
import type { ModelLink } from '../../../shared/graph/links.ts';
import { whyLinked } from '../../../shared/graph/why-linked.ts';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { citationView } from '../../../shared/cited/citation.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { CitationChip } from '../../components/CitationChip.tsx';
import { decisionLabels } from './graph-model.ts';
import { linkRuleLabels } from '../../../shared/graph/links.ts';
import type { DecisionRequest } from './DecisionDialog.tsx';

export function LinkPanel(props: {
  model: GraphModel;
  links: readonly ModelLink[];
  linkKey: string;
  decision: GraphDecision | null;
  /** Why decisions cannot be made here (no active assignment), or null. */
  cannotDecide: string | null;
  onDecide: (request: DecisionRequest) => void;
  onWithdraw: (edgeKey: string) => void;
  withdrawing: boolean;
}) {
  const { model, links, linkKey, decision } = props;
  const headingId = useId();
  const explained = useMemo(() => {
    const book = new CitationBook();
    const why = whyLinked(model, linkKey, book.cite, links);
    return why ? { why, citations: new Map(book.all().map((citation) => [citation.id, citation])) } : null;
  }, [model, links, linkKey]);

  if (!explained) {
    return (
      <section className="graph-panel stack" aria-labelledby={headingId}>
        <h3 id={headingId}>Why linked</h3>
        <p className="muted">This link is no longer in the graph (a filter hides it, or the root changed).</p>
      </section>
    );
  }
  const { why, citations } = explained;
  const standing = linkStanding(why.strength, decision?.decision);
  const ask = (kind: 'confirmed' | 'cut') => props.onDecide({ edgeKey: linkKey, title: why.title, decision: kind, note: decision?.note ?? '', warning: why.warning });
  return (
    <section className="graph-panel stack" aria-labelledby={headingId} data-testid="why-linked">
      <p className="graph-panel__eyebrow">Why linked</p>
      <h3 id={headingId} className="graph-panel__title">
        {why.title}
      </h3>
      <p className={`graph-strength graph-strength--${standing}`} data-testid="link-standing">
        {linkStandingLabels[standing]}
      </p>
      {why.warning && (
        <p className="notice notice--warning graph-panel__warning" role="note">
          {why.warning}
        </p>
      )}
      <dl className="facts graph-facts">
        <dt>Rule</dt>
        <dd>
          <strong>{linkRuleLabels[why.rule]}.</strong> {why.because}
        </dd>
        <dt>Supporting {why.records.length === 1 ? 'record' : 'records'}</dt>
        <dd>
          {why.records.length === 0 ? (
            <span className="muted">The answers name no record for this link.</span>
          ) : (
            <ul className="graph-records">
              {why.records.map((record) => {
                const citation = citations.get(record.citationId);
                return (
                  <li key={record.recordRef}>
                    {record.what} {citation && <CitationChip citation={citationView(citation)} />}
                    <span className="mono graph-records__ref">{record.recordRef}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </dd>
        <dt>Valid</dt>
        <dd>{why.validity}</dd>
        <dt>Confidence</dt>
        <dd>{why.confidenceText}</dd>
        {why.serviceSays && (
          <>
            <dt>The service says</dt>
            <dd>“{why.serviceSays}”</dd>
          </>
        )}
      </dl>
      <div className="graph-decision-state stack" data-testid="link-decision">
        <h4>Your decision</h4>
        {decision ? (
          <p>
            <strong className={`graph-decided graph-decided--${decision.decision}`}>{decisionLabels[decision.decision]}</strong> by you on{' '}
            {formatDateTime(decision.at)}, kept in this assignment: {decision.note}
          </p>
        ) : (
          <p className="muted">Not decided. Confirm it or cut it with a note; the report prints the decision.</p>
        )}
        {props.cannotDecide ? (
          <p className="muted">{props.cannotDecide}</p>
        ) : (
          <p className="graph-panel__actions cluster">
            <button type="button" className="button" onClick={() => ask('confirmed')}>
              {decision?.decision === 'confirmed' ? 'Change the note…' : 'Confirm…'}
            </button>
            <button type="button" className="button" onClick={() => ask('cut')}>
              {decision?.decision === 'cut' ? 'Change the note…' : 'Cut…'}
            </button>
            {decision && (
              <button type="button" className="button" disabled={props.withdrawing} onClick={() => props.onWithdraw(linkKey)}>
                {props.withdrawing ? 'Withdrawing…' : 'Withdraw the decision'}
              </button>
            )}
          </p>
        )}
      </div>
    </section>
  );
}
