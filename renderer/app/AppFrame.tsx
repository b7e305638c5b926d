import { useEffect, useRef } from 'react';
import { ownerOfTrailEntry, useUiStore } from './ui-store.ts';
import { firstView, viewForShortcut, views, type ViewId } from './views.ts';
import { StatusLine } from './StatusLine.tsx';
import { HostLinkNotice } from './HostLinkNotice.tsx';
import { ViewNotBuilt } from '../views/ViewNotBuilt.tsx';
import { entityPage, ownerPage, viewComponents } from './view-registry.tsx';
import { isLazyView, preloadWhenSettled } from '../components/lazy-view.tsx';
import { ViewLoadBoundary } from '../components/ViewLoading.tsx';
import { useEntityCaptions } from '../components/entity-captions.ts';
import { entityKindLabelByPrefix, entityPrefix } from '../../shared/service/common.ts';
import { shortId } from '../../shared/graph/relations.ts';
import { FindBar, FindPalette, findShortcutText } from '../features/find/FindPalette.tsx';
import { useFindStore } from '../features/find/find-store.ts';
import './app-frame.css';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

/** Starts loading a view's code ahead of its opening (a no-op for one already in). */
function preload(component: unknown): void {
  if (isLazyView(component)) void component.preload();
}

export function AppFrame() {
  const activeView = useUiStore((state) => state.activeView);
  const openView = useUiStore((state) => state.openView);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const modifier = isMac ? event.metaKey : event.ctrlKey;
      if (!modifier || event.altKey || event.shiftKey) return;
      if (event.key === 'k' || event.key === 'K') {
        // Find from anywhere: the Search view's own box when it is on screen, else the palette.
        event.preventDefault();
        const ui = useUiStore.getState();
        if (ui.activeView === 'search' && ui.entityTrail.length === 0) useFindStore.getState().focusBox();
        else useFindStore.getState().openPalette();
        return;
      }
      const view = viewForShortcut(Number.parseInt(event.key, 10));
      if (view) {
        event.preventDefault();
        openView(view.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [openView]);

  // The pages the first screen leads to (a search's results open them) are loaded once it has settled.
  useEffect(() => preloadWhenSettled([entityPage.component, ownerPage.component]), []);

  // A view opened by name takes the focus to its heading (the page body otherwise keeps it).
  const viewOpenedTick = useUiStore((state) => state.viewOpenedTick);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (viewOpenedTick > 0) headingRef.current?.focus();
  }, [viewOpenedTick]);

  const entityTrail = useUiStore((state) => state.entityTrail);
  const current = views.find((view) => view.id === activeView) ?? firstView;
  const View = viewComponents[current.id];
  // The page on top of the trail: an owner's page or an entity's.
  const top = entityTrail.at(-1);
  const owner = top === undefined ? null : ownerOfTrailEntry(top);
  const EntityPage = entityPage.component;
  const OwnerPage = ownerPage.component;
  const pageLabel = useEntityCaptions((state) => (top === undefined ? '' : trailLabel(top, state.captions[top])));
  const page =
    top === undefined ? null : owner ? (
      OwnerPage && <OwnerPage key={top} name={owner.name} areaUid={owner.areaUid} />
    ) : (
      EntityPage && <EntityPage key={top} entityId={top} />
    );

  return (
    <div className="app-frame">
      <nav className="app-nav" aria-label="Views">
        <div className="app-nav__brand">
          <span className="app-nav__logo" aria-hidden="true">▦</span> Plat
        </div>
        <button type="button" className="app-nav__item app-nav__find" onClick={() => useFindStore.getState().openPalette()} title={`Find a property (${findShortcutText})`}>
          <span>Find a property…</span>
          <kbd className="app-nav__kbd">{findShortcutText}</kbd>
        </button>
        <ul className="nav-list">
          {views.map((view) => (
            <li key={view.id}>
              <NavButton id={view.id} label={view.label} shortcut={view.shortcut} active={view.id === activeView} onOpen={openView} />
            </li>
          ))}
        </ul>
      </nav>
      <main className="app-main" aria-labelledby="view-title">
        <HostLinkNotice />
        {page ? (
          <>
            <PageTrail viewLabel={current.label} />
            <ViewLoadBoundary key={top} label={pageLabel} onRetry={() => preload(owner ? OwnerPage : EntityPage)}>
              {page}
            </ViewLoadBoundary>
          </>
        ) : (
          <>
            <header className="app-main__header">
              <h1 id="view-title" ref={headingRef} tabIndex={-1}>
                {current.label}
              </h1>
              <p className="muted">{current.summary}</p>
            </header>
            <div className="app-main__body">
              {current.id === 'search' && <FindBar />}
              {View ? (
                <ViewLoadBoundary key={current.id} label={current.label} onRetry={() => preload(View)}>
                  <View />
                </ViewLoadBoundary>
              ) : (
                <ViewNotBuilt label={current.label} summary={current.summary} />
              )}
            </div>
          </>
        )}
      </main>
      <StatusLine />
      <FindPalette />
    </div>
  );
}

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

