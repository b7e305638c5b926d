// The holdings an owner-name search found, as one portfolio: every holding with its address, SSL,
// use, assessment and last sale (each cited), grouped by the owner name after normalisation with the
// published spellings listed, each group's count and derived total, and counts that never read as
// whole when pages are missing ("46 holdings in the loaded pages (50 of 252 loaded)"), with the next
// page offered at its price. The Owners view and the owner page both show this; the pages come from
// the query cache, so a page bought on one is shown free on the other.
import { useId, type ReactNode } from 'react';
import { useQueries, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { IpcResponse } from '../../../shared/ipc.ts';
import type { Citation, CitedValue } from '../../../shared/cited/value.ts';
import { citationView, publisherShortName } from '../../../shared/cited/citation.ts';
import { holdingsCountText, searchCovers, type PortfolioHolding, type PortfolioOwner } from '../../../shared/graph/portfolio.ts';
import { ownerNameKey } from '../../../shared/graph/relations.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { DeliveryLine } from '../../components/DeliveryLine.tsx';
import { ErrorNotice, platErrorOf } from '../../components/ErrorNotice.tsx';
import { useEntityCaptions } from '../../components/entity-captions.ts';
import { ownerSearchBody, ownerSpellingNote } from '../../components/owner-lookup.ts';
import { buyAnswer, paidAnswerQuery } from '../../platform/paid-answer.ts';
import { requestOfServiceKey, serviceOperationScope, serviceQueryKey } from '../../platform/query-keys.ts';
import type { CallOptions } from '../../platform/service-calls.ts';
import { holdingSources, lastSaleText, nextCursorOf, portfolioScreen, variantsText } from './owner-model.ts';
import type { OwnerSearch } from './owners-ui-store.ts';
import { PortfolioSummary } from './PortfolioSummary.tsx';
import { nothingFoundChargeWords } from '../../components/charge-words.ts';

type SearchPage = IpcResponse<'searchProperties'>;
type SearchRequest = { body: ReturnType<typeof ownerSearchBody> };

/** More pages than any owner in the sample fills (DISTRICT OF COLUMBIA: 6); a guard, not a limit anyone meets. */
const MAX_PAGES = 200;

/** " (accents ignored: also MULLER, MUELLER)", or nothing for plain Latin text. */
export function spellingNote(name: string): string {
  const note = ownerSpellingNote(name);
  return note ? ` (${note})` : '';
}

/**
 * The pages of one owner search to show: page 1, then each next page once it has been bought (or is
 * being bought), and the first page not bought yet, whose query is watched so buying it shows it.
 * Nothing here fetches: pages are bought only from a button (buyAnswer).
 */
export function useOwnerSearchPages(search: OwnerSearch | null): { requests: SearchRequest[]; pages: UseQueryResult<SearchPage>[] } {
  const queryClient = useQueryClient();
  const requests: SearchRequest[] = [];
  if (search) {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const request = { body: ownerSearchBody(search.areaUid, search.name, cursor) };
      requests.push(request);
      const held = queryClient.getQueryData<SearchPage>(serviceQueryKey('searchProperties', request));
      const next = held ? nextCursorOf(held.envelope) : null;
      if (next === null) break;
      cursor = next;
    }
  }
  const pages = useQueries({ queries: requests.map((request) => paidAnswerQuery('searchProperties', request)) }) as UseQueryResult<SearchPage>[];
  return { requests, pages };
}

/** The envelopes of an owner search when every one of its pages is held (none left to buy); otherwise null. */
function wholeSearchHeld(queryClient: QueryClient, search: OwnerSearch): unknown[] | null {
  const envelopes: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const held = queryClient.getQueryData<SearchPage>(serviceQueryKey('searchProperties', { body: ownerSearchBody(search.areaUid, search.name, cursor) }));
    if (!held) return null;
    envelopes.push(held.envelope);
    const next = nextCursorOf(held.envelope);
    if (next === null) return envelopes;
    cursor = next;
  }
  return null;
}

/**
 * An owner search already bought whole (here, in the Owners view or the find box) that lists every
 * holding of the owner `name` (shared/graph/portfolio.ts searchCovers decides), the narrowest first;
 * null when none is held, so the owner page buys its own. Buying it again would be paying twice.
 */
export function coveringOwnerSearch(queryClient: QueryClient, name: string, areaUid: string): OwnerSearch | null {
  const searched = queryClient
    .getQueryCache()
    .findAll({ queryKey: serviceOperationScope('searchProperties') })
    .map((query) => {
      const body = (requestOfServiceKey(query.queryKey) as { body?: Partial<SearchRequest['body']> } | null)?.body;
      const filter = body?.filters?.[0];
      const single = body !== undefined && body.cursor === undefined && body.filters?.length === 1 && filter?.field === 'owner_name' && filter.op === 'contains';
      return single && body.area_uid === areaUid && typeof filter.value === 'string' ? filter.value : null;
    })
    // The owner's own search is the page's usual one; only a wider one is read for it.
    .filter((value): value is string => value !== null && searchCovers(value, name) && ownerNameKey(value) !== ownerNameKey(name))
    .sort((a, b) => b.length - a.length);
  for (const value of searched) {
    const search = { name: value, areaUid };
    if (wholeSearchHeld(queryClient, search) !== null) return search;
  }
  return null;
}

