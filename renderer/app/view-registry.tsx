// Which component renders each view. Feature folders (renderer/features/<feature>/) export their
// view; a view with no entry here shows the plain "not built yet" panel.
import type { ComponentType } from 'react';
import type { ViewId } from './views.ts';

export const viewComponents: Partial<Record<ViewId, ComponentType>> = {};

/** The entity page, shown over any view when an entity is opened (set by the entity feature). */
export const entityPage: { component: ComponentType<{ entityId: string }> | null } = { component: null };
