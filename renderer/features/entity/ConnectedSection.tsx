// What this entity is linked to, read from it: each linked entity named by what a person recognises
// (address, SSL, account number, owner name) with its kind and its id small beside it, each link in
// the direction shown ("Holds → Property 1708 21ST ST NW", "Assessed under → Account 0065 0007"),
// grouped by relation with a count, each with why it exists and its sources; links further out as a
// path from the entity they start at; an owner one click from its page. From the v2 relationship
// traversal and the entity's own record, which names its owner. The traversal loads by itself only
// where its price is known to be zero (Plat's embedded service); elsewhere it may cost, so it waits
// for a click on a button that shows its price, or "price not known".
import { useId, useMemo, useState } from 'react';
import { useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { IpcResponse } from '../../../shared/ipc.ts';
import { citationView, publisherShortName } from '../../../shared/cited/citation.ts';
import type { Citation } from '../../../shared/cited/value.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { UnrecognisedAnswer } from '../../components/UnrecognisedAnswer.tsx';
import { useEntityCaptions } from '../../components/entity-captions.ts';
import { buyAnswer, paidAnswerQuery, usePaidAnswer } from '../../platform/paid-answer.ts';
import { serviceQueryKey } from '../../platform/query-keys.ts';
import { connectedView, type ConnectedView, type LinkEntry, type LinkGroup, type LinkedEntity } from './connected-model.ts';
import { depthOptions, type LinkDepth } from './entity-model.ts';
import { CopyId } from './CopyId.tsx';

type TraversalPage = IpcResponse<'traverseRelationships'>;

/** Links per page, and the service's caps (its most): beyond them it says it stopped. */
const PAGE_SIZE = 100;
const MAX_NODES = 200;
const MAX_EDGES = 200;
/** More pages than the caps allow (200 links of 100 a page): a guard. */
const MAX_PAGES = 10;
/** Entries a group shows before "Show all". */
const GROUP_PREVIEW = 8;

export function traversalRequest(entityId: string, depth: LinkDepth, cursor?: string) {
  return {
    path: { entity_ref: entityId },
    query: { depth, direction: 'both' as const, max_nodes: MAX_NODES, max_edges: MAX_EDGES, page_size: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) },
  };
}

type TraversalRequest = ReturnType<typeof traversalRequest>;

const nextCursorOf = (page: TraversalPage | undefined): string | null => {
  const cursor = page?.envelope.status === 'ok' ? page.envelope.meta.next_cursor : null;
  return typeof cursor === 'string' && cursor !== '' ? cursor : null;
};

export function ConnectedSection({ entityId, areaUid }: { entityId: string; areaUid: string | null }) {
  const headingId = useId();
  const depthId = useId();
  const [depth, setDepth] = useState<LinkDepth>(2);
  return (
    <section className="entity-section stack" aria-labelledby={headingId} data-testid="entity-connected">
      <header className="entity-section__header">
        <h2 id={headingId}>Connected entities</h2>
        <span className="muted entity-section__source">read from this entity · v2 relationships</span>
      </header>
      <div className="entity-section__toolbar cluster">
        <label htmlFor={depthId}>Link depth</label>
        <select id={depthId} value={depth} onChange={(event) => setDepth(Number(event.target.value) as LinkDepth)}>
          {depthOptions.map((option) => (
            <option key={option} value={option}>
              {option === 1 ? '1 link' : `up to ${option} links`}
            </option>
          ))}
        </select>
      </div>
      {/* Keyed by depth: each depth is its own answer, loaded by itself only when known to be free. */}
      <ConnectedList key={depth} entityId={entityId} depth={depth} areaUid={areaUid} />
    </section>
  );
}

/** Page 1, then each next page once it has been asked for, and the first one not yet asked for. */
function useTraversalPages(entityId: string, depth: LinkDepth): { requests: TraversalRequest[]; pages: UseQueryResult<TraversalPage>[] } {
  const queryClient = useQueryClient();
  const requests: TraversalRequest[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const request = traversalRequest(entityId, depth, cursor);
    requests.push(request);
    const next = nextCursorOf(queryClient.getQueryData<TraversalPage>(serviceQueryKey('traverseRelationships', request)));
    if (next === null) break;
    cursor = next;
  }
  const pages = useQueries({ queries: requests.map((request) => paidAnswerQuery('traverseRelationships', request)) }) as UseQueryResult<TraversalPage>[];
  return { requests, pages };
}

