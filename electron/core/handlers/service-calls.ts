// The service calls the person asks for, one handler per operation, and their prices beforehand.
import { serviceCallOperations, type ServiceCallIpcName } from '../../../shared/ipc.ts';
import type { CallContext, IpcHandlers } from '../ipc-dispatch.ts';
import type { GatewayAnswer, GatewayCall, RequestParts, ServiceGateway } from '../service-gateway.ts';

type ServiceCallHandlers = Pick<IpcHandlers, ServiceCallIpcName | 'previewCost'>;

export function serviceCallHandlers(deps: {
  ready: Promise<void>;
  /** The gateway's call, observed by the core (connection state, the active assignment). */
  call: (call: GatewayCall) => Promise<GatewayAnswer>;
  gateway: Pick<ServiceGateway, 'preview'>;
}): ServiceCallHandlers {
  const handler =
    <N extends ServiceCallIpcName>(name: N) =>
    async (
      request: { request: unknown; actionId?: string | undefined; confirmed?: boolean | undefined; refresh?: boolean | undefined },
      context: CallContext,
    ) => {
      await deps.ready;
      return deps.call({
        operation: serviceCallOperations[name],
        parts: request.request as RequestParts,
        actionId: request.actionId,
        confirmed: request.confirmed,
        refresh: request.refresh,
        signal: context.signal,
      }) as never;
    };
  return {
    searchRecords: handler('searchRecords'),
    getSourceCatalog: handler('getSourceCatalog'),
    getConnectedEntities: handler('getConnectedEntities'),
    getEntitySummary: handler('getEntitySummary'),
    queryRecords: handler('queryRecords'),
    searchProperties: handler('searchProperties'),
    resolveEntities: handler('resolveEntities'),
    getCatalogFacet: handler('getCatalogFacet'),
    getEntity: handler('getEntity'),
    traverseRelationships: handler('traverseRelationships'),
    previewCost: async (request) => {
      await deps.ready;
      return deps.gateway.preview(request.operation, request.request as RequestParts);
    },
  };
}
