// Entities linked to this one, grouped by relation, each a link that opens it. Parcels, accounts,
// units and addresses use the v4 connected operation (free; depth 1 to 3, paged). The operation's
// first form does not take properties or loans, so for those the page offers the v2 relationship
// traversal instead, which is priced and therefore runs only from its button.
import { useId, useMemo, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useUiStore } from '../../app/ui-store.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { callService } from '../../platform/service-calls.ts';
import { servicePagesQueryKey } from '../../platform/query-keys.ts';
import {
  canListConnected,
  capitalise,
  depthOptions,
  entityKindLabel,
  groupConnected,
  relationshipGroups,
  shortEntityId,
  type ConnectedEntry,
  type ConnectedGroup,
  type LinkDepth,
} from './entity-model.ts';
import { envelopeData } from '../../components/service-data.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { DeliveryLine } from '../../components/DeliveryLine.tsx';
import { useEntityCaptions } from '../../components/entity-captions.ts';

const PAGE_SIZE = 50;

export function ConnectedSection({ entityId }: { entityId: string }) {
  const headingId = useId();
  return (
    <section className="entity-section" aria-labelledby={headingId} data-testid="entity-connected">
      <header className="entity-section__header">
        <h2 id={headingId}>Connected entities</h2>
      </header>
      {canListConnected(entityId) ? <ConnectedList entityId={entityId} /> : <RelationshipList entityId={entityId} />}
    </section>
  );
}

