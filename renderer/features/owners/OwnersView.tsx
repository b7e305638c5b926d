// Owners: type part of an owner's name and see every holding published under a matching name, grouped
// by the name as printed, each cited and each openable on the entity page. The search is priced per
// page, so it runs only from the button (or Enter), with the price shown beside it; pages already
// bought stay in the query cache and showing them again is free.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { IpcResponse } from '../../../shared/ipc.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { useCostPreview } from '../../platform/cost-preview.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice, platErrorOf } from '../../components/ErrorNotice.tsx';
import { callService, type CallOptions } from '../../platform/service-calls.ts';
import { serviceQueryKey } from '../../platform/query-keys.ts';
import { buyAnswer, paidAnswerQuery, usePaidAnswer } from '../../platform/paid-answer.ts';
import { CitedValue } from '../../components/CitedValue.tsx';
import { DeliveryLine } from '../../components/DeliveryLine.tsx';
import { useEntityCaptions } from '../../components/entity-captions.ts';
import { envelopeData } from '../../components/service-data.ts';
import {
  groupByOwner,
  holdingsFrom,
  lastSaleText,
  ownerCoverage,
  ownerCoverageRequest,
  describeOwnerQuery,
  ownerNameProblem,
  ownerSearchBody,
  ownerSpellingNote,
  OWNER_NAME_MAX,
  type Holding,
  type OwnerCoverage,
  type OwnerGroup,
} from '../../components/owner-lookup.ts';
import { useOwnersUi, type OwnerSearch } from './owners-ui-store.ts';
import './owners.css';

const DEBOUNCE_MS = 350;

/** " (accents ignored: also MULLER, MUELLER)", or nothing for plain Latin text. */
function spellingNote(name: string): string {
  const note = ownerSpellingNote(name);
  return note ? ` (${note})` : '';
}

/** The value after the user has paused typing; `flush` takes the current value at once (Enter). */
function useDebounced<T>(value: T, delayMs: number): [T, () => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return [settled, () => setSettled(value)];
}

type SearchPage = IpcResponse<'searchProperties'>;
type SearchItem = SearchPage['envelope'] extends infer E ? (E extends { status: 'ok'; data: { items: Array<infer I> } } ? I : never) : never;

export function OwnersView() {
  const coverage = useQuery({
    queryKey: serviceQueryKey('getCatalogFacet', ownerCoverageRequest),
    queryFn: () => callService('getCatalogFacet', ownerCoverageRequest),
    select: (answer) => ownerCoverage(envelopeData(answer.envelope)),
  });
  // The options of the user's last search action, so "Try again" repeats it as it was confirmed.
  const lastOptionsRef = useRef<CallOptions>({});
  const [openedAt] = useState(() => Date.now());

  return (
    <div className="owners">
      {coverage.isPending && (
        <p className="muted" role="status">
          Finding which areas publish owner names…
        </p>
      )}
      {coverage.isError && <ErrorNotice error={coverage.error} onRetry={() => void coverage.refetch()} />}
      {coverage.data && <OwnerSearchForm coverage={coverage.data} lastOptionsRef={lastOptionsRef} />}
      <OwnerResults lastOptionsRef={lastOptionsRef} openedAt={openedAt} />
    </div>
  );
}

