import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toIpcError } from './failure.ts';
import {
  InvalidApiKeyError,
  KeyStorageError,
  MemoryKeyVault,
  SafeStorageKeyVault,
  normalizeApiKey,
  requireApiKey,
  type KeyVault,
  type SafeStorageLike,
} from './key-vault.ts';

// A key no real output should ever contain: every leak check searches for it.
const SENTINEL = 'SENTINEL-k3y-7f3a9c51';

/** What `work` throws; undefined when it returns. */
function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A stand-in for Electron's safeStorage: XOR with a per-keychain secret, tagged so decryption can fail. */
class FakeSafeStorage implements SafeStorageLike {
  available = true;
  backend = 'gnome_libsecret';
  secret = 0x5a;
  failEncrypt = false;

  isEncryptionAvailable(): boolean {
    return this.available;
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
  encryptString(plainText: string): Buffer {
    if (this.failEncrypt) throw new Error(`cannot encrypt ${plainText}`);
    const body = Buffer.from(plainText, 'utf8').map((byte) => byte ^ this.secret);
    return Buffer.concat([Buffer.from([this.secret]), body]);
  }
  decryptString(encrypted: Buffer): string {
    if (encrypted[0] !== this.secret) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(encrypted.subarray(1).map((byte) => byte ^ this.secret)).toString('utf8');
  }
}

function expectNoLeak(vault: KeyVault): void {
  expect(JSON.stringify(vault)).not.toContain(SENTINEL);
  expect(JSON.stringify({ nested: vault })).not.toContain(SENTINEL);
  expect(inspect(vault, { showHidden: true, depth: 10 })).not.toContain(SENTINEL);
  expect(String(vault)).not.toContain(SENTINEL);
  expect(`${vault}`).not.toContain(SENTINEL);
  expect(Object.keys(vault).join()).not.toContain(SENTINEL);
}

describe('normalizeApiKey', () => {
  it('trims a pasted key and accepts 8 to 512 visible characters', () => {
    expect(normalizeApiKey(`  ${SENTINEL}\n`)).toBe(SENTINEL);
    expect(normalizeApiKey('a'.repeat(8))).toBe('a'.repeat(8));
    expect(normalizeApiKey('a'.repeat(512))).toHaveLength(512);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['short', /too short/],
    ['a'.repeat(513), /too long/],
    [`${SENTINEL} ${SENTINEL}`, /space or line break/],
    [`${SENTINEL}\t${SENTINEL}`, /space or line break/],
    [`${SENTINEL}é`, /printable/],
    [`${SENTINEL}\u0000`, /printable/],
  ])('refuses %j with a reason that does not repeat the key', (key, reason) => {
    const thrown = thrownBy(() => normalizeApiKey(key));
    expect(thrown).toBeInstanceOf(InvalidApiKeyError);
    const error = thrown as InvalidApiKeyError;
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain(SENTINEL);
    expect(JSON.stringify(toIpcError(error))).not.toContain(SENTINEL);
    expect(toIpcError(error).code).toBe('invalid_payload');
  });
});

describe('MemoryKeyVault', () => {
  it('starts unconfigured and keeps a key for the session only', () => {
    const vault = new MemoryKeyVault();
    expect(vault.status()).toEqual({ configured: false, backend: 'memory', persisted: false });
    expect(vault.getKey()).toBeNull();
    expect(vault.setKey(` ${SENTINEL} `)).toEqual({ configured: true, backend: 'memory', persisted: false });
    expect(vault.getKey()).toBe(SENTINEL);
    expectNoLeak(vault);
    expect(vault.deleteKey()).toEqual({ configured: false, backend: 'memory', persisted: false });
    expect(vault.getKey()).toBeNull();
  });

  it('is seeded from the environment and says so', () => {
    const vault = new MemoryKeyVault({ environmentKey: SENTINEL });
    expect(vault.status()).toEqual({ configured: true, backend: 'environment', persisted: false });
    expect(vault.getKey()).toBe(SENTINEL);
    expectNoLeak(vault);
    // A key typed in the app replaces the environment's.
    vault.setKey('another-key-123');
    expect(vault.status().backend).toBe('memory');
  });

  it('treats an empty environment value as unset and refuses a malformed one without echoing it', () => {
    expect(new MemoryKeyVault({ environmentKey: '' }).status().configured).toBe(false);
    expect(new MemoryKeyVault({ environmentKey: undefined }).status().configured).toBe(false);
    expect(() => new MemoryKeyVault({ environmentKey: `${SENTINEL} x` })).toThrow(/PLAT_API_KEY is not usable/);
    try {
      new MemoryKeyVault({ environmentKey: `${SENTINEL} x` });
    } catch (error) {
      expect((error as Error).message).not.toContain(SENTINEL);
    }
  });

  it('keeps the previous key when a new one is refused', () => {
    const vault = new MemoryKeyVault();
    vault.setKey(SENTINEL);
    expect(() => vault.setKey('bad key')).toThrow(InvalidApiKeyError);
    expect(vault.getKey()).toBe(SENTINEL);
  });

  it('requireApiKey fails with key_not_configured when there is no key', () => {
    const vault = new MemoryKeyVault();
    const thrown = thrownBy(() => requireApiKey(vault));
    expect(toIpcError(thrown).code).toBe('key_not_configured');
    vault.setKey(SENTINEL);
    expect(requireApiKey(vault)).toBe(SENTINEL);
  });
});

describe('SafeStorageKeyVault', () => {
  let directory: string;
  let filePath: string;
  let storage: FakeSafeStorage;

  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'plat-key-vault-'));
    filePath = path.join(directory, 'nested', 'api-key.json');
    storage = new FakeSafeStorage();
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const open = (platform: NodeJS.Platform = 'linux') => new SafeStorageKeyVault({ safeStorage: storage, filePath, platform });

