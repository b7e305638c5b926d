// Whether a build in dist/ is current: a content hash of what it was built from, kept beside it.
// `npm start` checks it (cheap: no bundler is loaded) and builds in a child process only when the
// sources changed, so the process that then serves the app never holds a bundler's memory.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface BuildTarget {
  /** What is built, for messages. */
  name: string;
  /** The scripts/build.ts flag that builds this target alone (several may be given). */
  flag: string;
  /** Files and folders (relative to the project root, or absolute) whose content the build depends on. */
  inputs: string[];
  /** A file the build writes, which must be there for the build to count. */
  output: string;
  /** Where the hash of the inputs of the last successful build is kept. */
  stamp: string;
}

/** Where `npm start` looks for the renderer build (the browser host and Electron serve it). */
export function rendererTarget(outDir = process.env.PLAT_RENDERER_OUT ?? path.join(root, 'dist', 'renderer')): BuildTarget {
  return {
    name: 'the renderer',
    flag: '--renderer-only',
    inputs: ['renderer', 'shared', 'assets/map', 'vite.config.ts', 'package-lock.json'],
    output: path.join(outDir, 'index.html'),
    // Beside the folder, not in it: the folder is served as it is.
    stamp: path.join(path.dirname(outDir), `.${path.basename(outDir)}-inputs`),
  };
}

export const electronTarget: BuildTarget = {
  name: 'the Electron bundles',
  flag: '--electron-only',
  inputs: ['electron', 'shared', 'package-lock.json'],
  output: path.join(root, 'dist', 'electron', 'main.cjs'),
  stamp: path.join(root, 'dist', '.electron-inputs'),
};

/** The embedded service as the browser host runs it: one bundle, so no types are stripped as it loads. */
export const serviceTarget: BuildTarget = {
  name: 'the embedded service',
  flag: '--service-only',
  inputs: ['electron/local-service', 'shared', 'package-lock.json'],
  output: path.join(root, 'dist', 'service', 'local-service.cjs'),
  stamp: path.join(root, 'dist', '.service-inputs'),
};

/** The files of an input (itself, or every file under it), as absolute paths. */
function filesUnder(input: string): string[] {
  const full = path.resolve(root, input);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((entry) => path.join(full, entry))
    .filter((file) => statSync(file).isFile());
}

/** The hash of every input file's path and content, in a stable order. */
export function inputsHash(target: BuildTarget): string {
  const hash = createHash('sha256');
  // Read through one small buffer: the process that checks goes on to serve the app, and whole files
  // read at once would leave it megabytes larger.
  const chunk = Buffer.allocUnsafe(64 * 1024);
  const files = target.inputs.flatMap(filesUnder).sort();
  for (const file of files) {
    // The path as the project names it, the same on every machine and platform.
    hash.update(`${path.relative(root, file).split(path.sep).join('/')}\0`);
    const fd = openSync(file, 'r');
    try {
      for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
    } finally {
      closeSync(fd);
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True when the build output is there and was built from the inputs as they are now. */
export function isCurrent(target: BuildTarget): boolean {
  if (!existsSync(target.output) || !existsSync(target.stamp)) return false;
  return readFileSync(target.stamp, 'utf8').trim() === inputsHash(target);
}

/** Runs `build` and, once it has finished, records the hash of the inputs it started from. */
export async function recordedBuild(target: BuildTarget, build: () => Promise<void>): Promise<void> {
  const hash = inputsHash(target);
  // A build that fails half way must not leave the last good build's stamp beside its remains.
  rmSync(target.stamp, { force: true });
  await build();
  mkdirSync(path.dirname(target.stamp), { recursive: true });
  writeFileSync(target.stamp, `${hash}\n`);
}
