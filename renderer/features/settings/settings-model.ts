// Pure logic of the Settings view: reading what the person typed (dollars, sizes, durations, URLs,
// keys) with messages that say what is wrong, and describing the key's storage in plain words.
import type { KeyStatus } from '../../../shared/ipc.ts';
import { checkServiceBaseUrl } from '../../../shared/connection-url.ts';
import { formatUsd, type MicroUsd } from '../../../shared/money.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

// ---------------------------------------------------------------------------------------------
// Money inputs (budgets, project caps). Empty means "none".

// Shared with the assignment form: promoted to renderer/components.
export { parseOptionalUsd, parsePositiveUsd, usdInputText } from '../../components/usd-input.ts';

// ---------------------------------------------------------------------------------------------
// API key

/** The core's own rule (key-vault normalizeApiKey): 8 to 512 visible ASCII characters, no spaces inside. */
export function checkApiKeyInput(text: string): Parsed<string> {
  const key = text.trim();
  if (key === '') return { ok: false, error: 'Enter the API key from the developer portal.' };
  if (/\s/.test(key)) return { ok: false, error: 'An API key has no spaces or line breaks inside it. Paste it again.' };
  if (/[^\x21-\x7e]/.test(key)) return { ok: false, error: 'An API key has only plain letters, digits and punctuation. Paste it again.' };
  if (key.length < 8) return { ok: false, error: 'That is too short for an API key (at least 8 characters).' };
  if (key.length > 512) return { ok: false, error: 'That is too long for an API key (at most 512 characters).' };
  return { ok: true, value: key };
}

/** Linux backends that are not a keychain (Chromium's fixed password, or not known). */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

/** Whether storing the key needs the person's explicit opt-in to weak encryption. */
export function needsWeakStorageOptIn(backend: string): boolean {
  return WEAK_BACKENDS.has(backend);
}

export interface KeyStatusWords {
  /** One line: where the key is, or that there is none. */
  headline: string;
  /** What that means for the person. */
  detail: string;
  tone: 'ok' | 'warning' | 'neutral';
}

function keychainName(backend: string): string {
  if (backend === 'macos_keychain') return 'the macOS Keychain';
  if (backend === 'windows_dpapi') return 'Windows data protection (DPAPI)';
  return `the OS keychain (${backend})`;
}

/** Where the key lives, in words: "Stored in the OS keychain (gnome_libsecret)". */
export function describeKeyStatus(status: KeyStatus): KeyStatusWords {
  const { configured, backend, persisted } = status;
  if (backend === 'environment' && configured) {
    return {
      headline: 'Taken from the PLAT_API_KEY environment variable',
      detail: 'Kept in memory for this session only. Replacing or deleting it here lasts until Plat restarts.',
      tone: 'ok',
    };
  }
  if (backend === 'memory' || backend === 'environment') {
    return configured
      ? {
          headline: 'Kept in memory for this session only',
          detail: 'The browser host never writes the key to disk: enter it again after Plat restarts.',
          tone: 'ok',
        }
      : {
          headline: 'No API key set',
          detail: 'The browser host keeps a key in memory only, for this session (or takes it from PLAT_API_KEY).',
          tone: 'neutral',
        };
  }
  if (backend === 'unavailable') {
    return configured
      ? {
          headline: 'Kept for this session only — encryption is not available on this system',
          detail: 'Plat never writes an unencrypted key to disk: enter it again at the next start.',
          tone: 'warning',
        }
      : { headline: 'No API key set', detail: 'Encryption is not available on this system, so a key can be kept for the session only.', tone: 'neutral' };
  }
  if (needsWeakStorageOptIn(backend)) {
    if (!configured) {
      return {
        headline: 'No API key set',
        detail: `This system has no keychain (${backend}): a key is kept for the session only unless you choose weaker storage.`,
        tone: 'neutral',
      };
    }
    return persisted
      ? {
          headline: `Stored on disk with weak encryption (${backend}), as you chose`,
          detail: 'Anyone who can read your files could recover it. To keep it off the disk, delete it and enter it again without the weak-storage option.',
          tone: 'warning',
        }
      : {
          headline: `Kept for this session only — this system has no keychain (${backend})`,
          detail: 'Enter it again at the next start, or store it with weak encryption (opt in below).',
          tone: 'warning',
        };
  }
  if (!configured) return { headline: 'No API key set', detail: `A key you enter is stored in ${keychainName(backend)}.`, tone: 'neutral' };
  return persisted
    ? { headline: `Stored in ${keychainName(backend)}`, detail: 'Plat reads it only to call the service; it is never shown again.', tone: 'ok' }
    : { headline: 'Kept for this session only', detail: `It could not be stored in ${keychainName(backend)}.`, tone: 'warning' };
}

// ---------------------------------------------------------------------------------------------
// Service connection

/**
 * The core's failure messages read "<what happened> — <next step>" (shared/errors.ts): split so
 * the next step stands on its own line, as in every error notice.
 */
