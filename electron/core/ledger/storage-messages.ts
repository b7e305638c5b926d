// What the ledger tells people while the database refuses its writes (see SpendLedger.storageStatus).
import type { DatabaseSync } from 'node:sqlite';
import { dirname } from 'node:path';
import { STORAGE_PROBLEMS, type StorageProblemKind } from '../app-db.ts';
import { PlatFailure } from '../failure.ts';

function storageWhere(db: DatabaseSync): string {
  const file = db.isOpen ? db.location() : null;
  return file ? ` (${dirname(file)})` : '';
}

export function storageMessage(db: DatabaseSync, problem: StorageProblemKind): string {
  const { what, todo } = STORAGE_PROBLEMS[problem];
  return `${what}${storageWhere(db)}. Charges already made are kept and saved as soon as Plat can write again (at the latest when it next starts); paid calls wait until then — ${todo}.`;
}

/** Why a call that can charge is not sent: it could not be written ahead. */
export function storageFailure(db: DatabaseSync, problem: StorageProblemKind): PlatFailure {
  const { what, todo } = STORAGE_PROBLEMS[problem];
  return PlatFailure.from({
    code: 'disk_full',
    message: `${what}${storageWhere(db)}, so Plat cannot record this paid call before sending it: nothing was sent or charged — ${todo}, then try again.`,
    retryable: true,
  });
}
