// The seal on every cursor the embedded service issues: an HMAC, under the service's secret, of what
// the cursor stands for (its position) and the request it was issued for. A cursor replayed against
// another request, one with its position edited and one made up all fail the seal and are refused
// before anything is computed or charged. A plain digest of the request would bind it too, but anyone
// can recompute a digest; only the service can make a seal. The secret is drawn per process until the
// service gives the one kept in its state database (`useCursorSecret`), so with a state file a cursor
// outlives a restart, as the pages a client cached do.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

let SECRET: Buffer = randomBytes(32);

/** Seals from now on under `secret` (the service's own, kept with its state). */
export function useCursorSecret(secret: Buffer): void {
  if (secret.length < 32) throw new Error('useCursorSecret: a secret of at least 32 bytes');
  SECRET = secret;
}

/** Characters of the seal: 96 bits of HMAC-SHA256 in base64url. */
export const SEAL_LENGTH = 16;

/** The seal of `parts` (each kept apart from the next, so `a|b` + `c` never seals like `a` + `b|c`). */
export function cursorSeal(...parts: readonly string[]): string {
  const mac = createHmac('sha256', SECRET);
  for (const part of parts) mac.update(`${part.length}:${part}\n`);
  return mac.digest('base64url').slice(0, SEAL_LENGTH);
}

/** Whether `seal` is the seal of `parts` (compared in constant time). */
export function sealMatches(seal: string, ...parts: readonly string[]): boolean {
  const expected = Buffer.from(cursorSeal(...parts));
  const given = Buffer.from(seal);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