  it('persists the key encrypted under a real keychain and reads it back after a restart', () => {
    const vault = open();
    expect(vault.status()).toEqual({ configured: false, backend: 'gnome_libsecret', persisted: false });
    expect(vault.setKey(SENTINEL)).toEqual({ configured: true, backend: 'gnome_libsecret', persisted: true });

    const onDisk = readFileSync(filePath, 'utf8');
    expect(onDisk).not.toContain(SENTINEL);
    expect(JSON.parse(onDisk)).toMatchObject({ version: 1, backend: 'gnome_libsecret', weakStorageAccepted: false });
    if (process.platform !== 'win32') expect(statSync(filePath).mode & 0o777).toBe(0o600);
    // Written through a temporary file that is gone after the rename.
    expect(readdirSync(path.dirname(filePath))).toEqual(['api-key.json']);

    const restarted = open();
    expect(restarted.status()).toEqual({ configured: true, backend: 'gnome_libsecret', persisted: true });
    expect(restarted.getKey()).toBe(SENTINEL);
    expectNoLeak(restarted);
  });

  it('keeps the key for the session only when Linux has no keychain (basic_text, unknown)', () => {
    for (const backend of ['basic_text', 'unknown']) {
      storage.backend = backend;
      const vault = open();
      expect(vault.setKey(SENTINEL)).toEqual({ configured: true, backend, persisted: false });
      expect(vault.getKey()).toBe(SENTINEL);
      expect(existsSync(filePath)).toBe(false);
      expect(open().status().configured).toBe(false);
    }
  });

  it('persists under basic_text only when the user opted in to weak storage, and records the opt-in', () => {
    storage.backend = 'basic_text';
    const vault = open();
    expect(vault.setKey(SENTINEL, { allowWeakStorage: true })).toEqual({ configured: true, backend: 'basic_text', persisted: true });
    expect(JSON.parse(readFileSync(filePath, 'utf8'))).toMatchObject({ backend: 'basic_text', weakStorageAccepted: true });
    expect(open().getKey()).toBe(SENTINEL);
  });

