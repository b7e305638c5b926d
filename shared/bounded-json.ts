// The one reader for JSON that comes from a file or a PDF (a workfile, a report's citations.json and
// manifest, Plat's own small files): its size is checked before anything is read, its nesting before
// it is parsed. JSON.parse itself copes with deep text, but what walks the value afterwards (schemas,
// canonical JSON, digests) recurses, so a file nested thousands deep would end as a stack overflow,
// an `internal` error, instead of the refusal a person can understand.

export interface JsonLimits {
  /** Largest input, in bytes (UTF-8) for bytes and in UTF-16 units for text. */
  maxBytes: number;
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
}

/** What most files Plat reads may be: far deeper than any it writes (about a dozen levels). */
export const FILE_JSON_MAX_DEPTH = 64;

export type BoundedJson =
  | { ok: true; value: unknown }
  /** `problem` completes a sentence about the file: "This workfile <problem>; Plat refuses it." */
  | { ok: false; reason: 'too-large' | 'too-deep' | 'not-json'; problem: string };

const megabytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The refusal for an input of `size` past the limit, or null within it: callers holding only a size (a file on disk) check it first. */
export function jsonSizeProblem(size: number, limits: JsonLimits): BoundedJson | null {
  return size > limits.maxBytes ? { ok: false, reason: 'too-large', problem: `is ${megabytes(size)}, more than the ${megabytes(limits.maxBytes)} Plat reads` } : null;
}

/**
 * How deep `text` nests arrays and objects, counting brackets outside strings; stops counting once
 * past `stopAfter`. Linear and without recursion, so it is safe on any text.
 */
export function jsonNestingDepth(text: string, stopAfter: number = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAfter) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Parses `text` as JSON within `limits`; never throws. */
export function readBoundedJson(text: string, limits: JsonLimits): BoundedJson {
  const tooLarge = jsonSizeProblem(text.length, limits);
  if (tooLarge) return tooLarge;
  if (jsonNestingDepth(text, limits.maxDepth) > limits.maxDepth) {
    return { ok: false, reason: 'too-deep', problem: `nests deeper than ${limits.maxDepth} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'not-json', problem: 'is not complete JSON' };
  }
}

/** Like readBoundedJson, for UTF-8 bytes: the size is checked before the bytes are decoded. */
export function readBoundedJsonBytes(bytes: Uint8Array, limits: JsonLimits): BoundedJson {
  const tooLarge = jsonSizeProblem(bytes.byteLength, limits);
  if (tooLarge) return tooLarge;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'not-json', problem: 'is not UTF-8 text' };
  }
  return readBoundedJson(text, limits);
}
