// What the independent dialect charges (micro-USD), per operation. The spec fixes only v4's rules
// and the summary's $0.10; every other amount differs from Plat's own table on purpose, so a client
// that assumed Plat's prices for a service it does not run would be caught by the tests.
import type { OperationRequest, OperationResult } from '../operation.ts';

export const INDEPENDENT_PRICES = {
  v4SearchPage: 25_000,
  v4Summary: 100_000,
  v3ReportSubject: 300_000,
  v3ComparablesPage: 200_000,
  v3Aggregate: 60_000,
  v2SearchPage: 30_000,
  v2ResolutionsCall: 10_000,
  v2TraverseCall: 5_000,
  v2GetEntityCall: 2_000,
} as const;

function v3Charge(request: OperationRequest, embedded: number): number {
  const body = (request.body ?? {}) as { mode?: unknown; projection?: unknown };
  if (body.mode === 'aggregate') return INDEPENDENT_PRICES.v3Aggregate;
  if (body.mode !== 'report') return 0; // catalog mode is free
  if (body.projection === 'report_subject_v1') return INDEPENDENT_PRICES.v3ReportSubject;
  // Comparables are charged per page with results, as the embedded rule says: its charge tells.
  return embedded > 0 ? INDEPENDENT_PRICES.v3ComparablesPage : 0;
}

/**
 * The dialect's charge for a call that succeeded. `embedded` is what Plat's table charged for the
 * same answer: positive exactly when a "per page with results" rule found results.
 */
export function independentCharge(operation: string, request: OperationRequest, result: OperationResult): number {
  const embedded = result.charge;
  switch (operation) {
    case 'v4.search':
      return embedded > 0 ? INDEPENDENT_PRICES.v4SearchPage : 0;
    case 'v4.summary':
      return INDEPENDENT_PRICES.v4Summary;
    case 'v3.recordQuery':
      return v3Charge(request, embedded);
    case 'v2.searchProperties':
      return embedded > 0 ? INDEPENDENT_PRICES.v2SearchPage : 0;
    case 'v2.resolveEntities':
      return INDEPENDENT_PRICES.v2ResolutionsCall;
    case 'v2.traverseRelationships':
      return INDEPENDENT_PRICES.v2TraverseCall;
    case 'v2.getEntity':
      return INDEPENDENT_PRICES.v2GetEntityCall;
    default:
      return 0; // v4 catalog, v4 connected, v2 catalog
  }
}