function OwnerSearchForm({ coverage, lastOptionsRef }: { coverage: OwnerCoverage; lastOptionsRef: { current: CallOptions } }) {
  const draft = useOwnersUi((state) => state.draft);
  const setDraft = useOwnersUi((state) => state.setDraft);
  const chosenArea = useOwnersUi((state) => state.areaUid);
  const setArea = useOwnersUi((state) => state.setArea);
  const submit = useOwnersUi((state) => state.submit);
  const [typed, flush] = useDebounced(draft, DEBOUNCE_MS);
  const [attempted, setAttempted] = useState(false);
  // Enter pressed before the typed text had settled: search once its price is known.
  const pendingSubmitRef = useRef(false);
  const buttonHost = useRef<HTMLSpanElement>(null);
  const inputId = useId();
  const areaId = useId();
  const hintId = useId();

  const area = coverage.searchable.find((candidate) => candidate.areaUid === chosenArea) ?? coverage.searchable[0] ?? null;
  const problem = ownerNameProblem(typed);
  const draftProblem = ownerNameProblem(draft);
  const areaUid = area?.areaUid ?? null;
  const request = useMemo(() => (areaUid !== null && !problem ? { body: ownerSearchBody(areaUid, typed) } : null), [areaUid, problem, typed]);
  // The same key as the ChargeButton's own preview, so this reads it rather than asking again.
  const preview = useCostPreview('searchProperties', request);
  const search = usePaidAnswer('searchProperties', request);
  const searching = search.query.isFetching;

  const run = (options: CallOptions) => {
    if (!area || !request) return;
    const asked: OwnerSearch = { name: typed.trim(), areaUid: area.areaUid };
    lastOptionsRef.current = options;
    submit(asked);
    void search.buy(options);
  };

  // Enter goes through the same button as a click (price, confirmation, caps), once the price of
  // exactly what was typed is known.
  const pressSearch = () => buttonHost.current?.querySelector<HTMLButtonElement>('button')?.click();
  useEffect(() => {
    if (!pendingSubmitRef.current || typed !== draft || !request || !preview.data) return;
    pendingSubmitRef.current = false;
    if (!preview.data.blockedBy) pressSearch();
  }, [typed, draft, request, preview.data]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (draftProblem) return;
    if (typed === draft && preview.data) {
      if (!preview.data.blockedBy) pressSearch();
      return;
    }
    pendingSubmitRef.current = true;
    flush();
  };

  const showProblem = draftProblem !== null && (attempted || draft.trim() !== '');
  if (!area) {
    return (
      <div className="notice" role="status">
        <strong>No area publishes owner names.</strong> The service’s coverage lists no area whose records carry owner names, so there is
        nothing to search.
        <CoverageNotes coverage={coverage} />
      </div>
    );
  }

  return (
    <form className="owners__form" onSubmit={onSubmit} aria-label="Owner search">
      <div className="owners__fields">
        <div className="owners__field owners__field--name">
          <label htmlFor={inputId}>Owner name contains</label>
          <input
            id={inputId}
            type="search"
            value={draft}
            maxLength={OWNER_NAME_MAX * 2}
            placeholder="e.g. smith, or “john smith”"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={showProblem}
            aria-describedby={hintId}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <div className="owners__field">
          <label htmlFor={areaId}>Area</label>
          {coverage.searchable.length > 1 ? (
            <select id={areaId} value={area.areaUid} onChange={(event) => setArea(event.target.value)}>
              {coverage.searchable.map((candidate) => (
                <option key={candidate.areaUid} value={candidate.areaUid}>
                  {candidate.name}
                </option>
              ))}
            </select>
          ) : (
            <output id={areaId} className="owners__area">
              {area.name}
            </output>
          )}
        </div>
        <span className="owners__action" ref={buttonHost}>
          <ChargeButton
            operation="searchProperties"
            request={request}
            label="Search owners"
            what={`the owner search for “${typed.trim()}”${spellingNote(typed)}`}
            busy={searching}
            onRun={run}
          />
        </span>
      </div>
      <p id={hintId} className={showProblem ? 'owners__problem' : 'muted owners__hint'} role={showProblem ? 'alert' : undefined}>
        {showProblem
          ? `${draftProblem} Nothing is priced or charged until it can be searched.`
          : 'Any part of the name, in any case and word order; accents are ignored (Ü finds U and UE). Enter searches. Each page of up to 50 holdings is priced on the button; a search that finds nothing is free.'}
      </p>
      {!draftProblem && (
        <p className="owners__query" data-testid="owner-query" aria-live="polite">
          {describeOwnerQuery(draft)}
        </p>
      )}
      <CoverageNotes coverage={coverage} />
    </form>
  );
}

