// A paged search (Records, Properties): the page on screen and its paid answer, the priced button that
// starts a search, and above the result what was asked, the pages already fetched (free to show
// again) and the priced button for the next page when the service says there is one.
import type { ReactNode } from 'react';
import type { IpcResponse } from '../../../shared/ipc.ts';
import type { ServiceRequestParts } from '../../platform/service-calls.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ErrorNotice, platErrorOf } from '../../components/ErrorNotice.tsx';
import { nextPage, pageCursor, type PagedRun } from './search-store.ts';
import { nothingFoundChargeWords } from '../../components/charge-words.ts';

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

/** A search that matched nothing, said plainly, with what that call was charged (when it is known). */
export function NoMatches({ what, error }: { what: string; error: unknown }) {
  const charge = nothingFoundChargeWords(platErrorOf(error), 'the search');
  return (
    <p className="notice search-empty" role="status">
      No {what} match this search.{charge ? ` ${charge}` : ''} Loosen a filter or try another kind of search.
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

/** What the page on screen holds, as its operation's answer says: the rows, and the cursor of the page after it. */
export interface PageRead<D> {
  data: D | undefined;
  nextCursor: string | null;
}

type PagedOperation = 'searchProperties' | 'searchRecords';

/** A paged search as its tab shows it (see usePagedSearch). */
export interface PagedSearch<N extends PagedOperation, Q, D> extends PageRead<D> {
  operation: N;
  run: PagedRun<Q> | null;
  setRun: (run: PagedRun<Q>) => void;
  /** The request of one page. */
  partsOf: (query: Q) => ServiceRequestParts<N>;
  /** The page's paid answer (platform/paid-answer.ts). */
  page: ReturnType<typeof usePaidAnswer<N>>;
  envelope: IpcResponse<N>['envelope'] | undefined;
  nextRequest: ServiceRequestParts<N> | null;
  /** "No search matches" may come back as a 404 rather than an empty page; what it cost is its own charge. */
  noMatches: boolean;
  busy: boolean;
}

/**
 * The page of a paged search on screen: its paid answer (bought by a click, shown again free), what it
 * holds, whether the search found nothing, and the request of the page after it.
 */
export function usePagedSearch<N extends PagedOperation, Q extends { cursor?: string }, D>(
  operation: N,
  run: PagedRun<Q> | null,
  setRun: (run: PagedRun<Q>) => void,
  partsOf: (query: Q) => ServiceRequestParts<N>,
  readPage: (envelope: IpcResponse<N>['envelope'] | undefined) => PageRead<D>,
): PagedSearch<N, Q, D> {
  const cursor = run ? pageCursor(run) : undefined;
  const page = usePaidAnswer(operation, run ? partsOf(cursor ? { ...run.first, cursor } : run.first) : null);
  const envelope = page.query.data?.envelope;
  const { data, nextCursor } = readPage(envelope);
  return {
    operation,
    run,
    setRun,
    partsOf,
    page,
    envelope,
    data,
    nextCursor,
    nextRequest: run && nextCursor ? partsOf({ ...run.first, cursor: nextCursor }) : null,
    noMatches: page.query.isError && platErrorOf(page.query.error).code === 'not_found',
    busy: page.query.fetchStatus === 'fetching',
  };
}

/** The priced button that starts a new search at its first page; `first` is null while the form has problems. */
export function PagedSearchButton<N extends PagedOperation, Q, D>(props: { paged: PagedSearch<N, Q, D>; first: Q | null; label: string; what: string }) {
  const { paged, first } = props;
  return (
    <ChargeButton
      operation={paged.operation}
      request={first ? paged.partsOf(first) : null}
      label={props.label}
      what={props.what}
      busy={paged.busy}
      onRun={(options) => {
        if (!first) return;
        paged.setRun({ first, cursors: [], page: 0 });
        void paged.page.buy(options, paged.partsOf(first));
      }}
    />
  );
}

/**
 * Everything above a paged result table, for every paged search: the page bar with its priced
 * "Next page", the error, "Searching…" and the free empty result.
 */
export function PagedResultsHead<N extends PagedOperation, Q, D>(props: {
  paged: PagedSearch<N, Q, D>;
  summary: string;
  /** "the next page of properties". */
  nextWhat: string;
  /** "properties", for the empty result. */
  noun: string;
}) {
  const { paged } = props;
  const { run, nextRequest, nextCursor } = paged;
  if (!run) return null;
  const hasData = paged.data !== undefined && paged.data !== null;
  return (
    <>
      <PageBar
        summary={props.summary}
        run={run}
        onPage={(index) => paged.setRun({ ...run, page: index })}
        next={
          nextRequest && nextCursor ? (
            <ChargeButton
              operation={paged.operation}
              request={nextRequest}
              label="Next page"
              what={props.nextWhat}
              busy={paged.busy}
              primary={false}
              onRun={(options) => {
                paged.setRun(nextPage(run, nextCursor));
                void paged.page.buy(options, nextRequest);
              }}
            />
          ) : hasData ? (
            <span className="muted">Last page</span>
          ) : null
        }
      />
      {paged.page.query.isError && !paged.noMatches && <ErrorNotice error={paged.page.query.error} onRetry={paged.page.retry} />}
      {paged.busy && !hasData && (
        <p className="muted" role="status">
          Searching…
        </p>
      )}
      {paged.noMatches && <NoMatches what={props.noun} error={paged.page.query.error} />}
    </>
  );
}
