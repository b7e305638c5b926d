// This installation's signing identity: an RSA key pair (node:crypto) and a self-signed X.509
// certificate (node-forge), made on first use and kept beside the API key. PDFs and workfiles are
// signed with it, so a reader can tell "signed here", "signed by another installation" and "not
// signed". The private key never leaves this module: callers get signatures and the certificate.
// Storage: Electron encrypts it with safeStorage (like the API key); the browser host has no
// keychain, so it keeps it in a file only its user can read (mode 0600; docs/core-notes.md).
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import path from 'node:path';
import forge from 'node-forge';
import { signCmsDetached } from './cms-signature.ts';
import type { SafeStorageLike } from './key-vault.ts';

/** Where the identity's text is kept; `load` returns null when there is none (or it cannot be read). */
export interface IdentityStorage {
  load(): string | null;
  save(text: string): void;
}

/** A detached signature over some bytes, with the certificate that checks it (for workfiles). */
export interface DetachedSignature {
  algorithm: 'RSA-SHA256';
  /** base64 */
  signature: string;
  /** PEM */
  certificate: string;
}

interface StoredIdentity {
  version: 1;
  privateKeyPem: string;
  certificatePem: string;
  createdAt: string;
}

/** The identity's file in the data folder. */
export const INSTALLATION_IDENTITY_FILE = 'installation-identity.json';

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');
/** The certificate says it is valid this long: it identifies an installation, not a moment. */
const CERTIFICATE_YEARS = 30;

export class InstallationIdentity {
  readonly #storage: IdentityStorage;
  readonly #now: () => Date;
  #loaded: { privateKey: KeyObject; certificate: X509Certificate; pem: string } | null = null;

  constructor(storage: IdentityStorage, options: { now?: () => Date } = {}) {
    this.#storage = storage;
    this.#now = options.now ?? (() => new Date());
  }

  /** The certificate's SHA-256 fingerprint, `AB:CD:…` (what the cover prints and Verify compares). */
  fingerprint(): string {
    return this.#identity().certificate.fingerprint256;
  }

  certificatePem(): string {
    return this.#identity().pem;
  }

  /** A detached CMS signature (DER) over `content`: what a PDF signature holds. */
  signCms(content: Uint8Array | readonly Uint8Array[], signingTime: Date): Uint8Array {
    const identity = this.#identity();
    return signCmsDetached(content, identity.privateKey, identity.certificate.raw, signingTime);
  }

  /** An RSA-SHA256 signature over `content`, with the certificate. */
  signDetached(content: Uint8Array | string): DetachedSignature {
    const identity = this.#identity();
    return { algorithm: 'RSA-SHA256', signature: sign('sha256', Buffer.from(content), identity.privateKey).toString('base64'), certificate: identity.pem };
  }

  toJSON(): { fingerprint: string } {
    return { fingerprint: this.fingerprint() };
  }

  [inspectCustom](): string {
    return `InstallationIdentity(${this.fingerprint()})`;
  }

  #identity() {
    if (this.#loaded) return this.#loaded;
    const stored = parseStored(this.#storage.load()) ?? this.#create();
    const privateKey = createPrivateKey(stored.privateKeyPem);
    this.#loaded = {
      privateKey,
      certificate: new X509Certificate(stored.certificatePem),
      pem: stored.certificatePem,
    };
    return this.#loaded;
  }

  #create(): StoredIdentity {
    const now = this.#now();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const certificate = forge.pki.createCertificate();
    certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
    // A positive serial number (leading byte below 0x80), random so two installations never share one.
    certificate.serialNumber = `1${randomBytes(15).toString('hex')}`;
    certificate.validity.notBefore = new Date(now.getTime() - 60_000);
    certificate.validity.notAfter = new Date(now.getTime());
    certificate.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + CERTIFICATE_YEARS);
    const name = [
      { name: 'commonName', value: `Plat installation ${randomBytes(4).toString('hex')}` },
      { name: 'organizationName', value: 'Plat (self-signed, this installation)' },
    ];
    certificate.setSubject(name);
    certificate.setIssuer(name);
    certificate.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    ]);
    certificate.sign(forge.pki.privateKeyFromPem(privateKeyPem), forge.md.sha256.create());
    const stored: StoredIdentity = { version: 1, privateKeyPem, certificatePem: forge.pki.certificateToPem(certificate), createdAt: now.toISOString() };
    this.#storage.save(JSON.stringify(stored));
    return stored;
  }
}

function parseStored(text: string | null): StoredIdentity | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<StoredIdentity>;
    if (value.version !== 1 || typeof value.privateKeyPem !== 'string' || typeof value.certificatePem !== 'string') return null;
    // Both must read, and belong together; otherwise a new identity is made.
    const certificate = new X509Certificate(value.certificatePem);
    if (!certificate.checkPrivateKey(createPrivateKey(value.privateKeyPem))) return null;
    return value as StoredIdentity;
  } catch {
    return null;
  }
}

/** Writes a file only its owner can read, atomically. */
function writePrivateFile(filePath: string, text: string): void {
  const temporary = `${filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(path.dirname(filePath), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    // The mode given at creation is filtered by the umask; set it outright.
    chmodSync(temporary, 0o600);
    renameSync(temporary, filePath);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`The installation's signing key could not be saved to ${filePath} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`, { cause: error });
  }
}

function readText(filePath: string): string | null {
  try {
    return readFileSync(filePath, 'utf8');
  } catch {
    return null;
  }
}

/** The browser host's storage: a file in the data folder, mode 0600 (the host has no keychain). */
export function fileIdentityStorage(filePath: string): IdentityStorage {
  return { load: () => readText(filePath), save: (text) => writePrivateFile(filePath, text) };
}

/**
 * Electron's storage: the identity encrypted with safeStorage, like the API key. Without any
 * encryption (no keychain and no fallback) it is kept as the browser host keeps it, mode 0600.
 */
export function safeStorageIdentityStorage(safeStorage: SafeStorageLike, filePath: string): IdentityStorage {
  return {
    load: () => {
      const text = readText(filePath);
      if (text === null) return null;
      try {
        const stored = JSON.parse(text) as { encrypted?: unknown; plain?: unknown };
        if (typeof stored.encrypted === 'string') return safeStorage.decryptString(Buffer.from(stored.encrypted, 'base64'));
        return typeof stored.plain === 'string' ? stored.plain : null;
      } catch {
        // Another keychain's file (or a damaged one): a new identity replaces it.
        return null;
      }
    },
    save: (text) => {
      const stored = safeStorage.isEncryptionAvailable() ? { encrypted: safeStorage.encryptString(text).toString('base64') } : { plain: text };
      writePrivateFile(filePath, `${JSON.stringify(stored)}\n`);
    },
  };
}

/** For tests: an identity held in memory only. */
export function memoryIdentityStorage(): IdentityStorage & { text: string | null } {
  const storage = {
    text: null as string | null,
    load: () => storage.text,
    save: (text: string) => {
      storage.text = text;
    },
  };
  return storage;
}
