// Holds the API key of the Property Records Service in the main process. The renderer only ever
// learns a KeyStatus; the key itself leaves this module only through getKey(), for the service
// client's Authorization header. Storage follows VS Code's encryptionMainService and Signal: encrypt
// with the OS keychain (Electron safeStorage, injected so this file never imports electron), treat
// Linux `basic_text` as no keychain, remember the backend, and forget the key when it changes or
// decryption fails, so the UI asks again instead of sending garbage.
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { KeyStatus } from '../../shared/ipc.ts';
import { PlatFailure } from './failure.ts';
import type { BoundedJson } from '../../shared/bounded-json.ts';
import { readJsonFile } from './json-file.ts';

/** Everything the renderer may know about the key: defined once, with the IPC contract. */
export type { KeyStatus };

export interface SetKeyOptions {
  /**
   * Persist even when the only encryption is Chromium's fixed-password `basic_text` (Linux without a
   * keychain). Only when the user explicitly agreed; the opt-in is recorded with the stored key.
   */
  allowWeakStorage?: boolean;
}

export interface KeyVault {
  status(): KeyStatus;
  /** The key for the Authorization header; null when none is configured. */
  getKey(): string | null;
  /** Validates and stores the key; throws InvalidApiKeyError (message never contains the key). */
  setKey(key: string, options?: SetKeyOptions): KeyStatus;
  deleteKey(): KeyStatus;
}

export const API_KEY_MIN_LENGTH = 8;
export const API_KEY_MAX_LENGTH = 512;

/** A key the user typed that cannot be a key. Crosses IPC as `invalid_payload` with the reason. */
export class InvalidApiKeyError extends PlatFailure {
  constructor(reason: string) {
    super('invalid_payload', reason);
    this.name = 'InvalidApiKeyError';
  }
}

/** The key could not be written to disk. Nothing was changed. */
export class KeyStorageError extends PlatFailure {
  constructor(reason: string) {
    super('internal', reason);
    this.name = 'KeyStorageError';
  }
}

/**
 * The key as it will be sent: surrounding whitespace (a pasted newline) removed, then 8 to 512
 * visible ASCII characters. ASCII only because the key travels in an HTTP header; whitespace inside
 * means a paste went wrong. Error messages describe the problem, never the key.
 */
export function normalizeApiKey(key: string): string {
  if (typeof key !== 'string') throw new InvalidApiKeyError('The API key must be text');
  const trimmed = key.trim();
  if (trimmed.length === 0) throw new InvalidApiKeyError('The API key is empty');
  if (/\s/.test(trimmed)) {
    throw new InvalidApiKeyError('The API key has a space or line break inside it; paste it again as one piece');
  }
  if (!/^[\x21-\x7e]*$/.test(trimmed)) {
    throw new InvalidApiKeyError('The API key contains characters that are not printable ASCII; copy it again from the developer portal');
  }
  if (trimmed.length < API_KEY_MIN_LENGTH) {
    throw new InvalidApiKeyError(`The API key is too short (at least ${API_KEY_MIN_LENGTH} characters)`);
  }
  if (trimmed.length > API_KEY_MAX_LENGTH) {
    throw new InvalidApiKeyError(`The API key is too long (at most ${API_KEY_MAX_LENGTH} characters)`);
  }
  return trimmed;
}

/** The key for a charged call, or a `key_not_configured` failure the UI turns into "add one in Settings". */
export function requireApiKey(vault: KeyVault): string {
  const key = vault.getKey();
  if (key === null) throw new PlatFailure('key_not_configured');
  return key;
}

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

// Shared by both vaults: whatever serialises or prints a vault sees only its status.
abstract class RedactedVault implements KeyVault {
  abstract status(): KeyStatus;
  abstract getKey(): string | null;
  abstract setKey(key: string, options?: SetKeyOptions): KeyStatus;
  abstract deleteKey(): KeyStatus;

  toJSON(): KeyStatus {
    return this.status();
  }

