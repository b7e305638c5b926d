// The Settings view: service connection, API key, budgets, projects and the cache, one section each,
// with an index to jump between them.
import { useEffect } from 'react';
import { useUiStore } from '../../app/ui-store.ts';
import { ApiKeySettings } from './ApiKeySettings.tsx';
import { BudgetSettings } from './BudgetSettings.tsx';
import { CacheSettings } from './CacheSettings.tsx';
import { ConnectionSettings } from './ConnectionSettings.tsx';
import { ProjectSettings } from './ProjectSettings.tsx';
import './settings.css';

const SECTIONS = [
  { id: 'settings-connection', label: 'Service connection' },
  { id: 'settings-api-key', label: 'API key' },
  { id: 'settings-budgets', label: 'Budgets' },
  { id: 'settings-projects', label: 'Projects' },
  { id: 'settings-cache', label: 'Cache' },
] as const;

/** Brings a section into view and moves focus to its heading. */
function showSection(id: string): void {
  const target = document.getElementById(id);
  target?.scrollIntoView?.({ block: 'start' });
  target?.querySelector<HTMLElement>('h2')?.focus();
}

export function SettingsView() {
  // Opened to change one thing (a refusal's "Raise the session cap"): that section, at once.
  const section = useUiStore((state) => state.settingsSection);
  useEffect(() => {
    if (section === null) return;
    showSection(section);
    useUiStore.setState({ settingsSection: null });
  }, [section]);
  return (
    <div className="settings-view">
      <nav className="settings-index" aria-label="Settings sections">
        <ul className="nav-list">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                onClick={(event) => {
                  // Scroll within the view instead of changing the address (the browser host keeps its token out of it).
                  event.preventDefault();
                  showSection(section.id);
                }}
              >
                {section.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-view__sections stack gap-5">
        <ConnectionSettings />
        <ApiKeySettings />
        <BudgetSettings />
        <ProjectSettings />
        <CacheSettings />
      </div>
    </div>
  );
}
