import { useQueryClient } from '@tanstack/react-query';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CostTag } from '../../components/CostTag.tsx';
import { knownFree } from '../../platform/cost-preview.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { describeRequest, nextPageRequest, uniqueRequests, type GraphRequest, type MergedGraph } from './graph-model.ts';
import { buyGraphRequest, type HeldRequest } from './graph-queries.ts';
import { useGraphStore } from './graph-store.ts';

/** What the graph is drawn from, each with its price before it is asked, what it cost after, and more pages when there are. */
export function GraphSources({ held, model, rootId, asked }: { held: HeldRequest[]; model: MergedGraph['model']; rootId: string; asked: ReadonlySet<string> }) {
  const queryClient = useQueryClient();
  const addRequests = useGraphStore((state) => state.addRequests);
  const more = uniqueRequests(held.flatMap((entry) => (entry.answer.data ? [nextPageRequest(entry.request, entry.answer.data.envelope)] : [])).filter((request): request is GraphRequest => request !== null && !asked.has(request.key)));
  const loaded = held.filter((entry) => entry.answer.data !== undefined).length;
  return (
    <details className="graph-sources" data-testid="graph-sources">
      <summary>
        Drawn from {loaded} of {held.length} {held.length === 1 ? 'answer' : 'answers'}
        {more.length > 0 && ` · more pages to load`}
      </summary>
      <ul className="graph-sources__list stack gap-1">
        {held.map((entry) => (
          <li key={entry.request.key} className="graph-sources__item cluster">
            <span>{describeRequest(entry.request, model)}</span>{' '}
            {entry.answer.data ? (
              <span className="muted">
                {entry.answer.data.billing.cacheHit || entry.answer.data.billing.chargedMicroUsd === 0 ? 'held · free' : 'held · bought'}
              </span>
            ) : entry.answer.isError ? (
              <ErrorNotice error={entry.answer.error} onRetry={() => void buyGraphRequest(queryClient, entry.request, { confirmed: true })} compact />
            ) : entry.answer.isFetching ? (
              <span className="muted">Asking…</span>
            ) : entry.preview && !knownFree(entry.preview) ? (
              <ChargeButton operation={entry.request.operation} request={entry.request.parts as never} label="Ask" what={describeRequest(entry.request, model).toLowerCase()} primary={false} onRun={(options) => void buyGraphRequest(queryClient, entry.request, options)} />
            ) : (
              <CostTag preview={entry.preview} />
            )}
          </li>
        ))}
        {more.map((request) => (
          <li key={request.key} className="graph-sources__item cluster">
            <span>{describeRequest(request, model)}</span>{' '}
            <ChargeButton
              operation={request.operation}
              request={request.parts as never}
              label="Load the next page"
              what={describeRequest(request, model).toLowerCase()}
              primary={false}
              onRun={(options) => {
                addRequests(rootId, [request]);
                void buyGraphRequest(queryClient, request, options);
              }}
            />
          </li>
        ))}
      </ul>
    </details>
  );
}
