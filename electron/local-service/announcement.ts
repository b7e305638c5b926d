// The service CLI announces itself with one JSON line on stdout: {"url": ..., "keys": {...}}.
// Launchers (a Node child process, Electron's utilityProcess) read it here, in one way.

export interface ServiceAnnouncement {
  url: string;
  keys: { active: string; revoked: string; suspended: string; exhausted: string };
}

function isAnnouncement(value: unknown): value is ServiceAnnouncement {
  if (typeof value !== 'object' || value === null) return false;
  const { url, keys } = value as Record<string, unknown>;
  if (typeof url !== 'string' || typeof keys !== 'object' || keys === null) return false;
  const k = keys as Record<string, unknown>;
  return ['active', 'revoked', 'suspended', 'exhausted'].every((name) => typeof k[name] === 'string');
}

/** Resolves with the first announcement line; rejects when the stream ends first or time runs out. */
export function readServiceAnnouncement(stdout: NodeJS.ReadableStream, timeoutMs: number): Promise<ServiceAnnouncement> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const finish = (error: Error | null, announcement?: ServiceAnnouncement) => {
      clearTimeout(timer);
      stdout.removeListener('data', onData);
      stdout.removeListener('end', onEnd);
      stdout.removeListener('error', onError);
      if (error) reject(error);
      else if (announcement) resolve(announcement);
    };
    const onData = (chunk: Buffer | string) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (!line.startsWith('{')) continue;
        try {
          const parsed: unknown = JSON.parse(line);
          if (isAnnouncement(parsed)) return finish(null, { url: parsed.url, keys: parsed.keys });
        } catch {
          // Not the announcement; keep reading.
        }
      }
    };
    const onEnd = () => finish(new Error('the service exited before announcing its address'));
    const onError = (error: Error) => finish(error);
    const timer = setTimeout(() => finish(new Error(`the service did not announce its address within ${timeoutMs / 1000} s`)), timeoutMs);
    stdout.on('data', onData);
    stdout.on('end', onEnd);
    stdout.on('error', onError);
  });
}
