// What was spent: the meter's snapshot, the ledger's rows and its CSV.
import type { IpcHandlers } from '../ipc-dispatch.ts';
import type { SpendLedger } from '../ledger/spend-ledger.ts';
import type { ServiceGateway } from '../service-gateway.ts';

const ledgerFilter = (filter: { projectId?: string | null | undefined; from?: string | undefined; to?: string | undefined }) => ({
  ...(filter.projectId !== undefined ? { projectId: filter.projectId } : {}),
  ...(filter.from ? { from: new Date(filter.from) } : {}),
  ...(filter.to ? { to: new Date(filter.to) } : {}),
});

export function spendHandlers(deps: {
  ledger: SpendLedger;
  gateway: Pick<ServiceGateway, 'spend'>;
}): Pick<IpcHandlers, 'getSpend' | 'listLedger' | 'exportLedgerCsv'> {
  const { ledger } = deps;
  return {
    getSpend: async () => deps.gateway.spend(),
    listLedger: async (request) => {
      const filter = ledgerFilter(request.filter);
      const rows = ledger.list({ ...filter, limit: request.limit, offset: request.offset });
      const total = ledger.count(filter);
      return {
        total,
        rows: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          startedAt: row.startedAt,
          finishedAt: row.finishedAt,
          operation: row.operation,
          requestSummary: JSON.stringify(row.requestSummary),
          requestId: row.requestId,
          idempotencyKey: row.idempotencyKey,
          httpStatus: row.httpStatus,
          status: row.status,
          expectedCostMicroUsd: row.priceKnown ? row.expectedCostMicroUsd : null,
          chargedMicroUsd: row.totalChargeMicroUsd,
          unreportedChargeMicroUsd: row.unreportedChargeMicroUsd,
          reportedChargeMicroUsd: row.chargedMicroUsd,
          chargeCheck: row.chargeCheck,
          chargeHeader: row.chargeHeader,
          reconciled: row.reconciled,
          balanceAfterMicroUsd: row.balanceAfterMicroUsd,
          replayed: row.replayed,
          cacheHit: row.cacheHit,
          projectId: row.projectId,
          errorCode: row.errorCode,
        })),
      };
    },
    exportLedgerCsv: async (request) => ({
      filename: `plat-ledger-${new Date().toISOString().slice(0, 10)}.csv`,
      csv: ledger.exportCsv(ledgerFilter(request.filter)),
    }),
  };
}
