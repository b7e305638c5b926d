// Places on the entity page that other features fill, set by the view registry: features do not
// import each other, so the entity page offers "Start an assignment" without knowing the feature.
import type { ComponentType } from 'react';

export const entityPageSlots: {
  /** Actions in the page's header for the entity shown (caption: how the page names it, when known). */
  actions: ComponentType<{ entityId: string; caption: string | undefined }> | null;
  /** Above the summary: the entity as the active assignment resolves its subject, when it is that subject. */
  subject: ComponentType<{ entityId: string }> | null;
} = { actions: null, subject: null };
