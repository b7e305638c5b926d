// The IPC contract's names, apart from its schemas (shared/ipc.ts, which checks at compile time that
// these lists name exactly its operations and events). The preload and the browser bridge build
// `window.plat` from the names alone, so the renderer does not build every schema of the contract
// (reports, workfiles, the graph's decisions) before its first screen.
import { serviceOperationNames, serviceOperations, type ServiceOperationName } from './service/operations.ts';

/** The IPC name each service operation is asked for by (its `ipc` in the operation table). */
export type IpcNameOf<N extends ServiceOperationName> = (typeof serviceOperations)[N]['ipc'];

/** The IPC operations that are service calls, with the service operation each one makes. */
export const serviceCallOperations = Object.fromEntries(serviceOperationNames.map((operation) => [serviceOperations[operation].ipc, operation])) as {
  readonly [N in ServiceOperationName as IpcNameOf<N>]: N;
};
export type ServiceCallIpcName = keyof typeof serviceCallOperations;

/** The operations that are not service calls. */
const coreOperationNames = [
  'getAppInfo',
  'setConnection',
  'previewCost',
  'getSpend',
  'listLedger',
  'exportLedgerCsv',
  'listProjects',
  'createProject',
  'updateProject',
  'createAssignment',
  'updateAssignment',
  'getAssignment',
  'getAssignmentAnswer',
  'setValueChoice',
  'getComparables',
  'saveComparables',
  'getGraphDecisions',
  'setGraphDecision',
  'exportAssignment',
  'importAssignment',
  'recheckImportedAnswers',
  'getSubjectReport',
  'exportReportPdf',
  'verifyReport',
  'setActiveProject',
  'getBudgets',
  'setBudgets',
  'getCacheStatus',
  'setCachePolicy',
  'clearCache',
  'getKeyStatus',
  'setApiKey',
  'testApiKey',
  'deleteApiKey',
] as const;

/** Every operation the contract names. */
export type ListedOperationName = ServiceCallIpcName | (typeof coreOperationNames)[number];
export const ipcOperationNames: ListedOperationName[] = [...(Object.keys(serviceCallOperations) as ServiceCallIpcName[]), ...coreOperationNames];

/** Every event the main process pushes. */
export const ipcEventNames = ['serviceConnectionChanged', 'spendUpdated', 'callProgress'] as const satisfies readonly string[];
export type ListedEventName = (typeof ipcEventNames)[number];

/** `onServiceConnectionChanged` for `serviceConnectionChanged`: the preload's listener names. */
export type EventListenerName<E extends ListedEventName> = `on${Capitalize<E>}`;
export const eventListenerName = <E extends ListedEventName>(event: E): EventListenerName<E> =>
  `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as EventListenerName<E>;
