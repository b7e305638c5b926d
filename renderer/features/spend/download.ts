// Saves text as a file the same way in Electron and in the browser host: a Blob behind an
// <a download>, which both hand to their own download handling (no file system access needed).
export function downloadTextFile(filename: string, text: string, mimeType: string, doc: Document = document): void {
  const blob = new Blob([text], { type: mimeType });
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

/** A name any file system accepts: no path separators, control or reserved characters. */
export function safeFilename(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f<>:"/\\|?*]+/g, '-').replace(/^[.\s]+|[.\s]+$/g, '');
  return cleaned === '' ? 'download' : cleaned.slice(0, 200);
}
