// The entity page, shown over any view while the entity trail is non-empty: where the user came from
// (a breadcrumb; Back or Escape goes one step back), what the entity is (kind and a copyable id), its
// summary, the entities linked to it, and its own record.
import { useEffect, useRef, useState } from 'react';
import { useUiStore } from '../../app/ui-store.ts';
import { views } from '../../app/views.ts';
import { capitalise, entityKindLabel, shortEntityId } from './entity-model.ts';
import { useEntityCaptions } from '../../components/entity-captions.ts';
import { SummarySection } from './SummarySection.tsx';
import { RecordSection } from './RecordSection.tsx';
import { ConnectedSection } from './ConnectedSection.tsx';
import { entityPageSlots } from '../../app/entity-slots.ts';
import './entity.css';

/**
 * Escape belongs to whatever is open on top (a dialog, an open select) before the page. An open
 * citation popover consumes its Escape before it gets here (CitationChip).
 */
function escapeIsTaken(event: KeyboardEvent): boolean {
  if (event.defaultPrevented) return true;
  if (document.querySelector('dialog[open]')) return true;
  const target = event.target as HTMLElement | null;
  return target !== null && (target.tagName === 'SELECT' || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA');
}

export function EntityPage({ entityId }: { entityId: string }) {
  const trail = useUiStore((state) => state.entityTrail);
  const activeView = useUiStore((state) => state.activeView);
  const closeEntity = useUiStore((state) => state.closeEntity);
  const openView = useUiStore((state) => state.openView);
  const captions = useEntityCaptions((state) => state.captions);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    titleRef.current?.focus();
  }, [entityId]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || escapeIsTaken(event)) return;
      event.preventDefault();
      closeEntity();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [closeEntity]);

  const viewLabel = views.find((view) => view.id === activeView)?.label ?? 'Back';
  const backTo = (index: number) => {
    for (let step = trail.length - 1; step > index; step--) closeEntity();
  };
  const kind = entityKindLabel(entityId);
  const caption = captions[entityId];
  const EntityActions = entityPageSlots.actions;

  return (
    <article className="entity-page" data-testid="entity-page">
      <nav className="entity-page__trail" aria-label="Entity trail">
        <button type="button" className="button button--small" onClick={closeEntity} title="Back (Escape)">
          ← Back
        </button>
        <ol>
          <li>
            <button type="button" className="link-button" onClick={() => openView(activeView)}>
              {viewLabel}
            </button>
          </li>
          {trail.map((id, index) => (
            <li key={`${id}:${index}`}>
              {index === trail.length - 1 ? (
                <span aria-current="page">{trailLabel(id, captions[id])}</span>
              ) : (
                <button type="button" className="link-button" onClick={() => backTo(index)} title={id}>
                  {trailLabel(id, captions[id])}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>

      <header className="entity-page__header">
        <h1 id="view-title" ref={titleRef} tabIndex={-1}>
          {capitalise(kind)}
          {caption && <span className="entity-page__caption"> · {caption}</span>}
        </h1>
        <EntityIdLine entityId={entityId} />
        {EntityActions && <EntityActions entityId={entityId} caption={caption} />}
      </header>

      <div className="entity-page__body">
        <div className="entity-page__main">
          <SummarySection entityId={entityId} />
          <RecordSection entityId={entityId} />
        </div>
        <div className="entity-page__side">
          <ConnectedSection entityId={entityId} />
        </div>
      </div>
    </article>
  );
}

function trailLabel(entityId: string, caption: string | undefined): string {
  return `${capitalise(entityKindLabel(entityId))} ${caption ?? shortEntityId(entityId)}`;
}

function EntityIdLine({ entityId }: { entityId: string }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = window.setTimeout(() => setCopied(null), 1800);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    navigator.clipboard.writeText(entityId).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  };
  return (
    <p className="entity-page__id">
      <span className="muted">Entity id</span>{' '}
      <code className="entity-page__id-text" data-testid="entity-id">
        {entityId}
      </code>{' '}
      <button type="button" className="button button--small" onClick={copy}>
        Copy id
      </button>
      <span role="status" className="entity-page__copied">
        {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the id and copy it' : ''}
      </span>
    </p>
  );
}
