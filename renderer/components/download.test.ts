import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64FromBytes, bytesFromBase64, downloadBase64File, downloadTextFile, safeFilename } from './download.ts';

afterEach(() => vi.restoreAllMocks());

function captureDownloads() {
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
  return { blobs, clicked };
}

describe('downloadTextFile', () => {
  it('clicks a hidden download link to a blob holding the text, then removes the link', async () => {
    const { blobs, clicked } = captureDownloads();

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

describe('downloadBase64File', () => {
  it('saves the decoded bytes, not the base64 text', async () => {
    const { blobs, clicked } = captureDownloads();
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0xff, 0x00, 0x80]);

    downloadBase64File('1708 21ST ST NW – subject report – 2026-05-01.pdf', base64FromBytes(pdf), 'application/pdf');

    expect(clicked[0]?.download).toBe('1708 21ST ST NW – subject report – 2026-05-01.pdf');
    expect(new Uint8Array(await blobs[0]!.arrayBuffer())).toEqual(pdf);
    expect(blobs[0]?.type).toBe('application/pdf');
  });

  it('round-trips bytes through base64, beyond one chunk', () => {
    const bytes = new Uint8Array(100_000).map((_, index) => (index * 31) % 256);
    expect(bytesFromBase64(base64FromBytes(bytes))).toEqual(bytes);
  });
});
