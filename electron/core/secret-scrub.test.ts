// The one scrub: the keys in use wherever and however they are written, credential-shaped text, and
// nothing else ("12 Bearer Ct" is an address); JSON scrubbed whole, keys included, at any depth.
import { describe, expect, it } from 'vitest';
import { KeysInUse, REDACTED, Scrubber } from './secret-scrub.ts';

const KEY = 'plat-Sentinel-4f9a2c7e1b88';

describe('Scrubber.text', () => {
  it('takes out the key in use in any case, percent-encoded or base64 at any alignment', () => {
    const scrub = new Scrubber([KEY]);
    expect(scrub.text(`owner ${KEY} x`)).toBe(`owner ${REDACTED} x`);
    expect(scrub.text(`req_${KEY.toUpperCase()}`)).toBe(`req_${REDACTED}`);
    expect(scrub.text(encodeURIComponent(`k=${KEY}&`))).not.toContain('Sentinel');
    for (const prefix of ['', 'B', 'Be', 'Bearer ']) {
      const encoded = Buffer.from(`${prefix}${KEY}`).toString('base64');
      expect(scrub.text(`auth ${encoded}`), prefix).toContain(REDACTED);
      expect(scrub.text(encoded.replace(/\+/g, '-').replace(/\//g, '_')), prefix).toContain(REDACTED);
      expect(scrub.holdsSecret(encoded), prefix).toBe(true);
    }
  });

  it('takes out credential-shaped text whoever it belongs to, and keeps words', () => {
    const scrub = new Scrubber([]);
    expect(scrub.text('req_Bearer abcdef0123456789xyz')).toBe(`req_${REDACTED}`);
    expect(scrub.text('sent with Bearer eyJhbGciOiJIUzI1NiJ9.abc123def456')).toBe(`sent with ${REDACTED}`);
    expect(scrub.text('Basic dXNlcjpwYXNzd29yZDEyMzQ=')).toBe(REDACTED);
    expect(scrub.text('acct_svc_live_0123456789abcdef0123')).toBe(`acct_${REDACTED}`);
    for (const words of ['12 Bearer Ct', 'sent with Bearer abc', 'Basic Rate Ct', 'SMITH, JOHN', 'svc_live']) expect(scrub.text(words)).toBe(words);
    // A secret too short to scrub safely would redact ordinary words; real keys are far longer.
    expect(new Scrubber(['short', null, undefined]).text('short words')).toBe('short words');
  });
});

describe('Scrubber.jsonInPlace', () => {
  it('scrubs every string and key, keeps the order, and keeps __proto__ a plain key', () => {
    const value = JSON.parse(`{"a":"x ${KEY}","${KEY}":1,"list":[["${KEY}"],{"n":2,"b":true,"z":null}],"__proto__":"${KEY}","last":"kept"}`) as Record<string, unknown>;
    const scrubbed = new Scrubber([KEY]).jsonInPlace(value);
    expect(JSON.stringify(scrubbed)).toBe(`{"a":"x ${REDACTED}","${REDACTED}":1,"list":[["${REDACTED}"],{"n":2,"b":true,"z":null}],"__proto__":"${REDACTED}","last":"kept"}`);
    expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
    expect(new Scrubber([KEY]).jsonInPlace(KEY)).toBe(REDACTED);
    expect(new Scrubber([KEY]).jsonInPlace(5)).toBe(5);
  });

  it('scrubs a value nested far deeper than the stack would allow a recursive walk', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}"${KEY}"${']'.repeat(200_000)}`) as unknown;
    new Scrubber([KEY]).jsonInPlace(deep);
    let inner: unknown = deep;
    while (Array.isArray(inner)) inner = inner[0];
    expect(inner).toBe(REDACTED);
  });
});

describe('KeysInUse', () => {
  it('remembers every key it has seen for the session, current first, and survives a read that throws', () => {
    let current: string | null = KEY;
    let locked = false;
    const keys = new KeysInUse(() => {
      if (locked) throw new Error('keychain locked');
      return [current, 'short', undefined];
    });
    expect(keys.list()).toEqual([KEY]);
    current = 'plat-Next-0000000000';
    expect(keys.list()).toEqual(['plat-Next-0000000000', KEY]);
    current = null;
    locked = true;
    expect(keys.list()).toEqual(['plat-Next-0000000000', KEY]);
  });
});
