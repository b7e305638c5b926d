// Which component renders each view. Feature folders (renderer/features/<feature>/) export their
// view; a view with no entry here shows the plain "not built yet" panel. Search is the first screen
// and comes with the app; every other view and page is a lazy view (components/lazy-view.tsx), its
// code loaded when it is first shown or asked for ahead: a view as the pointer or the focus reaches
// its sidebar entry, the entity and owner pages once the first screen has settled (AppFrame).
import type { ComponentType } from 'react';
import type { ViewId } from './views.ts';
import { SearchView } from '../features/search/SearchView.tsx';
import { lazyView } from '../components/lazy-view.tsx';
import { entityPageSlots } from './entity-slots.ts';

export const viewComponents: Partial<Record<ViewId, ComponentType>> = {};
viewComponents.search = SearchView;
viewComponents.spend = lazyView(() => import('../features/spend/SpendView.tsx').then((module) => module.SpendView));
viewComponents.settings = lazyView(() => import('../features/settings/SettingsView.tsx').then((module) => module.SettingsView));
viewComponents.owners = lazyView(() => import('../features/owners/OwnersView.tsx').then((module) => module.OwnersView));
viewComponents.catalog = lazyView(() => import('../features/catalog/CatalogView.tsx').then((module) => module.CatalogView));
viewComponents.report = lazyView(() => import('../features/report/ReportView.tsx').then((module) => module.ReportView));
viewComponents.assignments = lazyView(() => import('../features/assignments/AssignmentsView.tsx').then((module) => module.AssignmentsView));
viewComponents.comparables = lazyView(() => import('../features/comparables/ComparablesView.tsx').then((module) => module.ComparablesView));
viewComponents.graph = lazyView(() => import('../features/graph/GraphView.tsx').then((module) => module.GraphView));

const startAssignment = lazyView(() => import('../features/assignments/StartAssignment.tsx').then((module) => module.StartAssignment));
const assignmentSubject = lazyView(() => import('../features/comparables/AssignmentSubject.tsx').then((module) => module.AssignmentSubject));
entityPageSlots.actions = startAssignment;
entityPageSlots.subject = assignmentSubject;

/**
 * The entity page, shown over any view when an entity is opened (set by the entity feature). Its
 * slots load with it, so the page appears whole rather than in two steps.
 */
export const entityPage: { component: ComponentType<{ entityId: string }> | null } = {
  component: lazyView(() =>
    Promise.all([
      import('../features/entity/EntityPage.tsx'),
      startAssignment.preload(),
      assignmentSubject.preload(),
      // A hook, not a component: set before the page first renders, so every render runs the same hook.
      import('../features/comparables/subject-summary-use.ts').then((module) => {
        entityPageSlots.useSummaryUse = module.useSubjectSummaryUse;
      }),
    ]).then(([module]) => module.EntityPage),
  ),
};

/** An owner's page, shown over any view like the entity page (set by the owners feature). */
export const ownerPage: { component: ComponentType<{ name: string; areaUid: string | null }> | null } = {
  component: lazyView(() => import('../features/owners/OwnerPage.tsx').then((module) => module.OwnerPage)),
};
