import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { createPublicKey, verify, X509Certificate } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fileIdentityStorage, InstallationIdentity, memoryIdentityStorage, safeStorageIdentityStorage } from './installation-identity.ts';
import { checkCmsDetached } from './cms-signature.ts';
import type { SafeStorageLike } from './key-vault.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'plat-identity-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stand-in for Electron's safeStorage: reversible, and visibly not the plain text. */
const fakeSafeStorage = (available = true): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  encryptString: (text) => Buffer.from(`enc:${Buffer.from(text).toString('base64')}`),
  decryptString: (data) => {
    const text = data.toString();
    if (!text.startsWith('enc:')) throw new Error('not ours');
    return Buffer.from(text.slice(4), 'base64').toString();
  },
});

describe('InstallationIdentity', () => {
  it('is made on first use, kept, and the same on the next start', () => {
    const storage = memoryIdentityStorage();
    const first = new InstallationIdentity(storage);
    expect(storage.text).toBeNull();
    const fingerprint = first.fingerprint();
    expect(fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(new InstallationIdentity(storage).fingerprint()).toBe(fingerprint);
    const certificate = new X509Certificate(first.certificatePem());
    expect(certificate.subject).toMatch(/CN=Plat installation [0-9a-f]{8}/);
    expect(certificate.issuer).toBe(certificate.subject);
    expect(new InstallationIdentity(memoryIdentityStorage()).fingerprint()).not.toBe(fingerprint);
  });

  it('signs: a detached CMS over bytes, and RSA-SHA256 over text, both checked by its certificate', () => {
    const identity = new InstallationIdentity(memoryIdentityStorage());
    const bytes = new TextEncoder().encode('the bytes of a PDF');
    const check = checkCmsDetached(identity.signCms([bytes], new Date('2026-03-02T15:04:05Z')), bytes);
    expect(check).toMatchObject({ ok: true, fingerprint: identity.fingerprint() });
    expect(check.ok && check.signingTime?.toISOString()).toBe('2026-03-02T15:04:05.000Z');
    expect(checkCmsDetached(identity.signCms([bytes], new Date()), new TextEncoder().encode('other bytes'))).toMatchObject({ ok: false, reason: expect.stringContaining('changed after signing') });
    const detached = identity.signDetached('canonical content');
    const publicKey = createPublicKey(detached.certificate);
    expect(verify('sha256', Buffer.from('canonical content'), publicKey, Buffer.from(detached.signature, 'base64'))).toBe(true);
  });

  it('never shows its private key when printed or serialised', () => {
    const storage = memoryIdentityStorage();
    const identity = new InstallationIdentity(storage);
    const fingerprint = identity.fingerprint();
    const stored = JSON.parse(storage.text!) as { privateKeyPem: string };
    const keyBody = stored.privateKeyPem.split('\n')[1]!;
    for (const shown of [JSON.stringify(identity), inspect(identity), String(JSON.stringify({ identity }))]) {
      expect(shown).toContain(fingerprint);
      expect(shown).not.toContain(keyBody);
    }
  });

  it('browser host: a file only its user can read (0600), read back on the next start', () => {
    const file = path.join(scratch, 'host', 'installation-identity.json');
    const fingerprint = new InstallationIdentity(fileIdentityStorage(file)).fingerprint();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new InstallationIdentity(fileIdentityStorage(file)).fingerprint()).toBe(fingerprint);
  });

  it('Electron: encrypted with safeStorage; a file it cannot decrypt or a damaged one is replaced by a new identity', () => {
    const file = path.join(scratch, 'electron', 'installation-identity.json');
    const fingerprint = new InstallationIdentity(safeStorageIdentityStorage(fakeSafeStorage(), file)).fingerprint();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('PRIVATE KEY');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new InstallationIdentity(safeStorageIdentityStorage(fakeSafeStorage(), file)).fingerprint()).toBe(fingerprint);
    writeFileSync(file, JSON.stringify({ encrypted: Buffer.from('garbage').toString('base64') }));
    expect(new InstallationIdentity(safeStorageIdentityStorage(fakeSafeStorage(), file)).fingerprint()).not.toBe(fingerprint);
    writeFileSync(file, '{ not json');
    expect(new InstallationIdentity(safeStorageIdentityStorage(fakeSafeStorage(), file)).fingerprint()).toMatch(/^[0-9A-F:]+$/);
  });

  it('Electron without any encryption keeps it as the browser host does, mode 0600', () => {
    const file = path.join(scratch, 'plain', 'installation-identity.json');
    new InstallationIdentity(safeStorageIdentityStorage(fakeSafeStorage(false), file)).fingerprint();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('PRIVATE KEY');
  });
});
