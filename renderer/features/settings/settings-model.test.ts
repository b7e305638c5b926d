import { describe, expect, it } from 'vitest';
import {
  bytesToMebibytesText,
  capAlreadyReached,
  checkApiKeyInput,
  describeKeyStatus,
  formatBytes,
  hitRate,
  needsWeakStorageOptIn,
  parseLiveUrl,
  parseMaxEntries,
  parseMaxMebibytes,
  parseOptionalUsd,
  parseTtl,
  splitNextStep,
  ttlToForm,
  usdInputText,
} from './settings-model.ts';

describe('dollar inputs', () => {
  it('reads an empty field as no cap and amounts as micro-USD', () => {
    expect(parseOptionalUsd('', 'Session cap')).toEqual({ ok: true, value: null });
    expect(parseOptionalUsd('  ', 'Session cap')).toEqual({ ok: true, value: null });
    expect(parseOptionalUsd('5', 'Session cap')).toEqual({ ok: true, value: 5_000_000 });
    expect(parseOptionalUsd('$0.03', 'Session cap')).toEqual({ ok: true, value: 30_000 });
    expect(parseOptionalUsd('1,250.50', 'Session cap')).toEqual({ ok: true, value: 1_250_500_000 });
    expect(parseOptionalUsd('0', 'Session cap')).toEqual({ ok: true, value: 0 });
  });

  it('says what is wrong, naming the field', () => {
    expect(parseOptionalUsd('-1', 'Session cap')).toEqual({ ok: false, error: 'Session cap: must not be negative.' });
    const words = parseOptionalUsd('five', 'Session cap');
    expect(words.ok).toBe(false);
    expect(!words.ok && words.error).toMatch(/^Session cap: enter a dollar amount/);
    expect(parseOptionalUsd('0.0000001', 'Cap').ok).toBe(false);
  });

  it('shows a stored amount so that it reads back the same', () => {
    for (const micro of [0, 30_000, 5_000_000, 1_250_500_000, 4_200]) {
      const text = usdInputText(micro);
      expect(parseOptionalUsd(text, 'x')).toEqual({ ok: true, value: micro });
    }
    expect(usdInputText(null)).toBe('');
  });
});

describe('key storage in words', () => {
  it('names a real keychain', () => {
    expect(describeKeyStatus({ configured: true, backend: 'gnome_libsecret', persisted: true }).headline).toBe('Stored in the OS keychain (gnome_libsecret)');
    expect(describeKeyStatus({ configured: true, backend: 'macos_keychain', persisted: true }).headline).toBe('Stored in the macOS Keychain');
  });

  it('says plainly when there is no keychain, and asks before weak storage', () => {
    const sessionOnly = describeKeyStatus({ configured: true, backend: 'basic_text', persisted: false });
    expect(sessionOnly.headline).toBe('Kept for this session only — this system has no keychain (basic_text)');
    expect(sessionOnly.tone).toBe('warning');
    expect(describeKeyStatus({ configured: true, backend: 'basic_text', persisted: true }).headline).toMatch(/weak encryption/);
    expect(needsWeakStorageOptIn('basic_text')).toBe(true);
    expect(needsWeakStorageOptIn('unknown')).toBe(true);
    expect(needsWeakStorageOptIn('gnome_libsecret')).toBe(false);
    expect(needsWeakStorageOptIn('memory')).toBe(false);
  });

  it('describes the browser host’s memory and environment keys', () => {
    expect(describeKeyStatus({ configured: true, backend: 'memory', persisted: false }).headline).toBe('Kept in memory for this session only');
    expect(describeKeyStatus({ configured: false, backend: 'memory', persisted: false }).headline).toBe('No API key set');
    expect(describeKeyStatus({ configured: true, backend: 'environment', persisted: false }).headline).toMatch(/PLAT_API_KEY/);
    expect(describeKeyStatus({ configured: true, backend: 'unavailable', persisted: false }).headline).toMatch(/encryption is not available/);
  });
});

describe('API key input', () => {
  it('follows the core’s rule and never quotes the key back', () => {
    expect(checkApiKeyInput('  svc_live_0123456789abcdef  ')).toEqual({ ok: true, value: 'svc_live_0123456789abcdef' });
    for (const bad of ['', 'Zq7#', 'svc live key with spaces', 'svc_live_é0123456']) {
      const result = checkApiKeyInput(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok && bad.trim() !== '') expect(result.error).not.toContain(bad.trim());
    }
    expect(checkApiKeyInput('x'.repeat(513)).ok).toBe(false);
  });
});

