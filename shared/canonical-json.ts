// One canonical text for a request, used for the main process's cache keys and the renderer's
// query keys alike, so both sides agree on when two requests are the same question.

/**
 * The request as a stable string: object keys sorted at every level, undefined properties dropped
 * (as JSON does), anything JSON cannot represent exactly refused. Defaults must already be applied
 * by the caller, so `{limit: 50}` and `{}` are only the same request if the caller makes them so.
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, '$');
}

function canonical(value: unknown, at: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`request value at ${at} is not a finite number`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value.map((item, index) => (item === undefined ? 'null' : canonical(item, `${at}[${index}]`))).join(',')}]`;
      }
      const withToJson = value as { toJSON?: () => unknown };
      if (typeof withToJson.toJSON === 'function') return canonical(withToJson.toJSON(), at);
      const record = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const name of Object.keys(record).sort()) {
        const item = record[name];
        if (item === undefined) continue;
        parts.push(`${JSON.stringify(name)}:${canonical(item, `${at}.${name}`)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new TypeError(`request value at ${at} cannot be part of a cache key (${typeof value})`);
  }
}
