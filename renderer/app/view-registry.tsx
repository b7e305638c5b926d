// Which component renders each view. Feature folders (renderer/features/<feature>/) export their
// view; a view with no entry here shows the plain "not built yet" panel.
import type { ComponentType } from 'react';
import type { ViewId } from './views.ts';
import { SearchView } from '../features/search/SearchView.tsx';
import { SpendView } from '../features/spend/SpendView.tsx';
import { SettingsView } from '../features/settings/SettingsView.tsx';
import { OwnersView } from '../features/owners/OwnersView.tsx';
import { OwnerPage } from '../features/owners/OwnerPage.tsx';
import { CatalogView } from '../features/catalog/CatalogView.tsx';
import { EntityPage } from '../features/entity/EntityPage.tsx';
import { ReportView } from '../features/report/ReportView.tsx';
import { AssignmentsView } from '../features/assignments/AssignmentsView.tsx';
import { ComparablesView } from '../features/comparables/ComparablesView.tsx';
import { StartAssignment } from '../features/assignments/StartAssignment.tsx';
import { GraphView } from '../features/graph/GraphView.tsx';
import { AssignmentSubject } from '../features/comparables/AssignmentSubject.tsx';
import { useSubjectSummaryUse } from '../features/comparables/subject-summary-use.ts';
import { entityPageSlots } from './entity-slots.ts';

export const viewComponents: Partial<Record<ViewId, ComponentType>> = {};
viewComponents.search = SearchView;
viewComponents.spend = SpendView;
viewComponents.settings = SettingsView;
viewComponents.owners = OwnersView;
viewComponents.catalog = CatalogView;
viewComponents.report = ReportView;
viewComponents.assignments = AssignmentsView;
viewComponents.comparables = ComparablesView;
viewComponents.graph = GraphView;
entityPageSlots.actions = StartAssignment;
entityPageSlots.subject = AssignmentSubject;
entityPageSlots.useSummaryUse = useSubjectSummaryUse;

/** The entity page, shown over any view when an entity is opened (set by the entity feature). */
export const entityPage: { component: ComponentType<{ entityId: string }> | null } = { component: EntityPage };

/** An owner's page, shown over any view like the entity page (set by the owners feature). */
export const ownerPage: { component: ComponentType<{ name: string; areaUid: string | null }> | null } = { component: OwnerPage };
