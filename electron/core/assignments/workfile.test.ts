// Signed workfiles: an import says whose signature the file carries, and a signed file changed and
// resealed (its checksum recomputed) is refused with the reason.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { InstallationIdentity, memoryIdentityStorage } from '../installation-identity.ts';
import { openAssignment, refusalOf, SUBJECT } from './assignments-test-kit.ts';
import { readSignedWorkfile, workfileChecksum, WorkfileContentSchema } from './workfile.ts';

const here = new InstallationIdentity(memoryIdentityStorage());
const elsewhere = new InstallationIdentity(memoryIdentityStorage());

function exported(signer: InstallationIdentity | null): string {
  const { assignments, id } = openAssignment({ name: '1708 21st St NW', subjectRef: SUBJECT, start: '2026-03-02T15:00:00.000Z', signer });
  return assignments.exportWorkfile(id).json;
}

function importedBy(signer: InstallationIdentity | null, json: string) {
  const { assignments } = openAssignment({ name: 'Another assignment', subjectRef: SUBJECT, start: '2026-03-03T09:00:00.000Z', signer });
  return assignments.importWorkfile(json);
}

/** The file with its content edited and its checksum recomputed, the signature left as it was. */
function resealed(json: string, edit: (content: Record<string, unknown>) => void): string {
  const { sha256: _sha256, signature, ...content } = JSON.parse(json) as Record<string, unknown>;
  edit(content);
  const checked = WorkfileContentSchema.parse(content);
  return JSON.stringify({ ...content, sha256: workfileChecksum(checked), ...(signature ? { signature } : {}) });
}

describe('signed workfiles', () => {
  it('are signed over their canonical content with this installation’s certificate', () => {
    const file = JSON.parse(exported(here)) as { signature: { algorithm: string; certificate: string } };
    expect(file.signature.algorithm).toBe('RSA-SHA256');
    expect(file.signature.certificate).toBe(here.certificatePem());
    const read = readSignedWorkfile(JSON.stringify(file), here.fingerprint());
    expect(read.signature).toMatchObject({ status: 'this-installation', fingerprint: here.fingerprint() });
    expect(canonicalJson(read.content)).toContain('1708 21st St NW');
  });

  it('say on import whose signature they carry: this installation, another, or none', () => {
    const signed = exported(here);
    expect(importedBy(here, signed).workfileSignature).toMatchObject({ status: 'this-installation', message: expect.stringContaining('Signed by this Plat installation') });
    expect(importedBy(elsewhere, signed).workfileSignature).toMatchObject({
      status: 'other-installation',
      fingerprint: here.fingerprint(),
      message: expect.stringContaining('its answers are that installation’s word'),
    });
    const unsigned = importedBy(here, exported(null));
    expect(unsigned.name).toBe('1708 21st St NW');
    expect(unsigned.workfileSignature).toMatchObject({ status: 'unsigned', fingerprint: null, message: expect.stringContaining('not signed') });
  });

  it('refuse a signed file changed and resealed, with the reason, and import nothing', () => {
    const forged = resealed(exported(here), (content) => {
      (content.assignment as { name: string }).name = 'MALLORY FORGED';
    });
    const { assignments } = openAssignment({ name: 'Another assignment', subjectRef: SUBJECT, start: '2026-03-03T09:00:00.000Z', signer: here });
    const before = assignments.ipcProjects().length;
    const refusal = refusalOf(() => assignments.importWorkfile(forged));
    expect(refusal.platError).toMatchObject({ code: 'invalid_payload' });
    expect(refusal.message).toMatch(/^This workfile was changed after it was signed: its signature \(certificate SHA-256 [0-9A-F:]+\) does not match its content, although its checksum was made to\. Nothing was imported/);
    expect(assignments.ipcProjects()).toHaveLength(before);
  });

  it('refuse a damaged signature', () => {
    const file = JSON.parse(exported(here)) as Record<string, unknown>;
    const refusal = refusalOf(() => importedBy(here, JSON.stringify({ ...file, signature: { algorithm: 'RSA-SHA256', signature: 'AAAA', certificate: 'not a certificate' } })));
    expect(refusal.message).toContain('its certificate cannot be read');
  });
});
