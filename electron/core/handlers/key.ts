// The API key: the renderer learns only its status; testing it is the connection check itself.
import { formatUsd } from '../../../shared/money.ts';
import type { IpcHandlers } from '../ipc-dispatch.ts';
import type { KeyVault } from '../key-vault.ts';
import type { ConnectionControl } from './connection.ts';

export function keyHandlers(deps: {
  vault: KeyVault;
  connection: ConnectionControl;
}): Pick<IpcHandlers, 'getKeyStatus' | 'setApiKey' | 'deleteApiKey' | 'testApiKey'> {
  const { vault, connection } = deps;
  return {
    getKeyStatus: async () => vault.status(),
    setApiKey: async (request) => {
      const status = vault.setKey(request.key, { allowWeakStorage: request.allowWeakStorage === true });
      connection.keyChanged({ check: true });
      return status;
    },
    deleteApiKey: async () => {
      const status = vault.deleteKey();
      connection.keyChanged({ check: false });
      return status;
    },
    testApiKey: async () => {
      await connection.ready;
      if (connection.stored().mode !== 'live') {
        return { ok: false, message: 'Plat is connected to the local sample, which needs no key. Choose a live service first.', balanceMicroUsd: null };
      }
      if (!vault.status().configured) return { ok: false, message: 'No API key is set up — add one first.', balanceMicroUsd: null };
      // The connection check itself (a free catalog call): it proves the key without spending, the
      // ledger records the balance, and the connection state shows the result.
      const result = await connection.check();
      if (!result.ok) return { ok: false, message: result.message, balanceMicroUsd: null };
      const balance = result.balanceMicroUsd;
      return { ok: true, message: `The key works.${balance !== null ? ` Balance ${formatUsd(balance)}.` : ''}`, balanceMicroUsd: balance };
    },
  };
}
