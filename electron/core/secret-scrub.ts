// The one scrub of secrets from what Plat keeps, shows or exports. A service's words (request ids,
// messages, details, warnings, field values, a charge header's text) are scrubbed where they enter
// Plat, at the service client (service-client/attempt.ts), so the ledger, the cache, assignments,
// exports and logs downstream only ever see scrubbed text; the ledger's request summaries use the
// same scrub (ledger/redaction.ts). What goes out: the keys in use wherever they appear (also in
// base64 at any alignment, and percent-encoded), and text shaped like a credential. A key is never a
// fact about a property, so a data field that equals one is redacted too.
import { Buffer } from 'node:buffer';

export const REDACTED = '[redacted]';
/** Shorter secrets are not scrubbed from text: they would redact ordinary words. Real keys are far longer. */
export const MIN_SECRET_LENGTH = 8;
/** Keys remembered for the session (the current one and those before it): a few, however often the key changes. */
const MAX_REMEMBERED_KEYS = 16;

// What a credential looks like in text: "Bearer" or "Basic" followed by a token (at least 16
// characters mixing letters and digits), or the service's key format. Not preceded by a letter or
// digit, so `req_Bearer …` is caught; "12 Bearer Ct" is an address, not a credential.
const CREDENTIAL_TEXT = String.raw`(?<![a-z0-9])(?:bearer|basic)\s+(?=[\w.~+/-]*\d)(?=[\w.~+/-]*[a-z])[\w.~+/-]{16,}=*|(?<![a-z0-9])svc_[a-z]+_[a-z0-9]{16,}`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The stretches of base64 text that encode exactly the secret's bytes when it sits at each of the
 * three byte alignments inside a longer encoded text (standard and URL alphabets): a secret sent
 * back base64-encoded, alone or inside "Bearer …", is found whatever precedes it.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.byteLength(secret, 'utf8');
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret, 'utf8')]).toString('base64');
    // A character is the secret's alone when its six bits all fall inside the secret's bytes.
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes)) / 6));
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** Every written form of the secrets long enough to scrub, longest first (so no form leaves part of a longer one). */
function secretForms(secrets: Iterable<string | null | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    // As it is written inside JSON text (a key may hold a quote or a backslash).
    forms.add(JSON.stringify(secret).slice(1, -1));
    for (const form of base64Forms(secret)) if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Scrubs text and JSON values of the given secrets and of credential-shaped text. */
export class Scrubber {
  readonly #pattern: RegExp;
  readonly #forms: readonly string[];

  constructor(secrets: Iterable<string | null | undefined> = []) {
    this.#forms = secretForms(secrets);
    // In any case: a key in other letters is still the key (and redacting more of a random key costs nothing).
    this.#pattern = new RegExp([...this.#forms.map(escapeRegExp), CREDENTIAL_TEXT].join('|'), 'gi');
  }

  /** The text with every secret and credential-shaped token replaced by [redacted]. */
  text(text: string): string {
    // Nothing shorter than the shortest form or credential shape can hold one (most keys and codes).
    return text.length < MIN_SECRET_LENGTH ? text : text.replace(this.#pattern, REDACTED);
  }

  /** Whether the text holds one of the secrets (in any form this scrub knows). */
  holdsSecret(text: string): boolean {
    const lower = text.toLowerCase();
    return this.#forms.some((form) => lower.includes(form.toLowerCase()));
  }

  /**
   * Parsed JSON with every string, object keys included, scrubbed, in place (the value must be
   * Plat's own fresh copy, as JSON.parse gives). Iterative: any depth is safe to scrub.
   */
  jsonInPlace<T>(root: T): T {
    if (typeof root === 'string') return this.text(root) as T;
    if (root === null || typeof root !== 'object') return root;
    const pending: object[] = [root];
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      const record = node as Record<string, unknown>;
      if (!Array.isArray(node)) this.#scrubKeys(record);
      for (const key of Object.keys(record)) {
        const value = record[key];
        if (typeof value === 'string') {
          const scrubbed = this.text(value);
          if (scrubbed !== value) Object.defineProperty(record, key, { value: scrubbed, writable: true, enumerable: true, configurable: true });
        } else if (value !== null && typeof value === 'object') pending.push(value);
      }
    }
    return root;
  }

  /** Renames keys holding a secret, keeping the order (re-added as own data properties: `__proto__` stays a key). */
  #scrubKeys(record: Record<string, unknown>): void {
    const keys = Object.keys(record);
    if (keys.every((key) => this.text(key) === key)) return;
    const entries = keys.map((key) => [this.text(key), record[key]] as const);
    for (const key of keys) delete record[key];
    for (const [key, value] of entries) Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  }
}

/**
 * The API keys in use for the session: what `read` gives now (the vault's key, the embedded
 * service's), and every key it gave before, so an answer still quoting the key used before a key
 * change is scrubbed of it too. Held in memory only, never written.
 */
export class KeysInUse {
  readonly #read: () => Iterable<string | null | undefined>;
  readonly #seen: string[] = [];

  constructor(read: () => Iterable<string | null | undefined>) {
    this.#read = read;
  }

  /** The keys now and before. If they cannot be read now (a locked keychain), those seen before. */
  list(): string[] {
    let now: Iterable<string | null | undefined> = [];
    try {
      now = this.#read();
    } catch {
      // Scrubbing still goes on, with the keys seen before and by pattern.
    }
    for (const key of now) {
      if (typeof key !== 'string' || key.length < MIN_SECRET_LENGTH) continue;
      const at = this.#seen.indexOf(key);
      if (at !== -1) this.#seen.splice(at, 1);
      this.#seen.unshift(key);
    }
    this.#seen.length = Math.min(this.#seen.length, MAX_REMEMBERED_KEYS);
    return [...this.#seen];
  }
}
