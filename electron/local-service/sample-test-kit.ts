// What the tests over the real sample share: the synthetic source's publisher line, a uuid no entity
// or record has, and an entity id read from a record's q_ids.
import type { SampleRecord } from './sample-store.ts';

export const SYNTHETIC_PUBLISHER = 'Plat synthetic sample (not a public record)';
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** The id of the record's entity with this prefix (`prop`, `parc`, ...); throws when it has none. */
export const idOf = (record: SampleRecord, prefix: string): string => {
  const id = record.q_ids.find((q) => q.startsWith(`${prefix}_`));
  if (id === undefined) throw new Error(`${record.record_ref} has no ${prefix} id`);
  return id;
};