export function splitNextStep(message: string): { detail: string; nextStep: string | null } {
  const cut = message.lastIndexOf(' — ');
  if (cut <= 0) return { detail: message, nextStep: null };
  const sentence = (text: string) => {
    const trimmed = text.trim();
    const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
    return /[.!?…]$/.test(capitalised) ? capitalised : `${capitalised}.`;
  };
  return { detail: sentence(message.slice(0, cut)), nextStep: sentence(message.slice(cut + 3)) };
}

/**
 * A live service base URL, by the core's own rule (shared/connection-url.ts), so the form refuses
 * exactly what setConnection would. `needsInsecureConsent`: the one problem is plain http:// to
 * another computer, which the person may accept explicitly (sent as `allowInsecure: true`).
 */
export function parseLiveUrl(
  text: string,
  options: { allowInsecure?: boolean } = {},
): { ok: true; value: string } | { ok: false; error: string; needsInsecureConsent: boolean } {
  const check = checkServiceBaseUrl(text, options);
  return check.ok ? { ok: true, value: check.baseUrl } : { ok: false, error: check.problem, needsInsecureConsent: check.needsInsecureConsent };
}

// ---------------------------------------------------------------------------------------------
// Caps below what was already spent: accepted (the person may mean "stop spending"), never silently.

/**
 * What a cap at or below the spending it limits means, or null when it leaves room: "This session
 * has already spent $0.04; every charged call will be refused until you raise the cap or restart Plat."
 */
export function capAlreadyReached(scope: 'session' | 'project', capMicroUsd: MicroUsd | null, spentMicroUsd: MicroUsd): string | null {
  if (capMicroUsd === null || spentMicroUsd === 0 || capMicroUsd > spentMicroUsd) return null;
  const spent = formatUsd(spentMicroUsd);
  return scope === 'session'
    ? `This session has already spent ${spent}; every charged call will be refused until you raise the cap or restart Plat.`
    : `This project has already spent ${spent}; every charged call for it will be refused until you raise its cap.`;
}

// ---------------------------------------------------------------------------------------------
// Cache policy. Bounds are those of CacheSettingsSchema in shared/ipc.ts.

export const TTL_UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const;
export type TtlUnit = keyof typeof TTL_UNITS;
const MIN_TTL_SECONDS = 60;
const MAX_TTL_SECONDS = 365 * 86_400;
const MIN_ENTRIES = 10;
const MAX_ENTRIES = 1_000_000;
const MIB = 1024 * 1024;
const MIN_MIB = 1;
const MAX_MIB = 10 * 1024;

/** The largest unit that shows the TTL as a whole number. */
export function ttlToForm(seconds: number): { amount: string; unit: TtlUnit } {
  if (seconds % TTL_UNITS.days === 0) return { amount: String(seconds / TTL_UNITS.days), unit: 'days' };
  if (seconds % TTL_UNITS.hours === 0) return { amount: String(seconds / TTL_UNITS.hours), unit: 'hours' };
  return { amount: String(Math.round(seconds / TTL_UNITS.minutes)), unit: 'minutes' };
}

const WHOLE = /^\d{1,12}$/;
const plainNumber = (text: string) => text.trim().replace(/[,_\s]/g, '');

/** A whole number as typed (thousands separators allowed) times `unit`, the product within `min`..`max`. */
function parseWholeTimes(text: string, unit: number, min: number, max: number, errors: { notWhole: string; outOfRange: string }): Parsed<number> {
  const plain = plainNumber(text);
  if (!WHOLE.test(plain)) return { ok: false, error: errors.notWhole };
  const value = Number(plain) * unit;
  if (value < min || value > max) return { ok: false, error: errors.outOfRange };
  return { ok: true, value };
}

export function parseTtl(amount: string, unit: TtlUnit): Parsed<number> {
  return parseWholeTimes(amount, TTL_UNITS[unit], MIN_TTL_SECONDS, MAX_TTL_SECONDS, {
    notWhole: 'Keep free answers for: enter a whole number.',
    outOfRange: 'Keep free answers for: from 1 minute to 365 days.',
  });
}

export function parseMaxEntries(text: string): Parsed<number> {
  return parseWholeTimes(text, 1, MIN_ENTRIES, MAX_ENTRIES, {
    notWhole: 'Most answers kept: enter a whole number.',
    outOfRange: 'Most answers kept: from 10 to 1,000,000.',
  });
}

/** The size bound in MiB, as the person types it; the core takes bytes. */
export function parseMaxMebibytes(text: string): Parsed<number> {
  return parseWholeTimes(text, MIB, MIN_MIB * MIB, MAX_MIB * MIB, {
    notWhole: 'Largest cache size: enter a whole number of MB.',
    outOfRange: 'Largest cache size: from 1 MB to 10,240 MB (10 GB).',
  });
}

export function bytesToMebibytesText(bytes: number): string {
  return String(Math.max(MIN_MIB, Math.round(bytes / MIB)));
}

/** "0 B", "12.4 KB", "3.1 MB", "1.2 GB" (binary units, as the size bound is set). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function hitRate(hits: number, misses: number): string {
  const total = hits + misses;
  return total === 0 ? '—' : `${Math.round((hits / total) * 100)} %`;
}
