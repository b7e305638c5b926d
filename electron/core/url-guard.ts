// Decides where the app's window may go. The renderer is served from app://plat/ and never navigates;
// links leave the app only to the OS browser, and only over https.
export const APP_ORIGIN = 'app://plat';

/** True for a URL of the app's own renderer (app://plat/...). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'app:' && url.host === 'plat';
  } catch {
    return false;
  }
}

/** True when `raw` may be handed to the OS browser: https, a real host, no embedded credentials. */
export function isSafeExternalUrl(raw: string): boolean {
  if (raw.length > 2048) return false;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && url.hostname.length > 0 && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
