// What the drawing says about itself: where it was capped or cut off, and why nothing is drawn yet.
import { useQueryClient } from '@tanstack/react-query';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { knownFree } from '../../platform/cost-preview.ts';
import { UnrecognisedAnswer } from '../../components/UnrecognisedAnswer.tsx';
import type { UnreadPart } from '../../../shared/graph/build-graph.ts';
import type { GraphRoot } from './graph-model.ts';
import { buyGraphRequest, type HeldRequest } from './graph-queries.ts';

export function GraphStatus({
  drawn = null,
  caps,
  notes,
  problems,
  cutOff,
  unread = [],
}: {
  /** What the canvas draws, in words (portfolio-groups.ts drawnCountLine, from the spec the canvas draws). */
  drawn?: string | null;
  caps: string[];
  notes: string[];
  problems: string[];
  cutOff: string[];
  unread?: readonly UnreadPart[];
}) {
  if ((drawn === null ? 0 : 1) + caps.length + notes.length + problems.length + cutOff.length + unread.length === 0) return null;
  return (
    <div className="graph-status" role="status" data-testid="graph-status">
      {drawn !== null && (
        <p className="graph-status__drawn" data-testid="graph-drawn">
          {drawn}
        </p>
      )}
      {caps.map((line) => (
        <p key={line} className="graph-status__cap">
          {line}
        </p>
      ))}
      {cutOff.length > 0 && (
        <p className="graph-status__cut">
          Reached only through links you cut: {cutOff.slice(0, 5).join(', ')}
          {cutOff.length > 5 ? ` and ${cutOff.length - 5} more` : ''}.
        </p>
      )}
      {notes.map((line) => (
        <p key={line} className="muted">
          {line}
        </p>
      ))}
      {problems.map((line) => (
        <p key={line} className="graph-status__problem">
          {line}
        </p>
      ))}
      {unread.map((part, index) => (
        <UnrecognisedAnswer key={`${part.part}#${index}`} part={part.part} value={part.value} citations={part.citations} />
      ))}
    </div>
  );
}

export function EmptyGraph({
  root,
  held,
  areaUid,
  areasLoading,
  areasUnread = false,
  rootName,
}: {
  root: GraphRoot;
  held: HeldRequest[];
  areaUid: string | null;
  areasLoading: boolean;
  /** Where owner names are published has not been read (it may cost here): not the same as "nowhere". */
  areasUnread?: boolean;
  rootName: string;
}) {
  const queryClient = useQueryClient();
  const failed = held.find((entry) => entry.answer.isError);
  if (failed) {
    return (
      <div className="empty-state graph-empty">
        <p>The graph of {rootName} could not be read.</p>
        <ErrorNotice error={failed.answer.error} onRetry={() => void buyGraphRequest(queryClient, failed.request, { confirmed: true })} />
      </div>
    );
  }
  if (root.kind === 'owner') {
    if (areasLoading) return <p className="muted">Reading where owner names are published…</p>;
    if (areasUnread) return <p className="muted empty-state graph-empty">Owner names are searched in the areas whose rolls publish them: read where they are published first.</p>;
    const search = held[0];
    if (areaUid === null || !search) return <p className="empty-state graph-empty">Owner names cannot be searched: the service lists no area whose rolls publish them.</p>;
    return (
      <div className="empty-state graph-empty">
        <h2>Holdings of owners named like “{root.name}”</h2>
        <p>The owner-name search lists every holding whose owner of record reads like this name; each holding’s own record names it, but that the holdings are one person’s is for you to confirm.</p>
        <ChargeButton
          operation="searchProperties"
          request={search.request.parts as never}
          label="Find the holdings"
          what={`the holdings of owners named like “${root.name}”`}
          busy={search.answer.isFetching}
          onRun={(options) => void buyGraphRequest(queryClient, search.request, options)}
        />
      </div>
    );
  }
  // Where the links may cost (a service whose prices Plat has not seen), nothing is asked by itself:
  // each answer waits at its button with its price, or "price not known".
  const unasked = held.some((entry) => entry.answer.isFetching) ? [] : held.filter((entry) => entry.answer.data === undefined && entry.preview !== undefined && !knownFree(entry.preview));
  if (unasked.length > 0) {
    return (
      <div className="empty-state graph-empty stack gap-1" data-testid="graph-unasked">
        <p>The links of {rootName} may cost on this service: nothing is read until you ask.</p>
        {/* A div, not a p: the button carries its confirmation dialog (headings, paragraphs). */}
        {unasked.map((entry) => (
          <div key={entry.request.key}>
            <ChargeButton
              operation={entry.request.operation}
              request={entry.request.parts as never}
              label={entry.request.kind === 'entity' ? 'Read its record' : 'Read its links'}
              what={entry.request.kind === 'entity' ? `the record of ${rootName}` : `the links of ${rootName}`}
              busy={entry.answer.isFetching}
              primary={false}
              onRun={(options) => void buyGraphRequest(queryClient, entry.request, options)}
            />
          </div>
        ))}
      </div>
    );
  }
  return <p className="muted empty-state graph-empty">Reading the links of {rootName} (free)…</p>;
}
