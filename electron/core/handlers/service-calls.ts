// The service calls the person asks for, one handler per operation of the table, and their prices beforehand.
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
  const call = async (
    name: ServiceCallIpcName,
    request: { request: unknown; actionId?: string | undefined; confirmed?: boolean | undefined; refresh?: boolean | undefined; projectId?: string | null | undefined },
    context: CallContext,
  ) => {
    await deps.ready;
    return deps.call({
      operation: serviceCallOperations[name],
      parts: request.request as RequestParts,
      actionId: request.actionId,
      confirmed: request.confirmed,
      refresh: request.refresh,
      ...(request.projectId !== undefined ? { projectId: request.projectId } : {}),
      signal: context.signal,
    });
  };
  // One handler per service call, from the operation table (its IPC names are the table's).
  const calls = Object.fromEntries(
    (Object.keys(serviceCallOperations) as ServiceCallIpcName[]).map((name) => [
      name,
      (request: Parameters<typeof call>[1], context: CallContext) => call(name, request, context),
    ]),
  ) as unknown as Pick<IpcHandlers, ServiceCallIpcName>;
  return {
    ...calls,
    previewCost: async (request) => {
      await deps.ready;
      return deps.gateway.preview(request.operation, request.request as RequestParts);
    },
  };
}