function ConnectedList({ entityId }: { entityId: string }) {
  const [depth, setDepth] = useState<LinkDepth>(2);
  const depthId = useId();
  const firstPage = { path: { q_id: entityId }, query: { depth, limit: PAGE_SIZE } };
  const pages = useInfiniteQuery({
    queryKey: servicePagesQueryKey('getConnectedEntities', firstPage),
    queryFn: ({ pageParam }) =>
      callService('getConnectedEntities', pageParam === null ? firstPage : { ...firstPage, query: { ...firstPage.query, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => {
      const cursor = last.envelope.status === 'ok' ? (last.envelope.data.next_cursor ?? last.envelope.meta.next_cursor) : null;
      return typeof cursor === 'string' && cursor !== '' ? cursor : null;
    },
  });

  const view = useMemo((): { groups: ConnectedGroup[]; shown: number; total: number | null } | { error: unknown } | null => {
    if (!pages.data) return null;
    try {
      const datas = pages.data.pages.map((page) => envelopeData(page.envelope));
      const items = datas.flatMap((data) => data.items);
      const total = (datas[0] as { total?: unknown } | undefined)?.total;
      return { groups: groupConnected(items), shown: items.length, total: typeof total === 'number' ? total : null };
    } catch (error) {
      return { error };
    }
  }, [pages.data]);

  return (
    <>
      <div className="entity-section__toolbar">
        <label htmlFor={depthId}>Link depth</label>
        <select id={depthId} value={depth} onChange={(event) => setDepth(Number(event.target.value) as LinkDepth)}>
          {depthOptions.map((option) => (
            <option key={option} value={option}>
              {option === 1 ? '1 link' : `up to ${option} links`}
            </option>
          ))}
        </select>
        <span className="muted entity-section__source">v4 connected · free</span>
        {view && 'groups' in view && (
          <span className="muted entity-connected__count" role="status">
            {view.total !== null && view.total > view.shown ? `${view.shown} of ${view.total}` : view.shown}{' '}
            {view.shown === 1 ? 'entity' : 'entities'} within {depth} {depth === 1 ? 'link' : 'links'}
          </span>
        )}
      </div>
      {pages.isPending && (
        <p className="muted" role="status">
          Finding entities linked to this one…
        </p>
      )}
      {pages.isError && !pages.isFetchNextPageError && <ErrorNotice error={pages.error} onRetry={() => void pages.refetch()} />}
      {view && 'error' in view && <ErrorNotice error={view.error} />}
      {view && 'groups' in view && (
        <>
          {view.groups.length === 0 ? (
            <p className="muted">Nothing is linked to this entity within {depth === 1 ? '1 link' : `${depth} links`}.</p>
          ) : (
            <GroupList groups={view.groups} rootId={entityId} />
          )}
          {pages.hasNextPage && (
            <p>
              <button type="button" className="button button--small" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
                {pages.isFetchingNextPage ? 'Loading…' : `Show the next ${PAGE_SIZE}`}
              </button>{' '}
              <span className="muted">Free</span>
            </p>
          )}
          {pages.isFetchNextPageError && <ErrorNotice error={pages.error} onRetry={() => void pages.fetchNextPage()} />}
        </>
      )}
    </>
  );
}

/** For properties and loans: the v2 traversal, one link out and in, bought from its button. */
function RelationshipList({ entityId }: { entityId: string }) {
  const request = { path: { entity_ref: entityId }, query: { depth: 1, direction: 'both' as const } };
  const { query, buy, retry, shownAgain } = usePaidAnswer('traverseRelationships', request, { loadWhenFree: true });
  const view = useMemo((): { groups: ConnectedGroup[]; warnings: string[] } | { error: unknown } | null => {
    if (!query.data) return null;
    try {
      const envelope = query.data.envelope;
      return { groups: relationshipGroups(envelopeData(envelope), envelope.provenance?.sources), warnings: envelope.meta.warnings ?? [] };
    } catch (error) {
      return { error };
    }
  }, [query.data]);

  return (
    <>
      {!query.data && (
        <div className="entity-section__buy">
          <p className="muted">
            The connected-entities operation starts from a parcel, account, unit or address, not a {entityKindLabel(entityId)}. The relationship
            traversal lists this {entityKindLabel(entityId)}’s links instead, each with its reason and source.
          </p>
          <ChargeButton
            operation="traverseRelationships"
            request={request}
            label="List its links"
            what="the relationships of this entity"
            busy={query.isFetching}
            onRun={buy}
            primary={false}
          />
        </div>
      )}
      {query.isError && <ErrorNotice error={query.error} onRetry={retry} />}
      {query.data && <DeliveryLine billing={query.data.billing} shownAgain={shownAgain} />}
      {view && 'error' in view && <ErrorNotice error={view.error} />}
      {view && 'groups' in view && (
        <>
          {view.warnings.map((warning) => (
            <p key={warning} className="notice notice--warning">
              {warning}
            </p>
          ))}
          {view.groups.length === 0 ? <p className="muted">Nothing is linked to this entity.</p> : <GroupList groups={view.groups} rootId={entityId} />}
        </>
      )}
    </>
  );
}

function GroupList({ groups, rootId }: { groups: ConnectedGroup[]; rootId: string }) {
  return (
    <div className="entity-connected">
      {groups.map((group) => (
        <section key={group.relation} className="entity-connected__group" aria-label={`${group.label}: ${group.entries.length}`}>
          <h3>
            {group.label} <span className="muted">{group.entries.length}</span>
          </h3>
          {group.nameOnly && (
            <p className="entity-connected__caution">
              Linked only by the owner’s name as published: the same name can belong to different people. Treat these as leads, not facts.
            </p>
          )}
          <ul>
            {group.entries.map((entry) => (
              <ConnectedItem key={`${entry.qId}:${entry.via}`} entry={entry} rootId={rootId} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function ConnectedItem({ entry, rootId }: { entry: ConnectedEntry; rootId: string }) {
  const openEntity = useUiStore((state) => state.openEntity);
  const caption = useEntityCaptions((state) => state.captions[entry.qId]);
  const kind = capitalise(entry.type.replace(/_/g, ' '));
  const name = entry.label ?? caption;
  return (
    <li className="entity-connected__item">
      {entry.openable ? (
        <button type="button" className="link-button" onClick={() => openEntity(entry.qId)} title={entry.qId}>
          <span className="entity-connected__kind">{kind}</span> {name ?? <span className="mono">{shortEntityId(entry.qId)}</span>}
        </button>
      ) : (
        <span>
          <span className="entity-connected__kind">{kind}</span> {name ?? <span className="mono">{shortEntityId(entry.qId)}</span>}
        </span>
      )}
      <span className="entity-connected__meta muted">
        {entry.depth > 1 && entry.via !== rootId && <span title={entry.via}>via {shortEntityId(entry.via)}</span>}
        {entry.depth > 1 && <span>{entry.depth} links away</span>}
        {entry.confidence !== null && entry.confidence < 1 && <span>confidence {Math.round(entry.confidence * 100)}%</span>}
      </span>
      {entry.citation && <CitationChip citation={entry.citation} />}
      {entry.explanation && <p className="entity-connected__why">{entry.explanation}</p>}
    </li>
  );
}
