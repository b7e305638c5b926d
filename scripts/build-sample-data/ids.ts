// Ids of the sample's entities and records: name-based UUIDs over a source key, so the same input
// gives the same ids (uuidV5 and the namespace live in sample-keys.ts, which the store shares).
import { SAMPLE_ID_NAMESPACE, uuidV5 } from '../../electron/local-service/sample-keys.ts';
import type { EntityPrefix, ParsedSsl } from '../../electron/local-service/sample-keys.ts';

/** `<prefix>_<uuid>` for an entity key such as `parcel:dc:ssl:0150    0295`. */
export function entityId(prefix: EntityPrefix, key: string): string {
  return `${prefix}_${uuidV5(key, SAMPLE_ID_NAMESPACE)}`;
}

/** `rec_<uuid>` for one record of a source: the source id and the row's own key. */
export function recordRef(sourceId: string, rowKey: string): string {
  return `rec_${uuidV5(`record:${sourceId}:${rowKey}`, SAMPLE_ID_NAMESPACE)}`;
}

/** Entity keys: one per kind, area and the source key that identifies the thing. */
export const entityKeys = {
  dcProperty: (sslAsPublished: string) => `property:dc:otr:${sslAsPublished}`,
  dcParcel: (ssl: ParsedSsl) => `parcel:dc:ssl:${ssl.canonical}`,
  dcUnit: (ssl: ParsedSsl) => `unit:dc:ssl:${ssl.canonical}`,
  dcAccount: (ssl: ParsedSsl) => `tax_account:dc:ssl:${ssl.canonical}`,
  dcAddress: (premise: string) => `address:dc:${premise}`,
  vaProperty: (accountNo: string) => `property:va-alexandria:account_no:${accountNo}`,
  vaParcel: (accountNo: string) => `parcel:va-alexandria:account_no:${accountNo}`,
  vaAccount: (accountNo: string) => `tax_account:va-alexandria:account_no:${accountNo}`,
  vaAddress: (premise: string) => `address:va-alexandria:${premise}`,
};