/** "Parcel 1708 21ST ST NW", "Owner JOEL KUIPERS": an entity by the caption last shown for it, else its kind and a short id. */
function trailLabel(entry: string, caption: string | undefined): string {
  const owner = ownerOfTrailEntry(entry);
  if (owner) return `Owner ${owner.name}`;
  const prefix = entityPrefix(entry);
  const kind = prefix === undefined ? 'Entity' : entityKindLabelByPrefix[prefix];
  return `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ${caption ?? shortId(entry)}`;
}

/** Where the pages over the views came from: Back or Escape goes one step back, a crumb back to it. */
function PageTrail({ viewLabel }: { viewLabel: string }) {
  const trail = useUiStore((state) => state.entityTrail);
  const activeView = useUiStore((state) => state.activeView);
  const closeEntity = useUiStore((state) => state.closeEntity);
  const openView = useUiStore((state) => state.openView);
  const captions = useEntityCaptions((state) => state.captions);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || escapeIsTaken(event)) return;
      event.preventDefault();
      closeEntity();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [closeEntity]);

  const backTo = (index: number) => {
    for (let step = trail.length - 1; step > index; step--) closeEntity();
  };
  return (
    <nav className="page-trail pane-bar" aria-label="Entity trail">
      <button type="button" className="button button--small" onClick={closeEntity} title="Back (Escape)">
        ← Back
      </button>
      <ol>
        <li>
          <button type="button" className="link-button" onClick={() => openView(activeView)}>
            {viewLabel}
          </button>
        </li>
        {trail.map((entry, index) => (
          <li key={`${entry}:${index}`}>
            {index === trail.length - 1 ? (
              <span aria-current="page">{trailLabel(entry, captions[entry])}</span>
            ) : (
              <button type="button" className="link-button" onClick={() => backTo(index)} title={ownerOfTrailEntry(entry) ? undefined : entry}>
                {trailLabel(entry, captions[entry])}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function NavButton(props: { id: ViewId; label: string; shortcut: number; active: boolean; onOpen: (view: ViewId) => void }) {
  return (
    <button
      type="button"
      className="app-nav__item"
      aria-current={props.active ? 'page' : undefined}
      onClick={() => props.onOpen(props.id)}
      // The view's code starts loading as the pointer or the focus reaches its entry, before the click.
      onPointerEnter={() => preload(viewComponents[props.id])}
      onFocus={() => preload(viewComponents[props.id])}
      title={`${props.label} (${isMac ? '⌘' : 'Ctrl+'}${props.shortcut})`}
    >
      <span>{props.label}</span>
      <kbd className="app-nav__kbd">{isMac ? '⌘' : 'Ctrl '}{props.shortcut}</kbd>
    </button>
  );
}