function CoverageNotes({ coverage }: { coverage: OwnerCoverage }) {
  return (
    <details className="owners__coverage">
      <summary>Where owner names come from, and where the sample has none</summary>
      <ul>
        {coverage.searchable.map((candidate) => (
          <li key={candidate.areaUid}>
            <strong>{candidate.name}:</strong> {candidate.note}
          </li>
        ))}
        {coverage.without.map((place) => (
          <li key={place.name}>
            <strong>{place.name}:</strong> {place.note || 'no owner names.'}
          </li>
        ))}
      </ul>
    </details>
  );
}

// ---------------------------------------------------------------------------------------------
// Results

function OwnerResults({ lastOptionsRef, openedAt }: { lastOptionsRef: RefObject<CallOptions>; openedAt: number }) {
  const queryClient = useQueryClient();
  const submitted = useOwnersUi((state) => state.submitted);
  const cursors = useOwnersUi((state) => state.cursors);
  const addPage = useOwnersUi((state) => state.addPage);

  const requests = submitted
    ? [undefined, ...cursors].map((cursor) => ({ body: ownerSearchBody(submitted.areaUid, submitted.name, cursor) }))
    : [];
  const pages = useQueries({
    queries: requests.map((request) => paidAnswerQuery('searchProperties', request)),
  }) as UseQueryResult<SearchPage>[];

  if (!submitted) {
    return (
      <p className="muted owners__intro">
        Owner names are shown exactly as the publisher printed them. Results are grouped by that name, and each holding opens its parcel or unit.
      </p>
    );
  }

  const retry = (index: number) => {
    const request = requests[index];
    if (request) void buyAnswer(queryClient, 'searchProperties', request, lastOptionsRef.current);
  };

  const first = pages[0];
  if (!first || (first.data === undefined && !first.isError)) {
    return (
      <p className="muted" role="status">
        Searching owner names containing “{submitted.name}”{spellingNote(submitted.name)}…
      </p>
    );
  }
  if (first.isError) {
    if (platErrorOf(first.error).code === 'not_found') {
      return (
        <div className="notice owners__none" role="status" data-testid="owners-none">
          <strong>
            No owner name contains “{submitted.name}”{spellingNote(submitted.name)}.
          </strong>{' '}
          Nothing was charged: a search that finds nothing is free. Try fewer letters,
          or another part of the name.
        </div>
      );
    }
    return <ErrorNotice error={first.error} onRetry={() => retry(0)} />;
  }

  const loaded = pages.filter((page) => page.data !== undefined).map((page) => page.data as SearchPage);
  const read = readPages(loaded);
  if ('error' in read) return <ErrorNotice error={read.error} />;
  const { items, matched } = read;
  const holdings = holdingsFrom(items);
  const groups = groupByOwner(holdings);
  const lastLoadedPage = [...pages].reverse().find((page) => page.data !== undefined);
  const lastLoaded = lastLoadedPage?.data;
  const lastPage = pages.at(-1);
  const nextCursor = lastLoaded && lastPage?.data === lastLoaded ? lastLoaded.envelope.meta.next_cursor : null;
  const nextRequest =
    typeof nextCursor === 'string' && nextCursor !== '' ? { body: ownerSearchBody(submitted.areaUid, submitted.name, nextCursor) } : null;
  const loadingMore = pages.some((page) => page.isFetching);
  const failedPage = pages.findIndex((page, index) => index > 0 && page.isError);

  return (
    <section className="owners__results" aria-label={`Holdings of owners named like “${submitted.name}”`} data-testid="owners-results">
      <div className="owners__summary">
        <p className="owners__count" role="status">
          <strong>{groups.length}</strong> owner {groups.length === 1 ? 'name' : 'names'} containing “{submitted.name}”{spellingNote(submitted.name)}, with{' '}
          <strong>{holdings.length}</strong> {holdings.length === 1 ? 'holding' : 'holdings'}
          {matched !== null && matched > holdings.length && <> shown of {matched} matching properties</>}.
        </p>
        {lastLoaded && <DeliveryLine billing={lastLoaded.billing} shownAgain={(lastLoadedPage?.dataUpdatedAt ?? 0) < openedAt} />}
      </div>
      <p className="notice notice--warning owners__caution" data-testid="same-name-caution">
        <strong>Same name, maybe not the same owner.</strong> Holdings are grouped by the owner name as published. Different people and companies
        can share a name, and one owner can appear under several spellings: treat these as leads, not facts.
      </p>
      <div className="owners__groups">
        {groups.map((group) => (
          <OwnerGroupTable key={group.name} group={group} />
        ))}
      </div>
      {failedPage > 0 && <ErrorNotice error={pages[failedPage]?.error} onRetry={() => retry(failedPage)} />}
      {nextRequest && (
        <div className="owners__more">
          <ChargeButton
            operation="searchProperties"
            request={nextRequest}
            label="Load more holdings"
            what="the next page of holdings"
            busy={loadingMore}
            primary={false}
            onRun={(options) => {
              lastOptionsRef.current = options;
              addPage(nextRequest.body.cursor ?? '');
              void buyAnswer(queryClient, 'searchProperties', nextRequest, options);
            }}
          />
        </div>
      )}
    </section>
  );
}

