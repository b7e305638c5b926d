// Dialects of the local service. `embedded` is Plat's own service as it always answered; the
// `independent` dialect is a second, equally faithful reading of the spec that makes other choices
// wherever the spec says "not shown" (docs/service-notes.md, "The independent dialect"). It is one
// layer around the embedded operations: requests mapped in (filter field names), answers mapped out,
// charges at the dialect's prices. The operations themselves are not forked.
import type { LocalOperation, OperationRequest, OperationResult } from '../operation.ts';
import { catalogResultOut, searchInDialect } from './field-names.ts';
import { independentCharge } from './prices.ts';
import { summaryIn, summaryOut } from './summary.ts';
import { recordQueryOut } from './v3.ts';
import { v2ResultOut } from './v2.ts';

export const DIALECTS = ['embedded', 'independent'] as const;
export type Dialect = (typeof DIALECTS)[number];

function independent(operation: LocalOperation): LocalOperation {
  const answer = (request: OperationRequest, context: Parameters<LocalOperation['handle']>[1]): OperationResult => {
    const { store } = context;
    switch (operation.name) {
      case 'v4.search':
        return searchInDialect(request, store, (mapped) => operation.handle(mapped, context));
      case 'v4.catalog':
        return catalogResultOut(operation.handle(request, context), store);
      case 'v4.summary': {
        const mapped = summaryIn(request);
        return summaryOut(operation.handle(mapped.request, context), request, mapped.wanted, context);
      }
      case 'v3.recordQuery':
        return recordQueryOut(operation.handle(request, context), store);
      default:
        return operation.generation === 'v2' ? v2ResultOut(operation.name, request, operation.handle(request, context), store) : operation.handle(request, context);
    }
  };
  return {
    ...operation,
    handle(request, context) {
      const result = answer(request, context);
      // Priced on the embedded answer's charge (it says whether a page had results), then re-priced.
      return { ...result, charge: independentCharge(operation.name, request, result) };
    },
  };
}

/** The operations as the dialect serves them; `embedded` returns them untouched. */
export function applyDialect(operations: readonly LocalOperation[], dialect: Dialect): readonly LocalOperation[] {
  return dialect === 'embedded' ? operations : operations.map(independent);
}
