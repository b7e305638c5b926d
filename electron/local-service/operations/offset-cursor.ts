// Opaque page cursors for answers the operations compute whole and then slice (connected entities,
// comparables) or read in order (v4 search, after a record number): a position, sealed with the
// request it was issued for (cursor-seal.ts), so a cursor replayed against another entity, depth,
// kind, place or filter set, edited or made up, is refused instead of silently skipping rows.
import { ServiceFailure } from '../operation.ts';
import { cursorSeal, sealMatches, SEAL_LENGTH } from './cursor-seal.ts';

/** `o<position in base 36>.<seal of scope and position>` */
const CURSOR = new RegExp(`^o([0-9a-z]{1,10})\\.([A-Za-z0-9_-]{${SEAL_LENGTH}})$`);

export function encodeOffsetCursor(offset: number, scope: string): string {
  const position = offset.toString(36);
  return `o${position}.${cursorSeal('offset', scope, position)}`;
}

/**
 * The position a cursor stands for (0 without one). A cursor that is malformed or was not issued by
 * this process for this request answers 400 `invalid_cursor`.
 */
export function decodeOffsetCursor(cursor: string | undefined, scope: string): number {
  if (cursor === undefined) return 0;
  const match = CURSOR.exec(cursor);
  const position = match?.[1] ?? '';
  if (!match || !sealMatches(match[2] ?? '', 'offset', scope, position)) throw cursorNotIssued();
  return parseInt(position, 36);
}

/** The 400 for a cursor this process did not issue for the request it came with. */
export function cursorNotIssued(): ServiceFailure {
  return new ServiceFailure(400, 'invalid_cursor', 'cursor: not a cursor this service issued for this request; repeat the request without it.');
}
