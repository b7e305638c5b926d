import { describe, expect, it } from 'vitest';
import { safeFilename } from './filename.ts';

describe('safeFilename', () => {
  it('removes path separators, reserved and control characters, and leading or trailing dots', () => {
    expect(safeFilename('../etc/passwd')).toBe('-etc-passwd');
    expect(safeFilename('a:b*c?.csv')).toBe('a-b-c-.csv');
    expect(safeFilename('tab\there\u007f.pdf')).toBe('tab-here-.pdf');
    expect(safeFilename('   ')).toBe('download');
  });

  it('never proposes a Windows device name', () => {
    expect(safeFilename('CON.pdf')).toBe('_CON.pdf');
    expect(safeFilename('lpt1')).toBe('_lpt1');
    expect(safeFilename('Console.pdf')).toBe('Console.pdf');
  });

  it('shortens a long name to 200 units, keeping its extension and whole characters', () => {
    const long = safeFilename(`${'名'.repeat(151)}${'😀'.repeat(40)}.pdf`);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(long).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
