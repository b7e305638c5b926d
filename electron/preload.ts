// The renderer's whole view of the main process: one named function per IPC operation and one
// `on<Event>` per pushed event, exactly as listed in shared/ipc.ts. No generic invoke, no ipcRenderer.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { eventListenerName, ipcChannel, ipcEventNames, ipcOperationNames } from '../shared/ipc.ts';

const api: Record<string, unknown> = {};
for (const operation of ipcOperationNames) {
  api[operation] = (request: unknown) => ipcRenderer.invoke(ipcChannel(operation), request);
}
for (const event of ipcEventNames) {
  api[eventListenerName(event)] = (listener: (payload: unknown) => void) => {
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(ipcChannel(event), forward);
    return () => {
      ipcRenderer.removeListener(ipcChannel(event), forward);
    };
  };
}

contextBridge.exposeInMainWorld('plat', Object.freeze(api));