function ConnectedList({ entityId, depth, areaUid }: { entityId: string; depth: LinkDepth; areaUid: string | null }) {
  const queryClient = useQueryClient();
  const firstRequest = traversalRequest(entityId, depth);
  const { query, buy, retry } = usePaidAnswer('traverseRelationships', firstRequest, { loadWhenFree: true });
  const { requests, pages } = useTraversalPages(entityId, depth);
  const record = useQuery<IpcResponse<'getEntity'>>(paidAnswerQuery('getEntity', { path: { entity_ref: entityId } }));

  const held = pages.filter((page) => page.data !== undefined).map((page) => (page.data as TraversalPage).envelope);
  const recordEnvelope = record.data?.envelope ?? null;
  const heldKey = pages.map((page) => page.dataUpdatedAt).join(',');
  const view = useMemo((): { ok: ConnectedView } | { error: unknown } | null => {
    if (held.length === 0) return null;
    try {
      return { ok: connectedView(entityId, held, recordEnvelope) };
    } catch (error) {
      return { error };
    }
    // The pages held change only when one lands (heldKey); the array itself is new each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entityId, heldKey, recordEnvelope]);

  const pending = pages.at(-1);
  const nextIndex = pages.length > 1 && pending && pending.data === undefined ? pages.length - 1 : null;
  const nextRequest = nextIndex === null ? null : (requests[nextIndex] ?? null);
  const warnings = held.flatMap((envelope) => (envelope.status === 'ok' ? (envelope.meta.warnings ?? []) : []));

  return (
    <>
      {!query.data && !query.isFetching && !query.isError && (
        <div className="buy-prompt">
          <p className="muted">Every link of this entity, read from it, each with its reason and source.</p>
          <ChargeButton operation="traverseRelationships" request={firstRequest} label="List its links" what="the links of this entity" onRun={buy} primary={false} />
        </div>
      )}
      {query.isFetching && !query.data && (
        <p className="muted" role="status">
          Finding what is linked to this entity…
        </p>
      )}
      {query.isError && <ErrorNotice error={query.error} onRetry={retry} />}
      {view && 'error' in view && <ErrorNotice error={view.error} />}
      {view && 'ok' in view && (
        <>
          <p className="muted entity-connected__count" role="status">
            {countText(view.ok, depth)}
          </p>
          {[...view.ok.problems, ...new Set(warnings)].map((problem) => (
            <p key={problem} className="notice notice--warning">
              {problem}
            </p>
          ))}
          {view.ok.unread.map((unread) => (
            <UnrecognisedAnswer key={unread.part} part={unread.part} value={unread.value} citations={unread.citations} />
          ))}
          {view.ok.groups.length > 0 ? (
            <Groups view={view.ok} areaUid={areaUid} />
          ) : view.ok.unread.length === 0 ? (
            <p className="muted">Nothing is linked to this entity within {depth === 1 ? '1 link' : `${depth} links`}.</p>
          ) : null}
          {nextRequest && (
            <div>
              <ChargeButton
                operation="traverseRelationships"
                request={nextRequest}
                label={`Show the next ${PAGE_SIZE} links`}
                what="the next page of links"
                busy={nextIndex !== null && pages[nextIndex]?.isFetching === true}
                primary={false}
                onRun={(options) => void buyAnswer(queryClient, 'traverseRelationships', nextRequest, options)}
              />
            </div>
          )}
          {nextIndex !== null && pages[nextIndex]?.isError && (
            <ErrorNotice error={pages[nextIndex]?.error} onRetry={() => void buyAnswer(queryClient, 'traverseRelationships', nextRequest ?? firstRequest, {})} />
          )}
        </>
      )}
    </>
  );
}

/** "4 entities within 2 links", and what is not listed when the answer is partial. */
export function countText(view: Pick<ConnectedView, 'entities' | 'linksHeld' | 'linksFound' | 'stopped'>, depth: number): string {
  const within = `${view.entities} ${view.entities === 1 ? 'entity' : 'entities'} within ${depth} ${depth === 1 ? 'link' : 'links'}`;
  const parts = [within];
  if (view.linksFound !== null && view.linksHeld < view.linksFound) parts.push(`${view.linksHeld} of ${view.linksFound} links listed`);
  if (view.stopped !== null) parts.push(`the service stopped at ${view.stopped}, so more may be linked`);
  return parts.join(' · ');
}

function Groups({ view, areaUid }: { view: ConnectedView; areaUid: string | null }) {
  const near = view.groups.filter((group) => !group.further);
  const further = view.groups.filter((group) => group.further);
  return (
    <div className="entity-connected stack gap-3">
      {near.map((group) => (
        <Group key={group.key} group={group} view={view} areaUid={areaUid} level={3} />
      ))}
      {further.length > 0 && (
        <>
          <h3 className="entity-connected__further">Further out, through the entities above</h3>
          {further.map((group) => (
            <Group key={group.key} group={group} view={view} areaUid={areaUid} level={4} />
          ))}
        </>
      )}
    </div>
  );
}

function Group({ group, view, areaUid, level }: { group: LinkGroup; view: ConnectedView; areaUid: string | null; level: 3 | 4 }) {
  const openOwner = useUiStore((state) => state.openOwner);
  const sameName = group.key.startsWith('same_owner:');
  const Heading = level === 3 ? 'h3' : 'h4';
  // A portfolio owner's account has hundreds of same-name links: the first few, then all on request.
  const [all, setAll] = useState(false);
  const shown = all ? group.entries : group.entries.slice(0, GROUP_PREVIEW);
  const hidden = group.entries.length - shown.length;
  return (
    <section className="entity-connected__group" aria-label={`${group.label}: ${group.entries.length}`}>
      <Heading className="entity-connected__heading">
        {group.label} <span className="muted">{group.entries.length}</span>
      </Heading>
      {group.leads && (
        <p className="entity-connected__caution">
          {sameName
            ? 'Linked only by the owner’s name as published: the same name can belong to different people. Treat these as leads, not facts.'
            : (group.entries[0]?.warning ?? 'Leads, not facts: confirm them before relying on them.')}
          {group.ownerName && (
            <>
              {' '}
              <button type="button" className="link-button" onClick={() => openOwner(group.ownerName ?? '', areaUid)}>
                Other holdings of {group.ownerName}
              </button>
            </>
          )}
        </p>
      )}
      <ul>
        {shown.map((entry) => (
          <Entry key={entry.key} entry={entry} citations={view.citations} groupLeads={group.leads} areaUid={areaUid} />
        ))}
      </ul>
      {hidden > 0 && (
        <button type="button" className="button button--small entity-connected__all" onClick={() => setAll(true)}>
          Show all {group.entries.length} ({hidden} more)
        </button>
      )}
    </section>
  );
}

/**
 * A supporting record's chip named by the record it is ("DC OTR assessment"): one publisher's
 * ownership, assessment and sale records would otherwise read as one label twice.
 */
function recordChipLabel(citation: Citation): string {
  const what = citation.sourceId?.split('_').at(-1) ?? null;
  return `${publisherShortName(citation.publisher)}${what ? ` ${what}` : ''}${citation.synthetic ? ' (synthetic)' : ''}`;
}

/** The detail after the kind in a name's second line ("Parcel · 1708 21ST ST NW" → "1708 21ST ST NW"). */
function detailOf(entity: LinkedEntity): string | null {
  const [, ...rest] = entity.name.sublabel.split(' · ');
  const detail = rest.join(' · ');
  return detail === '' || entity.ownerName !== null ? null : detail;
}

function Entry({ entry, citations, groupLeads, areaUid }: { entry: LinkEntry; citations: ReadonlyMap<string, Citation>; groupLeads: boolean; areaUid: string | null }) {
  const openEntity = useUiStore((state) => state.openEntity);
  const openOwner = useUiStore((state) => state.openOwner);
  const remember = useEntityCaptions((state) => state.remember);
  const { other, via } = entry;
  const whose = `${other.kindLabel} ${other.name.label}`;
  const open = () => {
    remember({ [other.id]: other.name.label });
    openEntity(other.id);
  };
  const detail = detailOf(other);
  return (
    <li className={`entity-connected__item entity-connected__item--${entry.strength}`}>
      <div className="entity-connected__line">
        {via && (
          <span className="entity-connected__via">
            {via.kindLabel} {via.name.label} — {entry.label} →
          </span>
        )}
        {other.openable ? (
          <button type="button" className="link-button entity-connected__name" onClick={open}>
            <span className="entity-connected__kind">{other.kindLabel}</span> {other.name.label}
          </button>
        ) : (
          <span className="entity-connected__name">
            <span className="entity-connected__kind">{other.kindLabel}</span> {other.name.label}
          </span>
        )}
        {detail && <span className="muted entity-connected__detail">{detail}</span>}
        {entry.strength === 'lead' && <span className="entity-connected__lead">lead</span>}
        {other.ownerName && (
          <button type="button" className="button button--small" onClick={() => openOwner(other.ownerName ?? '', areaUid)}>
            Other holdings of this owner
          </button>
        )}
      </div>
      <div className="entity-connected__meta cluster record-chips">
        {entry.citationIds.map((id) => {
          const citation = citations.get(id);
          return citation ? <CitationChip key={id} citation={citationView(citation)} marker={recordChipLabel(citation)} /> : null;
        })}
        {other.ownerName === null && <CopyId id={other.id} whose={whose} />}
      </div>
      <details className="entity-connected__why">
        <summary>Why linked</summary>
        <p>{entry.because}</p>
        <p>{entry.validity}</p>
        <p>Confidence: {entry.confidenceText}</p>
      </details>
      {entry.warning && !groupLeads && <p className="entity-connected__caution">{entry.warning}</p>}
      {other.limitations.map((limitation) => (
        <p key={limitation} className="entity-connected__caution">
          {limitation}
        </p>
      ))}
    </li>
  );
}
