// Runs @doyensec/electronegativity over the Electron entry points and the renderer page, and fails
// on any finding that is not reviewed below, on a file it could not parse, and on a scan that
// reports nothing at all (these files always carry the reviewed findings, so an empty report means
// the scan did not happen).
//
// The findings come from electronegativity's programmatic API, never from its report file: its CSV
// writer issues the header and the findings as two unsynchronised async writes, so the header
// could overwrite part of the first finding (a parse error about one run in five) or, the other
// way round, leave only the header (a pass with no findings).
import Module, { createRequire } from 'node:module';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What the gate scans when run without arguments. */
export const scannedFiles = ['electron/main.ts', 'electron/preload.ts', 'renderer/index.html'];

/** Findings a person has reviewed, with the reason they are acceptable. */
const reviewed: Record<string, string> = {
  // The CSP evaluator's only remark is its generic low one on script-src 'self' (a risk for sites
  // hosting JSONP or user uploads); Plat's origin serves its own build and nothing else. Any
  // stronger CSP finding (MEDIUM or above) is not covered by this entry.
  'CSP_GLOBAL_CHECK:LOW': "script-src 'self' only; the origin serves nothing but Plat's own build",
  PRELOAD_JS_CHECK: 'the preload exposes one named function per IPC operation and nothing else (electron/preload.ts)',
  OPEN_EXTERNAL_JS_CHECK: 'openExternal is reached only through isSafeExternalUrl (https only, no credentials; url-guard.test.ts)',
};

export interface Finding {
  issue: string;
  severity: string;
  location: string;
  description: string;
}

export interface ScanResult {
  findings: Finding[];
  /** Files electronegativity could not parse (so it checked nothing in them). */
  unparsed: { file: string; message: string }[];
}

/** The shape of one issue as electronegativity's runner returns it (dist/runner.js). */
export interface ScannerIssue {
  id: string;
  severity: { name: string };
  file: string;
  location: { line: number; column: number };
  description: string;
}

interface ScannerResult {
  issues: ScannerIssue[];
  errors: { file: string; message: string; tolerable: boolean }[];
}

type ScannerRun = (options: {
  input: string;
  customScan: string[];
  excludeFromScan: string[];
  electronVersionOverride: string;
  parserPlugins: string[];
}) => Promise<ScannerResult>;

export function toFinding(issue: ScannerIssue, sourceFor: (file: string) => string = (file) => file): Finding {
  return {
    issue: issue.id,
    severity: issue.severity.name,
    location: `${sourceFor(issue.file)}:${issue.location.line}:${issue.location.column}`,
    description: issue.description,
  };
}

/** The gate's decision and what it prints; pure, so every way it can fail is tested. */
export function verdict(result: ScanResult): { ok: boolean; lines: string[] } {
  const noteFor = (finding: Finding) => reviewed[`${finding.issue}:${finding.severity}`] ?? reviewed[finding.issue];
  const lines: string[] = [];
  for (const finding of result.findings) {
    const note = noteFor(finding);
    lines.push(`${note ? 'reviewed' : 'FINDING '} ${finding.issue} (${finding.severity}) ${finding.location}${note ? ` — ${note}` : ` — ${finding.description}`}`);
  }
  for (const { file, message } of result.unparsed) lines.push(`UNPARSED ${file} — ${message}`);
  const open = result.findings.filter((finding) => !noteFor(finding));
  lines.push(`electronegativity: ${result.findings.length} findings, ${open.length} not reviewed`);
  if (result.findings.length === 0) lines.push('electronegativity reported nothing at all: the scanned files always carry the reviewed findings, so the scan did not run');
  if (result.unparsed.length > 0) lines.push(`electronegativity could not parse ${result.unparsed.length} file(s): nothing in them was checked`);
  return { ok: result.findings.length > 0 && open.length === 0 && result.unparsed.length === 0, lines };
}

function loadScanner(): ScannerRun {
  const require = createRequire(import.meta.url);
  // The runner first downloads translations (got, 1 s timeout); offline, got's retry then throws
  // an uncaught error from a timer, which could kill the process in the middle of a scan. The
  // gate's output is its own, so the runner gets the bundled en-US strings and no network.
  const stringsPath = require.resolve('@doyensec/electronegativity/dist/locales/i18n.js');
  const i18n = createRequire(stringsPath)('i18n') as { configure(options: object): void; setLocale(locale: string): void };
  const localStrings = () => {
    i18n.configure({ locales: ['en-US'], defaultLocale: 'en-US', directory: path.dirname(stringsPath), updateFiles: false, objectNotation: true, retryInDefaultLocale: true, register: globalThis });
    i18n.setLocale('en-US');
    return Promise.resolve();
  };
  const stringsModule = new Module(stringsPath);
  stringsModule.exports = localStrings;
  stringsModule.loaded = true;
  require.cache[stringsPath] = stringsModule;
  return require('@doyensec/electronegativity') as ScannerRun;
}

/** Scans copies of `files` (paths relative to the repository, or absolute) in one folder. */
export async function scan(files: readonly string[] = scannedFiles): Promise<ScanResult> {
  const scanDir = mkdtempSync(path.join(tmpdir(), 'plat-eneg-'));
  const sources = new Map<string, string>();
  try {
    for (const file of files) {
      const copy = path.join(scanDir, path.basename(file));
      copyFileSync(path.resolve(root, file), copy);
      sources.set(copy, file);
    }
    const result = await loadScanner()({
      input: scanDir,
      customScan: [],
      excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
      electronVersionOverride: '45.4.1',
      parserPlugins: [],
    });
    const sourceFor = (file: string) => sources.get(file) ?? file;
    return {
      findings: result.issues.map((issue) => toFinding(issue, sourceFor)),
      unparsed: result.errors.filter((error) => !error.tolerable).map((error) => ({ file: sourceFor(error.file), message: error.message })),
    };
  } finally {
    rmSync(scanDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const { ok, lines } = verdict(await scan(args.length > 0 ? args : scannedFiles));
  for (const line of lines) console.log(line);
  return ok ? 0 : 1;
}

if (import.meta.main) process.exit(await main());
