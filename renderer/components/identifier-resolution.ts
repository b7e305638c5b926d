// What a typed identifier is and how it is asked for: the schemes v2 resolutions take (address, DC
// SSL, Alexandria account number, DC MAR id, entity id), the scheme a text most likely is, why a text
// cannot be sent under a scheme, the schema-checked resolution item, and a candidate in words. Shared
// by the Resolve tab (one line each) and the find box (one text).
import {
  V2ResolutionItemSchema,
  v2IdentifierSchemes,
  type V2IdentifierScheme,
  type V2ResolutionItemInput,
  type V2ResolutionResult,
} from '../../shared/service/index.ts';

export const schemeLabel: Record<V2IdentifierScheme, string> = {
  address: 'Address',
  ssl: 'SSL (DC)',
  account_no: 'Account no. (Alexandria)',
  mar_id: 'MAR id (DC)',
  entity_ref: 'Entity id',
};

export const identifierSchemes: readonly V2IdentifierScheme[] = v2IdentifierSchemes;

// DC SSLs as people write them: "0150    0295", "0150 0295", "0150-0295", "0150N 0012", "5181N0069",
// the scraper's "BD00150N0295" form, and the "PAR 01500295" / "RES 01500295" / "PI…" parcel forms.
const SSL_FORMS = [
  /^BD0{0,2}\d{4}[A-Z]{0,2}\d{4}$/i,
  /^\d{1,4}[A-Z]{0,4}(?:\s+|\s*-\s*)\d{1,4}$/i,
  /^\d{4}[A-Z]{1,4}\d{4}$/i,
  /^(?:PAR|RES)\s*\d{8}$/i,
  /^PI\d{10}$/i,
];
const ENTITY_REF = /^[a-z]{2,8}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ACCOUNT_NO = /^\d{8}$/;
const MAR_ID = /^\d{1,7}$/;

export const isSsl = (value: string): boolean => SSL_FORMS.some((form) => form.test(value.trim()));

/** The scheme a line most likely is: an entity id, an SSL, an 8-digit account, a shorter MAR id, or an address. */
export function detectScheme(value: string): V2IdentifierScheme {
  const line = value.trim();
  if (ENTITY_REF.test(line)) return 'entity_ref';
  if (isSsl(line)) return 'ssl';
  if (ACCOUNT_NO.test(line)) return 'account_no';
  if (MAR_ID.test(line)) return 'mar_id';
  return 'address';
}

/** Why a value cannot be sent under a scheme, or null when it can. */
export function schemeProblem(scheme: V2IdentifierScheme, value: string): string | null {
  const line = value.trim();
  if (line.length > 512) return 'Longer than 512 characters.';
  switch (scheme) {
    case 'ssl':
      return isSsl(line) ? null : 'Not an SSL: expected a square and a lot, e.g. 0150 0295.';
    case 'account_no':
      return /^\d{1,12}$/.test(line) ? null : 'Not an account number: digits only, e.g. 13195000.';
    case 'mar_id':
      return /^\d{1,10}$/.test(line) ? null : 'Not a MAR id: digits only, e.g. 309673.';
    case 'entity_ref':
      return ENTITY_REF.test(line) ? null : 'Not an entity id: a prefix and a uuid, e.g. prop_0b0c…';
    case 'address':
      if (!/[A-Za-z]/.test(line)) return 'Not an address: it has no street name.';
      if (!/\d/.test(line)) return 'Not an address: it has no house number.';
      return null;
  }
}

/** A text as a resolution item under a scheme; the shared schema has the last word (a refusal is its reason, in words). */
export function resolutionItemFor(scheme: V2IdentifierScheme, value: string, clientId: string, areaUid: string): V2ResolutionItemInput | string {
  const item: V2ResolutionItemInput = {
    client_id: clientId,
    subject_kind: scheme === 'address' ? 'address' : 'identifier',
    identifiers: [{ scheme, value }],
    include_retired_identifiers: false,
  };
  if (areaUid !== '') item.area_uid = areaUid;
  const checked = V2ResolutionItemSchema.safeParse(item);
  if (!checked.success) return checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  return item;
}

/** Short text for a candidate's identity (`canonical_identity` has no published shape). */
export function identityText(identity: unknown): string {
  if (!identity || typeof identity !== 'object') return '';
  const record = identity as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ['address', 'full_address', 'premise', 'ssl', 'account_no', 'mar_id', 'unit', 'unit_designator', 'owner_name']) {
    const value = record[key];
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') parts.push(String(value).trim());
  }
  if (parts.length === 0) {
    for (const value of Object.values(record)) {
      if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') parts.push(String(value).trim());
      if (parts.length >= 3) break;
    }
  }
  return [...new Set(parts)].join(' · ');
}

/** How many candidates the service has for an item: its `total_candidates`, else as many as came back. */
export function candidateTotal(result: V2ResolutionResult): number {
  const total = result.total_candidates;
  return typeof total === 'number' && Number.isSafeInteger(total) && total >= result.candidates.length ? total : result.candidates.length;
}

/** The reason a service gave for an item's outcome, wherever it put it. */
export function reasonOf(result: V2ResolutionResult): string | null {
  for (const key of ['reason', 'message', 'detail']) {
    const value = result[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  const error = result.error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return null;
}
