// Test support (not part of the app): download.ts as it is, but a text file saved is recorded instead,
// for the factory of a test's `vi.mock('…/components/download.ts', …)`.
import type * as DownloadModule from '../components/download.ts';

export interface RecordedDownload {
  filename: string;
  text: string;
  mime: string;
}

export async function recordTextDownloads(importOriginal: () => Promise<typeof DownloadModule>, downloads: RecordedDownload[]) {
  return { ...(await importOriginal()), downloadTextFile: (filename: string, text: string, mime: string) => downloads.push({ filename, text, mime }) };
}