  it('treats macOS and Windows encryption as a keychain', () => {
    expect(open('darwin').setKey(SENTINEL)).toEqual({ configured: true, backend: 'macos_keychain', persisted: true });
    expect(open('darwin').getKey()).toBe(SENTINEL);
    rmSync(filePath);
    expect(open('win32').setKey(SENTINEL)).toEqual({ configured: true, backend: 'windows_dpapi', persisted: true });
  });

  it('keeps the key in memory only when encryption is unavailable, even with the weak-storage opt-in', () => {
    storage.available = false;
    const vault = open();
    expect(vault.setKey(SENTINEL, { allowWeakStorage: true })).toEqual({ configured: true, backend: 'unavailable', persisted: false });
    expect(existsSync(filePath)).toBe(false);
  });

  it('forgets the stored key when the backend changed since it was saved', () => {
    open().setKey(SENTINEL);
    storage.backend = 'kwallet5';
    const restarted = open();
    expect(restarted.status()).toEqual({ configured: false, backend: 'kwallet5', persisted: false });
    expect(restarted.getKey()).toBeNull();
    expect(existsSync(filePath)).toBe(false);
  });

  it('forgets the stored key when decryption fails (keychain reset)', () => {
    open().setKey(SENTINEL);
    storage.secret = 0x33;
    const restarted = open();
    expect(restarted.getKey()).toBeNull();
    expect(restarted.status().configured).toBe(false);
    expect(existsSync(filePath)).toBe(false);
  });

  it('forgets a corrupt key file', () => {
    open().setKey(SENTINEL);
    writeFileSync(filePath, '{"version": 1, "backend": ');
    expect(open().status().configured).toBe(false);
    expect(existsSync(filePath)).toBe(false);
  });

  it('forgets a stored key when encryption has become unavailable', () => {
    open().setKey(SENTINEL);
    storage.available = false;
    expect(open().getKey()).toBeNull();
    expect(existsSync(filePath)).toBe(false);
  });

  it('deleting removes the key and the file', () => {
    const vault = open();
    vault.setKey(SENTINEL);
    expect(vault.deleteKey()).toEqual({ configured: false, backend: 'gnome_libsecret', persisted: false });
    expect(vault.getKey()).toBeNull();
    expect(existsSync(filePath)).toBe(false);
    expect(open().status().configured).toBe(false);
  });

  it('a session-only key replaces a stored one, so the old key does not return at the next launch', () => {
    open().setKey('old-key-stored-1');
    const vault = open();
    expect(vault.getKey()).toBe('old-key-stored-1');
    storage.backend = 'basic_text';
    // Same process, backend now weak: the new key is session-only and the stale file is removed.
    expect(vault.setKey(SENTINEL).persisted).toBe(false);
    expect(existsSync(filePath)).toBe(false);
  });

  it('reports an encryption failure without the key and leaves the previous key in place', () => {
    const vault = open();
    vault.setKey('previous-key-1');
    storage.failEncrypt = true;
    const thrown = thrownBy(() => vault.setKey(SENTINEL));
    expect(thrown).toBeInstanceOf(KeyStorageError);
    expect((thrown as Error).message).not.toContain(SENTINEL);
    expect(inspect(thrown)).not.toContain(SENTINEL);
    expect(vault.getKey()).toBe('previous-key-1');
  });

  it('reports a write failure without the key', () => {
    // A non-empty directory where the file should be makes the rename fail.
    const blocked = path.join(directory, 'blocked');
    mkdirSync(path.join(blocked, 'inside'), { recursive: true });
    const vault = new SafeStorageKeyVault({ safeStorage: storage, filePath: blocked, platform: 'linux' });
    const thrown = thrownBy(() => vault.setKey(SENTINEL));
    expect(thrown).toBeInstanceOf(KeyStorageError);
    expect((thrown as Error).message).not.toContain(SENTINEL);
    expect(vault.getKey()).toBeNull();
    expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
