// Places on the entity page that other features fill, set by the view registry: features do not
// import each other, so the entity page offers "Start an assignment" without knowing the feature.
import type { ComponentType } from 'react';
import type { SummaryFieldUse } from '../../shared/comparables/subject/summary-use.ts';

/** For a summary field and its best value: the value the active assignment uses instead, when it is its subject and uses another. */
export type SummaryUseOf = (field: string, best: unknown) => SummaryFieldUse | null;

export const entityPageSlots: {
  /** Actions in the page's header for the entity shown (caption: how the page names it, when known). */
  actions: ComponentType<{ entityId: string; caption: string | undefined }> | null;
  /** Above the summary: the entity as the active assignment resolves its subject, when it is that subject. */
  subject: ComponentType<{ entityId: string }> | null;
  /** A hook: where the Summary's best value is not the one the active assignment uses for its subject. */
  useSummaryUse: ((entityId: string) => SummaryUseOf) | null;
} = { actions: null, subject: null, useSummaryUse: null };
