// For test authors: the second service of the tests, the local service in its `independent` dialect
// (dialects/), in-process on 127.0.0.1 at a random port over the real sample, with a throwaway state
// database. Optional misreport flags as the CLI's (`chargeHeader`, `invalidBodyEvery`,
// `echoAuthorization`). Example:
//   const second = await startSecondService({ chargeHeader: 'inflated' });
//   const res = await second.call('/api/v4/catalog?jurisdiction=11001');
//   await second.close();
// The same service from the command line: `npm run service -- --dialect independent`.
import { localOperations } from './operations/index.ts';
import { openSampleStore } from './sample-store.ts';
import { startTestService, stopTestService } from './test-harness.ts';
import type { TestService, TestServiceOptions } from './test-harness.ts';
import { applyDialect } from './dialects/index.ts';
import type { Dialect } from './dialects/index.ts';

export type SecondServiceOptions = Omit<TestServiceOptions, 'operations' | 'store'> & {
  /** Default `independent`; `embedded` starts Plat's own answers the same way, for side-by-side tests. */
  dialect?: Dialect;
  /** The sample database; the built one in assets/sample-data/ by default. */
  sampleDbPath?: string;
};

export interface SecondService extends Pick<TestService, 'url' | 'keys' | 'call' | 'balance' | 'service'> {
  /** Stops the service, removes its state and closes the sample store. */
  close(): Promise<void>;
}

export async function startSecondService(options: SecondServiceOptions = {}): Promise<SecondService> {
  const { dialect = 'independent', sampleDbPath, ...serviceOptions } = options;
  const store = sampleDbPath === undefined ? openSampleStore() : openSampleStore(sampleDbPath);
  let svc: TestService;
  try {
    svc = await startTestService({ ...serviceOptions, operations: applyDialect(localOperations, dialect), store });
  } catch (error) {
    store.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url: svc.url,
    keys: svc.keys,
    call: (path, init) => svc.call(path, init),
    balance: (as) => svc.balance(as),
    service: svc.service,
    close() {
      closing ??= stopTestService(svc).finally(() => store.close());
      return closing;
    },
  };
}
