// The file that pays: a call names the assignment it belongs to (or none), and the ledger books it
// there whatever assignment is active; a call that names nothing goes to the active one as before.
import { describe, expect, it } from 'vitest';
import { ServiceClient } from './service-client/index.ts';
import { buildTestGateway, useLocalService } from './gateway-test-kit.ts';
import { PlatFailure } from './failure.ts';

const local = useLocalService();
const entity = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';
let run = 0;

function gatewayWithTwoFiles() {
  const client = new ServiceClient({ baseUrl: local.service.url, getApiKey: () => local.service.keys.active });
  const built = buildTestGateway({ client, sessionId: `attribution-${++run}`, budget: { sessionCapMicroUsd: null } });
  const first = built.projects.create({ name: '1708 21st St NW' });
  const second = built.projects.create({ name: '1717 4th St NW' });
  built.projects.setActiveProjectId(first.id);
  return { ...built, first, second };
}

const summaryCall = (projectId: string | null | undefined, refresh = true) => ({
  operation: 'v4.summary' as const,
  parts: { path: { q_id: entity } },
  actionId: `attr-${run}-${Math.random().toString(36).slice(2, 12)}`,
  refresh,
  ...(projectId !== undefined ? { projectId } : {}),
});

const byProject = (ledger: ReturnType<typeof gatewayWithTwoFiles>['ledger'], projectId: string | null) =>
  ledger.totals({ sessionId: 'x' }).byProject.find((entry) => entry.projectId === projectId)?.microUsd ?? 0;

describe('the file that pays for a call', () => {
  it('books a call to the file it names, not the active assignment', async () => {
    const { gateway, ledger, first, second, close } = gatewayWithTwoFiles();
    await gateway.call(summaryCall(second.id));
    expect(byProject(ledger, second.id)).toBe(100_000);
    expect(byProject(ledger, first.id)).toBe(0);
    close();
  });

  it('books a call named for no file to none, and an unnamed call to the active assignment', async () => {
    const { gateway, ledger, first, close } = gatewayWithTwoFiles();
    await gateway.call(summaryCall(null));
    expect(byProject(ledger, null)).toBe(100_000);
    expect(byProject(ledger, first.id)).toBe(0);
    await gateway.call(summaryCall(undefined));
    expect(byProject(ledger, first.id)).toBe(100_000);
    close();
  });

  it('refuses, before anything is sent, a call named for a file that does not exist', async () => {
    const { gateway, ledger, close } = gatewayWithTwoFiles();
    await expect(gateway.call(summaryCall('proj_missing'))).rejects.toSatisfy(
      (error) => error instanceof PlatFailure && error.platError.code === 'invalid_request',
    );
    expect(ledger.totals({ sessionId: 'x' }).allTimeMicroUsd).toBe(0);
    close();
  });
});
