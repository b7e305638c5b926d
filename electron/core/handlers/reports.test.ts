import { describe, expect, it } from 'vitest';
import { appraiserSigning } from './reports.ts';

describe('appraiserSigning', () => {
  it('names the appraiser by the certificate the report is signed with (its first 8 bytes)', () => {
    const fingerprint = 'AB:CD:EF:01:23:45:67:89:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:00:11:22:33:44:55:66:77';
    expect(appraiserSigning(fingerprint)).toBe('The appraiser (signing certificate SHA-256 AB:CD:EF:01:23:45:67:89…)');
  });
});
