// Every TanStack Query key the renderer uses, in one place: a key is a contract between the view that
// fills it and every view that reads or invalidates it, so two spellings of one key would mean one
// answer fetched twice, or a price never refreshed. Keys start with a domain word; invalidating a
// scope (a key's first words) reaches every key under it.
import type { LedgerFilter, ServiceCallIpcName } from '../../shared/ipc.ts';
import { canonicalJson } from '../../shared/canonical-json.ts';
import type { ServiceRequestParts } from './service-calls.ts';

// ---------------------------------------------------------------------------------------------
// Service answers: one key per operation and request, so an answer bought once is shown again free.

/** Every service answer (dropped when the connection changes: they belong to the old service). */
export const serviceQueryScope = ['service'] as const;

export const serviceQueryKey = <N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N>) =>
  ['service', operation, canonicalJson(request)] as const;

/** Every answer of one operation (to look through what this session already bought). */
export const serviceOperationScope = (operation: ServiceCallIpcName) => ['service', operation] as const;

/** The request a service answer's key names (its canonical JSON, read back); null for an idle or paged key. */
export function requestOfServiceKey(queryKey: readonly unknown[]): unknown {
  const part = queryKey[0] === 'service' && queryKey.length === 3 ? queryKey[2] : null;
  if (typeof part !== 'string' || !part.startsWith('{')) return null;
  try {
    return JSON.parse(part) as unknown;
  } catch {
    return null;
  }
}

/** A hook's key while it has nothing to ask yet (an incomplete form): never fetched. */
export const idleServiceQueryKey = (operation: ServiceCallIpcName) => ['service', operation, 'not-asked'] as const;

/** Free paged lists (catalog facets, connected entities) kept as one infinite query under their first page's key. */
export const servicePagesQueryKey = <N extends ServiceCallIpcName>(operation: N, firstPage: ServiceRequestParts<N>) =>
  [...serviceQueryKey(operation, firstPage), 'pages'] as const;

// ---------------------------------------------------------------------------------------------
// Prices move with spending, caps, the active project and the cache: each such change re-asks them all.

/** Every price. */
export const pricingQueryScope = ['previewCost'] as const;

export const previewCostQueryKey = (operation: ServiceCallIpcName, request: unknown) => ['previewCost', operation, canonicalJson(request)] as const;

// ---------------------------------------------------------------------------------------------
// The core's own state (free local reads).

export const appInfoQueryKey = ['app.info'] as const;
export const spendQueryKey = ['spend'] as const;
export const projectsQueryKey = ['projects'] as const;
export const budgetsQueryKey = ['budgets'] as const;
export const keyStatusQueryKey = ['keyStatus'] as const;
export const cacheStatusQueryKey = ['cacheStatus'] as const;

/** Every page of the ledger (re-read after anything is spent). */
export const ledgerQueryScope = ['ledger'] as const;
export const ledgerPageQueryKey = (filter: LedgerFilter, offset: number) => ['ledger', 'page', canonicalJson(filter), offset] as const;

// ---------------------------------------------------------------------------------------------
// Assignments and their report: read from what the assignment keeps, never the service.

/** Every assignment's page, kept answers and report. */
export const assignmentsQueryScope = ['assignments'] as const;
export const assignmentQueryKey = (assignmentId: string) => ['assignments', assignmentId] as const;
export const assignmentAnswerQueryKey = (assignmentId: string, answerId: string) => ['assignments', assignmentId, 'answer', answerId] as const;
export const subjectReportQueryKey = (assignmentId: string) => ['assignments', assignmentId, 'report'] as const;
/** An assignment's comparables: its workfile and the kept answers the analysis reads (free, local). */
export const comparablesQueryKey = (assignmentId: string) => ['assignments', assignmentId, 'comparables'] as const;
/** An assignment's graph decisions (kept with it, free). */
export const graphDecisionsQueryKey = (assignmentId: string) => [...assignmentQueryKey(assignmentId), 'graph-decisions'] as const;
/** The features of a map area layer (wards, ZIPs…) a market area can be chosen from: served with the app, never the service. */
export const mapAreaLayerQueryKey = (layer: string) => ['map', 'area-layer', layer] as const;