/** Every loaded page's items, and how many properties matched in all (page 1 says). */
function readPages(loaded: readonly SearchPage[]): { items: SearchItem[]; matched: number | null } | { error: unknown } {
  try {
    const datas = loaded.map((page) => envelopeData(page.envelope));
    const total = (datas[0] as { properties_matched?: unknown } | undefined)?.properties_matched;
    return { items: datas.flatMap((data) => data.items), matched: typeof total === 'number' ? total : null };
  } catch (error) {
    return { error };
  }
}

function OwnerGroupTable({ group }: { group: OwnerGroup }) {
  const openEntity = useUiStore((state) => state.openEntity);
  const remember = useEntityCaptions((state) => state.remember);
  const open = (holding: Holding) => {
    const caption = holding.address?.text ?? '';
    remember({ [holding.openId]: caption, [holding.propertyRef]: caption });
    openEntity(holding.openId);
  };
  const columns: Column<Holding>[] = [
    {
      id: 'address',
      header: 'Address',
      text: (holding) => holding.address?.text ?? '',
      render: (holding) => (
        <button type="button" className="link-button" onClick={() => open(holding)} title={`Open the ${holding.openKind} (${holding.openId})`}>
          {holding.address?.text ?? `${holding.openKind} without a published address`}
        </button>
      ),
      width: '26%',
    },
    {
      id: 'identifier',
      header: 'SSL / account',
      text: (holding) => holding.identifier?.text ?? '',
      render: (holding) => <span className="mono owners__ssl">{holding.identifier?.text ?? '—'}</span>,
      width: '12%',
    },
    { id: 'kind', header: 'Opens', text: (holding) => holding.openKind, width: '7%' },
    { id: 'use', header: 'Use code', text: (holding) => holding.use?.text ?? '', width: '8%' },
    {
      id: 'assessed',
      header: 'Assessed',
      text: (holding) => holding.assessed?.text ?? '',
      sortValue: (holding) => (typeof holding.assessed?.value === 'number' ? holding.assessed.value : null),
      align: 'right',
      width: '11%',
    },
    {
      id: 'sale',
      header: 'Last sale',
      text: (holding) => lastSaleText(holding),
      sortValue: (holding) => (typeof holding.lastSaleDate?.value === 'string' ? holding.lastSaleDate.value : null),
      width: '20%',
    },
    {
      id: 'source',
      header: 'Source',
      text: (holding) => holding.citations.map((citation) => citation.publisher ?? '').join('; '),
      render: (holding) => (
        <span className="owners__chips">
          {holding.citations.map((citation) => (
            <CitationChip key={`${citation.publisher}|${citation.dataset}|${citation.asOf}`} citation={citation} />
          ))}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      label={`Holdings published under the owner name ${group.name}`}
      columns={columns}
      rows={group.holdings}
      rowKey={(holding) => holding.propertyRef}
      onOpen={open}
      toolbar={
        <span className="owners__group-name">
          {group.holdings[0]?.owner ? <CitedValue value={group.holdings[0].owner} /> : group.name}
        </span>
      }
    />
  );
}
