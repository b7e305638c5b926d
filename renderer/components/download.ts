// Saves a file the same way in Electron and in the browser host: a Blob behind an <a download>,
// which both hand to their own download handling (Electron asks where to save it; the browser puts
// it in its downloads). No file system access needed.
import { safeFilename } from '../../shared/filename.ts';

export function downloadFile(filename: string, contents: BlobPart, mimeType: string, doc: Document = document): void {
  const blob = new Blob([contents], { type: mimeType });
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = safeFilename(filename);
  link.rel = 'noopener';
  link.style.display = 'none';
  doc.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked later, not at once: a download that starts a moment after the click still finds the
    // blob; otherwise the URL would live as long as the page.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

/** Text (CSV, JSON) as a file. */
export function downloadTextFile(filename: string, text: string, mimeType: string, doc: Document = document): void {
  downloadFile(filename, text, mimeType, doc);
}

/** Base64 from the core (a PDF) as a file. */
export function downloadBase64File(filename: string, base64: string, mimeType: string, doc: Document = document): void {
  downloadFile(filename, bytesFromBase64(base64), mimeType, doc);
}

export function bytesFromBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** A file's bytes as base64 (a chosen PDF to the core), in chunks so a large file does not overflow the call stack. */
export function base64FromBytes(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  return btoa(binary);
}

// One rule for file names, shared with the core (which names exported reports).
export { safeFilename };
