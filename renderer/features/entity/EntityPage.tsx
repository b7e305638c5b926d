// The entity page, shown over any view under the app frame's trail: what the entity is (its kind and
// what a person recognises it by, the id small and copyable), its summary, its own record, and the
// entities linked to it.
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { IpcResponse } from '../../../shared/ipc.ts';
import { paidAnswerQuery } from '../../platform/paid-answer.ts';
import { useEntityCaptions } from '../../components/entity-captions.ts';
import { entityPageSlots, type SummaryUseOf } from '../../app/entity-slots.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { capitalise, entityKindLabel, pageTitle } from './entity-model.ts';
import { SummarySection } from './SummarySection.tsx';
import { RecordSection } from './RecordSection.tsx';
import { ConnectedSection } from './ConnectedSection.tsx';
import { CopyId } from './CopyId.tsx';
import './entity.css';

const noSummaryUse: SummaryUseOf = () => null;
const useNoSummaryUse = (_entityId: string): SummaryUseOf => noSummaryUse;

export function EntityPage({ entityId }: { entityId: string }) {
  const captions = useEntityCaptions((state) => state.captions);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // The entity's own record (free; RecordSection loads it) names it and says its area.
  const record = useQuery<IpcResponse<'getEntity'>>(paidAnswerQuery('getEntity', { path: { entity_ref: entityId } }));

  useEffect(() => {
    titleRef.current?.focus();
  }, [entityId]);

  const kind = capitalise(entityKindLabel(entityId));
  const caption = captions[entityId];
  const title = pageTitle(entityId, record.data?.envelope ?? null, caption);
  const EntityActions = entityPageSlots.actions;
  const AssignmentSubject = entityPageSlots.subject;
  // Set before this page's code is in (view-registry.tsx), so the same hook runs on every render.
  const summaryUse = (entityPageSlots.useSummaryUse ?? useNoSummaryUse)(entityId);
  const openGraph = useUiStore((state) => state.openGraph);

  return (
    <article className="page" data-testid="entity-page">
      <header className="page__header">
        <h1 id="view-title" ref={titleRef} tabIndex={-1}>
          {kind}
          {title.names.length > 0 && <span className="entity-page__caption"> · {title.names.join(' · ')}</span>}
        </h1>
        {title.invalidKey && (
          <p className="notice notice--warning entity-page__invalid" role="note">
            {title.invalidKey}
          </p>
        )}
        <p className="entity-page__id cluster">
          <span className="muted">Entity id</span> <CopyId id={entityId} whose={`this ${entityKindLabel(entityId)}`} full />
        </p>
        <div className="entity-page__actions cluster gap-3">
          <button type="button" className="button" onClick={() => openGraph(entityId)} title="Draw this entity and what links to it, with why each link exists">
            Open in the graph
          </button>
          {EntityActions && <EntityActions entityId={entityId} caption={caption} />}
        </div>
      </header>

      <div className="entity-page__body">
        <div className="entity-page__main stack gap-4">
          {AssignmentSubject && <AssignmentSubject entityId={entityId} />}
          <SummarySection entityId={entityId} areaUid={title.areaUid} assignmentUse={summaryUse} />
          <RecordSection entityId={entityId} />
        </div>
        <div className="entity-page__side stack gap-4">
          <ConnectedSection entityId={entityId} areaUid={title.areaUid} />
        </div>
      </div>
    </article>
  );
}
