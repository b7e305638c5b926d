// File names Plat proposes (exports, downloads) are made safe here once, so the core's names and the
// renderer's downloads agree on every platform.

/** Names Windows reserves for devices, whatever the extension ("CON.pdf" cannot be created). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/** Longest name proposed, in UTF-16 units: file systems allow 255 bytes, and a name may be non-Latin. */
const MAX_LENGTH = 200;

/** A name any file system accepts: no path separators, control or reserved characters, the extension kept when shortened. */
export function safeFilename(name: string): string {
  // eslint-disable-next-line no-control-regex
  let cleaned = name.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '-').replace(/^[.\s]+|[.\s]+$/g, '');
  if (cleaned === '') return 'download';
  if (WINDOWS_RESERVED.test(cleaned)) cleaned = `_${cleaned}`;
  if (cleaned.length <= MAX_LENGTH) return cleaned;
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(cleaned)?.[0] ?? '';
  // Cut on a code point, never between the halves of a surrogate pair.
  const stem = cleaned.slice(0, MAX_LENGTH - extension.length);
  const whole = /[\uD800-\uDBFF]$/.test(stem) ? stem.slice(0, -1) : stem;
  return `${whole.replace(/[.\s]+$/, '')}${extension}`;
}