describe('live address', () => {
  it('accepts http(s) base addresses and explains the rest', () => {
    expect(parseLiveUrl(' https://records.example.com/api ')).toEqual({ ok: true, value: 'https://records.example.com/api' });
    expect(parseLiveUrl('records.example.com').ok).toBe(false);
    expect(parseLiveUrl('ftp://records.example.com')).toEqual({
      ok: false,
      error: 'The address must start with https:// (it starts with ftp://).',
      needsInsecureConsent: false,
    });
    expect(parseLiveUrl('https://user:pw@records.example.com').ok).toBe(false);
    expect(parseLiveUrl('https://records.example.com/?key=1').ok).toBe(false);
    expect(parseLiveUrl('').ok).toBe(false);
  });

  it('refuses what the core refuses, by the same rule (bare ? and #, credentials, other schemes)', () => {
    for (const text of ['http://user:pass@127.0.0.1:9/', 'https://records.example.com?', 'https://records.example.com/#', 'javascript:alert(1)', 'file:///etc/passwd']) {
      const parsed = parseLiveUrl(text);
      expect(parsed.ok, text).toBe(false);
      expect(!parsed.ok && parsed.needsInsecureConsent, text).toBe(false);
    }
  });

  it('asks for consent before plain http:// to another computer, and only then accepts it', () => {
    const refused = parseLiveUrl('http://records.example.com');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.needsInsecureConsent).toBe(true);
    expect(!refused.ok && refused.error).toContain('unencrypted');
    expect(parseLiveUrl('http://records.example.com', { allowInsecure: true })).toEqual({ ok: true, value: 'http://records.example.com' });
    // This computer needs no consent: nothing crosses the network.
    for (const local of ['http://127.0.0.1:9', 'http://localhost:8080/api', 'http://[::1]:9']) expect(parseLiveUrl(local).ok, local).toBe(true);
  });
});

describe('caps already reached', () => {
  it('says so for a session cap at or below what the session has spent', () => {
    expect(capAlreadyReached('session', 30_000, 40_000)).toBe(
      'This session has already spent $0.04; every charged call will be refused until you raise the cap or restart Plat.',
    );
    expect(capAlreadyReached('session', 40_000, 40_000)).toContain('already spent $0.04');
    expect(capAlreadyReached('session', 50_000, 40_000)).toBeNull();
    expect(capAlreadyReached('session', null, 40_000)).toBeNull();
    // Nothing spent: a cap of 0 is a deliberate "no charges", not a surprise.
    expect(capAlreadyReached('session', 0, 0)).toBeNull();
  });

  it('says so for a project cap below the project’s spending', () => {
    expect(capAlreadyReached('project', 1_000_000, 2_500_000)).toBe(
      'This project has already spent $2.50; every charged call for it will be refused until you raise its cap.',
    );
    expect(capAlreadyReached('project', 3_000_000, 2_500_000)).toBeNull();
  });
});

describe('cache policy inputs', () => {
  it('shows a TTL in its largest whole unit and reads it back', () => {
    expect(ttlToForm(86_400)).toEqual({ amount: '1', unit: 'days' });
    expect(ttlToForm(7_200)).toEqual({ amount: '2', unit: 'hours' });
    expect(ttlToForm(90)).toEqual({ amount: '2', unit: 'minutes' });
    expect(parseTtl('24', 'hours')).toEqual({ ok: true, value: 86_400 });
    expect(parseTtl('0', 'minutes').ok).toBe(false);
    expect(parseTtl('366', 'days').ok).toBe(false);
    expect(parseTtl('1.5', 'hours').ok).toBe(false);
  });

  it('keeps entries and size within the core’s bounds', () => {
    expect(parseMaxEntries('20,000')).toEqual({ ok: true, value: 20_000 });
    expect(parseMaxEntries('9').ok).toBe(false);
    expect(parseMaxEntries('many').ok).toBe(false);
    expect(parseMaxMebibytes('200')).toEqual({ ok: true, value: 200 * 1024 * 1024 });
    expect(parseMaxMebibytes('0').ok).toBe(false);
    expect(parseMaxMebibytes('10241').ok).toBe(false);
    expect(bytesToMebibytesText(200 * 1024 * 1024)).toBe('200');
  });

  it('formats sizes and hit rates', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(200 * 1024 * 1024)).toBe('200 MB');
    expect(hitRate(0, 0)).toBe('—');
    expect(hitRate(3, 1)).toBe('75 %');
  });
});

describe('splitNextStep', () => {
  it('puts the core’s next step on its own', () => {
    expect(splitNextStep('The service could not be reached — check the connection and try again')).toEqual({
      detail: 'The service could not be reached.',
      nextStep: 'Check the connection and try again.',
    });
    expect(splitNextStep('The key works. Balance $24.98.')).toEqual({ detail: 'The key works. Balance $24.98.', nextStep: null });
  });
});
