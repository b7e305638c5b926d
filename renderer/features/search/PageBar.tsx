// Above a paged result: what was asked, the pages already fetched (free to show again), and the
// priced button for the next page when the service says there is one.
import type { ReactNode } from 'react';
import type { ServiceCallIpcName } from '../../../shared/ipc.ts';
import type { CallOptions, ServiceRequestParts } from '../../platform/service-calls.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { nextPage, type PagedRun } from './search-store.ts';

export function PageBar<R>(props: { summary: string; run: PagedRun<R>; onPage: (page: number) => void; next: ReactNode }) {
  const pages = props.run.cursors.length + 1;
  return (
    <div className="page-bar cluster gap-3">
      <span className="page-bar__summary" title={props.summary}>
        {props.summary}
      </span>
      <nav className="page-bar__pages" aria-label="Result pages">
        {Array.from({ length: pages }, (_, index) => (
          <button
            key={index}
            type="button"
            className="button button--small page-bar__page"
            aria-current={index === props.run.page ? 'page' : undefined}
            aria-label={`Page ${index + 1}${index === props.run.page ? ' (showing)' : ''}`}
            onClick={() => props.onPage(index)}
          >
            {index + 1}
          </button>
        ))}
      </nav>
      {props.next}
    </div>
  );
}

/** A search that matched nothing: free, and said plainly. */
export function NoMatches({ what }: { what: string }) {
  return (
    <p className="notice search-empty" role="status">
      No {what} match this search. Nothing was charged: empty results are free. Loosen a filter or try another kind of search.
    </p>
  );
}

/**
 * A table cell's text, on one line with the published spacing kept (SSLs pad with spaces): plain
 * for short values, clipped with the full text on hover for long ones.
 * A function, not a component: a 100-row page has 700 such cells, and a component each was a
 * measurable part of its render.
 */
export function cellContent(text: string): ReactNode {
  if (text.length <= 32) return text;
  return (
    <span className="cell-text" title={text}>
      {text}
    </span>
  );
}

/**
 * Everything above a paged result table, for every paged search: the page bar with its priced
 * "Next page", the error, "Searching…" and the free empty result.
 */
export function PagedResultsHead<N extends ServiceCallIpcName, Q>(props: {
  operation: N;
  summary: string;
  run: PagedRun<Q>;
  setRun: (run: PagedRun<Q>) => void;
  /** The page's paid answer (platform/paid-answer.ts). */
  page: { query: { isError: boolean; error: unknown }; buy: (options: CallOptions, target?: ServiceRequestParts<N>) => unknown; retry: () => void };
  nextRequest: ServiceRequestParts<N> | null;
  nextCursor: string | null;
  /** "the next page of properties". */
  nextWhat: string;
  /** "properties", for the empty result. */
  noun: string;
  busy: boolean;
  hasData: boolean;
  noMatches: boolean;
}) {
  const { run, nextRequest, nextCursor } = props;
  return (
    <>
      <PageBar
        summary={props.summary}
        run={run}
        onPage={(index) => props.setRun({ ...run, page: index })}
        next={
          nextRequest && nextCursor ? (
            <ChargeButton
              operation={props.operation}
              request={nextRequest}
              label="Next page"
              what={props.nextWhat}
              busy={props.busy}
              primary={false}
              onRun={(options) => {
                props.setRun(nextPage(run, nextCursor));
                void props.page.buy(options, nextRequest);
              }}
            />
          ) : props.hasData ? (
            <span className="muted">Last page</span>
          ) : null
        }
      />
      {props.page.query.isError && !props.noMatches && <ErrorNotice error={props.page.query.error} onRetry={props.page.retry} />}
      {props.busy && !props.hasData && (
        <p className="muted" role="status">
          Searching…
        </p>
      )}
      {props.noMatches && <NoMatches what={props.noun} />}
    </>
  );
}