export interface PortfolioResultsProps {
  search: OwnerSearch;
  /** When the screen opened: pages older than this were bought before and are shown again free. */
  openedAt: number;
  /** The options of the user's last purchase, so "Try again" repeats it as it was confirmed. */
  lastOptions: { current: CallOptions };
  /** The owner whose page this is (its normalised name), so its own group offers no link to itself. */
  pageOwnerKey?: string | null;
  /** What to say before page 1 is bought (null: say nothing). */
  notYet?: ReactNode;
  /** The owner name to read a wider search's pages for (the owner page shown from a search already bought). */
  within?: string;
}

export function PortfolioResults({ search, openedAt, lastOptions, pageOwnerKey = null, notYet = null, within }: PortfolioResultsProps) {
  const queryClient = useQueryClient();
  const { requests, pages } = useOwnerSearchPages(search);
  const retry = (index: number) => {
    const request = requests[index];
    if (request) void buyAnswer(queryClient, 'searchProperties', request, lastOptions.current);
  };
  const buyNext = (request: SearchRequest) => (options: CallOptions) => {
    lastOptions.current = options;
    void buyAnswer(queryClient, 'searchProperties', request, options);
  };

  const first = pages[0];
  if (!first || (first.data === undefined && !first.isError)) {
    return first?.isFetching ? (
      <p className="muted" role="status">
        Searching owner names containing “{search.name}”{spellingNote(search.name)}…
      </p>
    ) : (
      <>{notYet}</>
    );
  }
  if (first.isError) {
    if (platErrorOf(first.error).code === 'not_found') {
      return (
        <div className="notice owners__none" role="status" data-testid="owners-none">
          <strong>
            No owner name contains “{search.name}”{spellingNote(search.name)}.
          </strong>{' '}
          {nothingFoundChargeWords(platErrorOf(first.error), 'the search') ?? ''} Try fewer letters, or another part of the name.
        </div>
      );
    }
    return <ErrorNotice error={first.error} onRetry={() => retry(0)} />;
  }

  const held = pages.filter((page) => page.data !== undefined).map((page) => page.data as SearchPage);
  const screen = portfolioScreen(search.name, held.map((page) => page.envelope), within);
  const { portfolio } = screen;
  const lastHeld = [...pages].reverse().find((page) => page.data !== undefined);
  const pending = pages.at(-1);
  const nextIndex = pending && pending.data === undefined ? pages.length - 1 : null;
  const nextRequest = nextIndex === null ? null : (requests[nextIndex] ?? null);
  const loadingMore = nextIndex !== null && pages[nextIndex]?.isFetching === true;
  const failed = nextIndex !== null && pages[nextIndex]?.isError === true ? nextIndex : null;
  const more = nextRequest
    ? { request: nextRequest, busy: loadingMore, onRun: buyNext(nextRequest), remaining: portfolio.matched === null ? null : portfolio.matched - portfolio.loaded }
    : null;

  return (
    <section className="owners__results stack gap-3" aria-label={`Holdings of owners named like “${search.name}”`} data-testid="owners-results">
      <div className="owners__summary cluster align-baseline">
        <p className="owners__count" role="status">
          <strong>{screen.owners.length}</strong> owner {screen.owners.length === 1 ? 'name' : 'names'} containing “{search.name}”{spellingNote(search.name)}
          {portfolio.complete ? ', with ' : ' in the loaded pages, with '}
          <strong data-testid="portfolio-count">{holdingsCountText(portfolio)}</strong>.
        </p>
        {lastHeld?.data && <DeliveryLine billing={lastHeld.data.billing} shownAgain={lastHeld.dataUpdatedAt < openedAt} />}
      </div>
      {pageOwnerKey !== null && screen.owners.length > 1 && (
        // On an owner's page the names containing the owner's are one portfolio (one name: its group says it);
        // a search across unrelated names has no total worth stating.
        <TotalLine label="Total assessed value of these holdings" value={portfolio.totalAssessed} citations={screen.citations} testId="portfolio-total" />
      )}
      {pageOwnerKey !== null && (
        <PortfolioSummary name={search.name} holdings={portfolio.holdings} owners={screen.owners} citations={[...screen.citations.values()]} partial={!portfolio.complete} />
      )}
      {portfolio.problems.map((problem) => (
        <p key={problem} className="notice notice--warning">
          {problem}
        </p>
      ))}
      <p className="notice notice--warning owners__caution" data-testid="same-name-caution">
        <strong>Same name, maybe not the same owner.</strong> Holdings are grouped by the owner name as published, after evening out spacing,
        punctuation and case. Different people and companies can share a name, and one owner can appear under several names: treat these as
        leads, not facts.
      </p>
      <div className="owners__groups stack gap-3">
        {screen.owners.map((owner) => (
          <OwnerGroup
            key={owner.key}
            owner={owner}
            citations={screen.citations}
            partial={!portfolio.complete}
            areaUid={search.areaUid}
            isPageOwner={pageOwnerKey !== null && owner.key === pageOwnerKey}
            more={more}
          />
        ))}
      </div>
      {failed !== null && <ErrorNotice error={pages[failed]?.error} onRetry={() => retry(failed)} />}
      {more && (
        <div className="owners__more">
          <ChargeButton
            operation="searchProperties"
            request={more.request}
            label={nextPageLabel(more.remaining)}
            what="the next page of holdings"
            busy={more.busy}
            primary={false}
            onRun={more.onRun}
          />
        </div>
      )}
    </section>
  );
}

