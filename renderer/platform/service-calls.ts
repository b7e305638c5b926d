// How views make service calls: one action id per user action, reused when that action is
// retried, which the core turns into the Idempotency-Key so a retry is replayed free.
import type { IpcResponse, ServiceCallIpcName, ServiceCallRequest, serviceCallOperations } from '../../shared/ipc.ts';
import { canonicalJson } from '../../shared/canonical-json.ts';
import { callPlat } from './plat.ts';

export type ServiceRequestParts<N extends ServiceCallIpcName> = ServiceCallRequest<(typeof serviceCallOperations)[N]>['request'];

const pendingActions = new Map<string, string>();

const newActionId = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `a${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;

/** The action id for this request: the same until the action succeeds, so retries reuse it. */
export function actionIdFor(operation: ServiceCallIpcName, request: unknown): string {
  const key = `${operation}:${canonicalJson(request)}`;
  let id = pendingActions.get(key);
  if (!id) {
    id = newActionId();
    pendingActions.set(key, id);
  }
  return id;
}

export interface CallOptions {
  confirmed?: boolean;
  refresh?: boolean;
  /** The file that pays (a project id, or null for none), when the person chose it; absent: the active assignment. */
  projectId?: string | null;
}

export async function callService<N extends ServiceCallIpcName>(
  operation: N,
  request: ServiceRequestParts<N>,
  options: CallOptions = {},
): Promise<IpcResponse<N>> {
  const key = `${operation}:${canonicalJson(request)}`;
  const actionId = options.refresh ? newActionId() : actionIdFor(operation, request);
  const payload = { request, actionId, ...options } as never;
  const response = await callPlat(operation, payload);
  pendingActions.delete(key);
  return response;
}