  [inspectCustom](): KeyStatus {
    return this.status();
  }

  toString(): string {
    const { configured, backend, persisted } = this.status();
    return `KeyVault(${configured ? 'configured' : 'not configured'}, ${backend}, ${persisted ? 'persisted' : 'session only'})`;
  }
}

export interface MemoryKeyVaultOptions {
  /** A key from the environment (PLAT_API_KEY), read by the caller; empty or undefined means none. */
  environmentKey?: string | undefined;
}

/** The browser host's vault: the key lives for the process only. */
export class MemoryKeyVault extends RedactedVault {
  #key: string | null = null;
  #backend: 'memory' | 'environment' = 'memory';

  constructor(options: MemoryKeyVaultOptions = {}) {
    super();
    const fromEnvironment = options.environmentKey;
    if (fromEnvironment !== undefined && fromEnvironment.trim() !== '') {
      try {
        this.#key = normalizeApiKey(fromEnvironment);
      } catch (error) {
        // Say which setting is wrong; the reason already omits the key.
        throw new InvalidApiKeyError(`PLAT_API_KEY is not usable: ${(error as Error).message}`);
      }
      this.#backend = 'environment';
    }
  }

  status(): KeyStatus {
    return { configured: this.#key !== null, backend: this.#backend, persisted: false };
  }

  getKey(): string | null {
    return this.#key;
  }

  setKey(key: string): KeyStatus {
    this.#key = normalizeApiKey(key);
    this.#backend = 'memory';
    return this.status();
  }

  deleteKey(): KeyStatus {
    this.#key = null;
    this.#backend = 'memory';
    return this.status();
  }
}

/** The part of Electron's safeStorage the vault uses; main.ts passes safeStorage itself. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only in Electron: `basic_text`, `gnome_libsecret`, `kwallet*`, or `unknown` before app ready. */
  getSelectedStorageBackend?(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export interface SafeStorageKeyVaultOptions {
  safeStorage: SafeStorageLike;
  /** Where the encrypted key is kept, e.g. `<userData>/api-key.json`. */
  filePath: string;
  /** Defaults to process.platform; tests pass `linux` to exercise the keychain rules anywhere. */
  platform?: NodeJS.Platform;
}

/** Linux backends that are not a keychain: Chromium's fixed password, or not yet known. */
const WEAK_LINUX_BACKENDS = new Set(['basic_text', 'unknown']);

/** The backend a key cannot be encrypted under at all. */
export const NO_ENCRYPTION_BACKEND = 'unavailable';

interface StoredKeyFile {
  version: 1;
  /** The backend the key was encrypted under; a different one at load means the key is forgotten. */
  backend: string;
  /** The user explicitly accepted storage without a keychain. */
  weakStorageAccepted: boolean;
  encryptedKey: string;
  savedAt: string;
}

function isStoredKeyFile(value: unknown): value is StoredKeyFile {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.version === 1 &&
    typeof record.backend === 'string' &&
    typeof record.weakStorageAccepted === 'boolean' &&
    typeof record.encryptedKey === 'string' &&
    record.encryptedKey.length > 0
  );
}

/**
 * The Electron vault. Persists the encrypted key only under a real keychain (or weak storage the
 * user opted in to); otherwise the key is kept for the session. Construct after the app's `ready`
 * event: before it, Linux reports the backend as `unknown`. The stored file is read on first use.
 */
export class SafeStorageKeyVault extends RedactedVault {
  readonly #safeStorage: SafeStorageLike;
  readonly #filePath: string;
  readonly #platform: NodeJS.Platform;
  #loaded = false;
  #key: string | null = null;
  #persisted = false;

  constructor(options: SafeStorageKeyVaultOptions) {
    super();
    this.#safeStorage = options.safeStorage;
    this.#filePath = options.filePath;
    this.#platform = options.platform ?? process.platform;
  }