/** "Load the next 50 holdings (202 not loaded)". */
function nextPageLabel(remaining: number | null): string {
  const page = remaining === null ? 50 : Math.min(50, remaining);
  return `Load the next ${page} ${page === 1 ? 'holding' : 'holdings'}${remaining !== null && remaining > page ? ` (${remaining.toLocaleString('en-US')} not loaded)` : ''}`;
}

interface MorePages {
  request: SearchRequest;
  busy: boolean;
  onRun: (options: CallOptions) => void;
  remaining: number | null;
}

function OwnerGroup(props: {
  owner: PortfolioOwner;
  citations: ReadonlyMap<string, Citation>;
  partial: boolean;
  areaUid: string;
  isPageOwner: boolean;
  more: MorePages | null;
}) {
  const { owner, citations, partial, areaUid, isPageOwner, more } = props;
  const openEntity = useUiStore((state) => state.openEntity);
  const openOwner = useUiStore((state) => state.openOwner);
  const remember = useEntityCaptions((state) => state.remember);
  const headingId = useId();
  const open = (holding: PortfolioHolding) => {
    const caption = holding.address.status === 'unavailable' ? holding.identifier.display : holding.address.display;
    remember({ [holding.openId]: caption, [holding.propertyRef]: caption });
    openEntity(holding.openId);
  };
  const variants = variantsText(owner);
  const named = owner.ownerId !== null;

  return (
    <section className="owner-group stack gap-1" aria-labelledby={headingId} data-testid="owner-group">
      <header className="owner-group__header cluster">
        <h2 id={headingId} className="owner-group__name">
          {named ? owner.name : 'Holdings whose records publish no owner name'}
        </h2>
        {named && owner.holdings[0] && <Sources value={owner.holdings[0].owner} citations={citations} />}
        <span className="owner-group__count" data-testid="owner-group-count">
          {owner.countText}
        </span>
        {named && !isPageOwner && (
          <button type="button" className="button button--small" onClick={() => openOwner(owner.name, areaUid)}>
            Other holdings of this owner
          </button>
        )}
        {partial && more && (
          <ChargeButton
            operation="searchProperties"
            request={more.request}
            label="Load the next page"
            what="the next page of holdings"
            busy={more.busy}
            primary={false}
            onRun={more.onRun}
          />
        )}
      </header>
      {variants && <p className="owner-group__variants">{variants}</p>}
      <TotalLine label="Total assessed value" value={owner.totalAssessed} citations={citations} />
      <DataTable
        label={`Holdings published under the owner name ${owner.name}`}
        columns={holdingColumns(open, citations)}
        rows={owner.holdings}
        rowKey={(holding) => holding.propertyRef}
        onOpen={open}
        // The group's header counts the holdings and says whether all are loaded; "46 rows" would read as the owner's whole count.
        count={false}
      />
    </section>
  );
}

const KIND_WORDS: Record<string, string> = { parcel: 'parcel', unit: 'unit', property: 'property' };

