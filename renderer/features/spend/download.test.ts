import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadTextFile, safeFilename } from './download.ts';

afterEach(() => vi.restoreAllMocks());

describe('downloadTextFile', () => {
  it('clicks a hidden download link to a blob holding the text, then removes the link', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:plat/1';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });

    downloadTextFile('plat-ledger-2024-05-01.csv', 'id,kind\r\n1,call\r\n', 'text/csv');

    expect(clicked).toEqual([{ href: 'blob:plat/1', download: 'plat-ledger-2024-05-01.csv' }]);
    expect(await blobs[0]?.text()).toBe('id,kind\r\n1,call\r\n');
    expect(blobs[0]?.type).toBe('text/csv');
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });

  it('makes any name safe for a file system', () => {
    expect(safeFilename('../etc/passwd')).toBe('-etc-passwd');
    expect(safeFilename('a:b*c?.csv')).toBe('a-b-c-.csv');
    expect(safeFilename('   ')).toBe('download');
  });
});
