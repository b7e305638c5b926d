// A JSON file read through the one bounded reader (shared/bounded-json.ts), its size checked on disk
// before a byte of it is read: a file swollen or nested by someone else is refused, never walked.
import { readFileSync, statSync } from 'node:fs';
import { jsonSizeProblem, readBoundedJsonBytes, type BoundedJson, type JsonLimits } from '../../shared/bounded-json.ts';

/** The file's JSON within `limits`; throws only what the file system throws (a missing file, no permission). */
export function readJsonFile(filePath: string, limits: JsonLimits): BoundedJson {
  return jsonSizeProblem(statSync(filePath).size, limits) ?? readBoundedJsonBytes(readFileSync(filePath), limits);
}