function holdingColumns(open: (holding: PortfolioHolding) => void, citations: ReadonlyMap<string, Citation>): Column<PortfolioHolding>[] {
  return [
    {
      id: 'address',
      header: 'Address',
      text: (holding) => holding.address.display,
      render: (holding) => (
        <button type="button" className="link-button" onClick={() => open(holding)} title={`Open the ${KIND_WORDS[holding.openKind] ?? holding.openKind} (${holding.openId})`}>
          {holding.address.status === 'unavailable' ? `${KIND_WORDS[holding.openKind] ?? holding.openKind} without a published address` : holding.address.display}
        </button>
      ),
      width: '22%',
    },
    {
      id: 'identifier',
      header: 'SSL / account',
      text: (holding) => holding.identifier.display,
      render: (holding) => <PortfolioValue value={holding.identifier} citations={citations} mono />,
      width: '11%',
    },
    { id: 'kind', header: 'Opens', text: (holding) => KIND_WORDS[holding.openKind] ?? holding.openKind, width: '6%' },
    { id: 'use', header: 'Use code', text: (holding) => holding.use.display, render: (holding) => <PortfolioValue value={holding.use} citations={citations} />, width: '7%' },
    {
      id: 'assessed',
      header: 'Assessed',
      text: (holding) => holding.assessed.display,
      render: (holding) => <PortfolioValue value={holding.assessed} citations={citations} />,
      sortValue: (holding) => (typeof holding.assessed.raw === 'number' ? holding.assessed.raw : null),
      align: 'right',
      width: '11%',
    },
    {
      id: 'sale',
      header: 'Last sale',
      text: (holding) => lastSaleText(holding),
      sortValue: (holding) => (typeof holding.lastSaleDate.raw === 'string' ? holding.lastSaleDate.raw : null),
      width: '17%',
    },
    {
      id: 'source',
      header: 'Sources',
      text: (holding) =>
        holdingSources(holding, citations)
          .map((source) => source.citation.publisher ?? '')
          .join('; '),
      render: (holding) => (
        <span className="owners__chips record-chips">
          {holdingSources(holding, citations).map((source) => (
            <CitationChip key={source.citation.id} citation={citationView(source.citation)} marker={sourceLabel(source.citation)}>
              <p className="cited-value__note">Gives: {source.supports.join(', ')}.</p>
              {source.notes.map((note) => (
                <p key={note} className="cited-value__note">
                  {note}
                </p>
              ))}
            </CitationChip>
          ))}
        </span>
      ),
    },
  ];
}

/** A derived total with what it sums, and why it is not the whole when it is not. */
function TotalLine({ label, value, citations, testId }: { label: string; value: CitedValue; citations: ReadonlyMap<string, Citation>; testId?: string }) {
  if (value.status === 'unavailable') {
    return (
      <p className="owner-group__total" data-testid={testId}>
        <span className="muted">{label}</span> not known: {value.limitation}
      </p>
    );
  }
  return (
    <p className="owner-group__total" data-testid={testId}>
      <span className="muted">{label}</span> <PortfolioValue value={value} citations={citations} withSources />
      {value.derivedFrom && <span className="owner-group__derived"> {value.derivedFrom}</span>}
      {value.limitation && <strong className="owner-group__limitation"> {value.limitation}</strong>}
    </p>
  );
}

/**
 * A holding's record chip named by the record it is ("DC OTR sale"): one publisher's ownership,
 * assessment and sale records are three records with one label otherwise.
 */
function sourceLabel(citation: Citation): string {
  const what = citation.sourceId?.split('_').at(-1) ?? null;
  return `${publisherShortName(citation.publisher)}${what ? ` ${what}` : ''}${citation.synthetic ? ' (synthetic)' : ''}`;
}

/** A portfolio value in a cell: as displayed, flagged when not as published, "—" with the reason when unavailable. */
function PortfolioValue({ value, citations, mono = false, withSources = false }: { value: CitedValue; citations: ReadonlyMap<string, Citation>; mono?: boolean; withSources?: boolean }) {
  if (value.status === 'unavailable') {
    return (
      <span className="owners__unavailable" title={value.limitation ?? 'Not in the answers.'}>
        —<span className="visually-hidden"> {value.limitation ?? 'Not in the answers.'}</span>
      </span>
    );
  }
  return (
    <span className={`cited-value${value.status === 'synthetic' ? ' cited-value--synthetic' : ''}`}>
      <span className={`cited-value__text${mono ? ' mono' : ''}`}>{value.display}</span>
      {value.status !== 'reported' && <span className={`owners__flag owners__flag--${value.status}`}>{value.status}</span>}
      {value.limitation && value.status !== 'derived' && (
        // A value only the parcel's other row carries says so (shared/graph/holdings.ts words it).
        <span className="owners__from-other muted" title={value.limitation}>
          {' '}
          {value.limitation}
        </span>
      )}
      {withSources && <Sources value={value} citations={citations} />}
    </span>
  );
}

/** The chips of the citations a value rests on. */
function Sources({ value, citations }: { value: CitedValue; citations: ReadonlyMap<string, Citation> }) {
  return (
    <>
      {value.citationIds.map((id) => {
        const citation = citations.get(id);
        return citation ? (
          <CitationChip key={id} citation={citationView(citation)}>
            {value.derivedFrom && <p className="cited-value__note">{value.derivedFrom}</p>}
          </CitationChip>
        ) : null;
      })}
    </>
  );
}
