// The Settings view: service connection, API key, budgets, projects and the cache, one section each,
// with an index to jump between them.
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

export function SettingsView() {
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
                  const target = document.getElementById(section.id);
                  target?.scrollIntoView({ block: 'start' });
                  target?.querySelector<HTMLElement>('h2')?.focus();
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
