// Opaque page cursors for answers the operations compute whole and then slice (connected entities,
// comparables): an offset, bound to the request it was issued for, so a cursor replayed against
// another entity, depth or filter set is refused instead of silently skipping rows.
import { createHash } from 'node:crypto';
import { ServiceFailure } from '../operation.ts';

/** `o<offset in base 36>.<10 hex of sha256(scope)>` */
const CURSOR = /^o([0-9a-z]{1,8})\.([0-9a-f]{10})$/;

function scopeHash(scope: string): string {
  return createHash('sha256').update(scope).digest('hex').slice(0, 10);
}

export function encodeOffsetCursor(offset: number, scope: string): string {
  return `o${offset.toString(36)}.${scopeHash(scope)}`;
}

/**
 * The offset a cursor stands for (0 without one). A cursor that is malformed or was issued for
 * another request answers 400 `invalid_cursor`.
 */
export function decodeOffsetCursor(cursor: string | undefined, scope: string): number {
  if (cursor === undefined) return 0;
  const match = CURSOR.exec(cursor);
  if (!match || match[2] !== scopeHash(scope)) {
    throw new ServiceFailure(400, 'invalid_cursor', 'cursor: not a cursor this service issued for this request; repeat the request without it.');
  }
  return parseInt(match[1] ?? '0', 36);
}