  /** The backend encryption would use now. */
  currentBackend(): string {
    if (!this.#safeStorage.isEncryptionAvailable()) return NO_ENCRYPTION_BACKEND;
    if (this.#platform === 'darwin') return 'macos_keychain';
    if (this.#platform === 'win32') return 'windows_dpapi';
    // Linux (and other Unixes Chromium treats alike) name their backend.
    return this.#safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
  }

  /** Whether the current backend protects the key with the user's login (not a fixed password). */
  #isKeychain(backend: string): boolean {
    if (backend === NO_ENCRYPTION_BACKEND) return false;
    if (this.#platform === 'darwin' || this.#platform === 'win32') return true;
    return !WEAK_LINUX_BACKENDS.has(backend);
  }

  status(): KeyStatus {
    this.#load();
    return { configured: this.#key !== null, backend: this.currentBackend(), persisted: this.#key !== null && this.#persisted };
  }

  getKey(): string | null {
    this.#load();
    return this.#key;
  }

  setKey(key: string, options: SetKeyOptions = {}): KeyStatus {
    const normalized = normalizeApiKey(key);
    this.#load();
    const backend = this.currentBackend();
    const weakAccepted = options.allowWeakStorage === true;
    const canPersist = backend !== NO_ENCRYPTION_BACKEND && (this.#isKeychain(backend) || weakAccepted);
    if (canPersist) {
      this.#writeStored(normalized, backend, !this.#isKeychain(backend));
      this.#persisted = true;
    } else {
      // A key saved earlier must not come back on the next launch in place of this one.
      this.#removeStored();
      this.#persisted = false;
    }
    this.#key = normalized;
    return this.status();
  }

  deleteKey(): KeyStatus {
    this.#loaded = true;
    this.#removeStored();
    this.#key = null;
    this.#persisted = false;
    return this.status();
  }

  #load(): void {
    if (this.#loaded) return;
    this.#loaded = true;
    let read: BoundedJson;
    try {
      read = readJsonFile(this.#filePath, STORED_KEY_LIMITS);
    } catch {
      // Missing (no key saved) or unreadable: not configured. An unreadable file is left alone;
      // setting a key replaces it.
      return;
    }
    const stored = read.ok && isStoredKeyFile(read.value) ? read.value : null;
    if (stored === null || stored.backend !== this.currentBackend()) {
      this.#removeStored();
      return;
    }
    let key: string;
    try {
      key = normalizeApiKey(this.#safeStorage.decryptString(Buffer.from(stored.encryptedKey, 'base64')));
    } catch {
      // Decryption failed (keychain reset, another user's file) or decrypted to garbage: ask again.
      this.#removeStored();
      return;
    }
    this.#key = key;
    this.#persisted = true;
  }

  #writeStored(key: string, backend: string, weakStorageAccepted: boolean): void {
    let encrypted: Buffer;
    try {
      encrypted = this.#safeStorage.encryptString(key);
    } catch {
      // No cause attached: whatever the encryptor says stays out of logs.
      throw new KeyStorageError(`The API key could not be encrypted with the ${backend} backend`);
    }
    const stored: StoredKeyFile = {
      version: 1,
      backend,
      weakStorageAccepted,
      encryptedKey: encrypted.toString('base64'),
      savedAt: new Date().toISOString(),
    };
    const directory = path.dirname(this.#filePath);
    const temporary = `${this.#filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      writeFileSync(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      // The mode given at creation is filtered by the umask; set it outright.
      chmodSync(temporary, 0o600);
      renameSync(temporary, this.#filePath);
    } catch (error) {
      rmSync(temporary, { force: true });
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new KeyStorageError(`The API key could not be saved to ${this.#filePath} (${code})`);
    }
  }

  #removeStored(): void {
    try {
      rmSync(this.#filePath, { force: true });
    } catch {
      // A file that cannot be removed is also unreadable to us next time; nothing more to do.
    }
  }
}

/** The key file is a few hundred bytes, one level deep: anything much larger is not one Plat wrote. */
const STORED_KEY_LIMITS = { maxBytes: 64 * 1024, maxDepth: 4 };
