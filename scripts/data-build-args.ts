// The command line of the builds that read the public-record files in ../shared/data and write
// into assets/ (`npm run sample-data`, `npm run map-assets`).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `--from DIR` (default ../shared/data beside the repository) and `--out DIR` (default `defaultOut` in the repository). */
export function dataBuildDirs(argv: string[], defaultOut: string): { fromDir: string; outDir: string } {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  let fromDir = path.resolve(repoRoot, '../shared/data');
  let outDir = path.join(repoRoot, defaultOut);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--from') fromDir = path.resolve(argv[++i] ?? '');
    else if (arg === '--out') outDir = path.resolve(argv[++i] ?? '');
    else throw new Error(`unknown argument ${arg} (use --from DIR, --out DIR)`);
  }
  return { fromDir, outDir };
}
