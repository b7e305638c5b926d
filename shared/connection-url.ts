// The one rule for a live service's base URL, used by the IPC contract (setConnection), by the core
// when it reads a stored setting at start, and by the settings form before it sends anything.
// Pure: no Node, no DOM.

/** Longest base URL accepted (the IPC contract's bound). */
export const MAX_SERVICE_URL_LENGTH = 2048;

export type ServiceUrlCheck =
  /** `baseUrl` is the address to store and call (trimmed, no trailing slash). */
  | { ok: true; baseUrl: string }
  /**
   * `problem` says what is wrong, in words for the person; `needsInsecureConsent` is true when the
   * only problem is plain http:// to another computer, which `allowInsecure: true` accepts.
   */
  | { ok: false; problem: string; needsInsecureConsent: boolean };

/** This computer: localhost, 127.0.0.0/8 or ::1 (a WHATWG URL's hostname, already normalised). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const refuse = (problem: string, needsInsecureConsent = false): ServiceUrlCheck => ({ ok: false, problem, needsInsecureConsent });

/**
 * Whether `input` can be a live service's base URL. Refused: anything unparsable, other schemes,
 * credentials, a query string or a fragment (the key travels in a header, and the client builds
 * paths and queries itself), and plain http:// to a host other than this computer unless
 * `allowInsecure` (the key would cross the network unencrypted).
 */
export function checkServiceBaseUrl(input: string, options: { allowInsecure?: boolean | undefined } = {}): ServiceUrlCheck {
  const raw = input.trim();
  if (raw === '') return refuse('Enter the service’s address, e.g. https://records.example.com.');
  if (raw.length > MAX_SERVICE_URL_LENGTH) return refuse(`The address is longer than ${MAX_SERVICE_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('This is not a web address; it should look like https://records.example.com.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`The address must start with https:// (it starts with ${url.protocol}//).`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('The address must not contain a user name or password; the API key goes in Settings › API key.');
  }
  // A bare "?" or "#" leaves search/hash empty, so the text itself is checked too.
  if (url.search !== '' || raw.includes('?')) return refuse('The address must not contain a query string (the part from "?").');
  if (url.hash !== '' || raw.includes('#')) return refuse('The address must not contain a fragment (the part from "#").');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && options.allowInsecure !== true) {
    return refuse(
      `Plain http:// to ${url.host} would send your API key unencrypted over the network. Use https://, or confirm that you accept this.`,
      true,
    );
  }
  return { ok: true, baseUrl: url.href.replace(/\/+$/, '') };
}
