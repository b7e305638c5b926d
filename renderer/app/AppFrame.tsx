import { useEffect } from 'react';
import { useUiStore } from './ui-store.ts';
import { viewForShortcut, views, type ViewId } from './views.ts';
import { StatusLine } from './StatusLine.tsx';
import { HostLinkNotice } from './HostLinkNotice.tsx';
import { ViewNotBuilt } from '../views/ViewNotBuilt.tsx';
import { entityPage, viewComponents } from './view-registry.tsx';
import { FindBar, FindPalette, findShortcutText } from '../features/find/FindPalette.tsx';
import { useFindStore } from '../features/find/find-store.ts';
import './app-frame.css';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

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

  const entityTrail = useUiStore((state) => state.entityTrail);
  const current = views.find((view) => view.id === activeView) ?? views[0];
  const View = viewComponents[current.id];
  const openEntityId = entityTrail.at(-1);
  const EntityPage = entityPage.component;

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
        <ul className="app-nav__list">
          {views.map((view) => (
            <li key={view.id}>
              <NavButton id={view.id} label={view.label} shortcut={view.shortcut} active={view.id === activeView} onOpen={openView} />
            </li>
          ))}
        </ul>
      </nav>
      <main className="app-main" aria-labelledby="view-title">
        <HostLinkNotice />
        {openEntityId && EntityPage ? (
          <EntityPage key={openEntityId} entityId={openEntityId} />
        ) : (
          <>
            <header className="app-main__header">
              <h1 id="view-title">{current.label}</h1>
              <p className="muted">{current.summary}</p>
            </header>
            <div className="app-main__body">
              {current.id === 'search' && <FindBar />}
              {View ? <View /> : <ViewNotBuilt label={current.label} summary={current.summary} />}
            </div>
          </>
        )}
      </main>
      <StatusLine />
      <FindPalette />
    </div>
  );
}

function NavButton(props: { id: ViewId; label: string; shortcut: number; active: boolean; onOpen: (view: ViewId) => void }) {
  return (
    <button
      type="button"
      className="app-nav__item"
      aria-current={props.active ? 'page' : undefined}
      onClick={() => props.onOpen(props.id)}
      title={`${props.label} (${isMac ? '⌘' : 'Ctrl+'}${props.shortcut})`}
    >
      <span>{props.label}</span>
      <kbd className="app-nav__kbd">{isMac ? '⌘' : 'Ctrl '}{props.shortcut}</kbd>
    </button>
  );
}
