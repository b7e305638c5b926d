// Test fixture for spend-ledger.test.ts (not part of the app): opens the ledger at argv[2], begins
// argv[3] attempts as if about to send them, answers the first one, reports the ids on stdout and
// then waits to be killed with SIGKILL, so the test can check what survives a process that dies
// between writing ahead and recording the answer.
import { openAppDatabase } from '../app-db.ts';
import { SpendLedger } from './spend-ledger.ts';

const [dbPath, countText] = process.argv.slice(2);
const count = Number(countText);
if (dbPath === undefined || !Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: node electron/core/ledger/crash-fixture.ts <db path> <attempt count>\n');
  process.exit(2);
}

const ledger = new SpendLedger(openAppDatabase(dbPath));
const ids: number[] = [];
for (let index = 0; index < count; index++) {
  ids.push(
    ledger.beginAttempt({
      operation: 'v4.summary',
      requestSummary: { q_id: `parc_${index}` },
      idempotencyKey: `crash-${index}`,
      expectedCostMicroUsd: 100_000,
      projectId: 'proj_crash',
      sessionId: 'sess_crash',
    }),
  );
}
const [answered] = ids;
if (answered !== undefined) {
  ledger.recordAnswer(answered, {
    httpStatus: 200,
    requestId: 'crash-0',
    chargedMicroUsd: 100_000,
    balanceAfterMicroUsd: 24_900_000,
    replayed: false,
    errorCode: null,
    attempts: 1,
  });
}
process.stdout.write(`${JSON.stringify({ ids, answered })}\n`);
// Keep the process (and its open database) alive until the parent kills it.
setInterval(() => undefined, 60_000);
