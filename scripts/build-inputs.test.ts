import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCurrent, recordedBuild, type BuildTarget } from './build-inputs.ts';

let dir: string;
let target: BuildTarget;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'plat-build-inputs-'));
  mkdirSync(path.join(dir, 'src', 'nested'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(dir, 'src', 'nested', 'b.ts'), 'export const b = 2;\n');
  target = { name: 'the test build', flag: '--test-only', inputs: [path.join(dir, 'src')], output: path.join(dir, 'out', 'index.html'), stamp: path.join(dir, '.out-inputs') };
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const build = async () => {
  mkdirSync(path.join(dir, 'out'), { recursive: true });
  writeFileSync(target.output, '<!doctype html>');
};

describe('build inputs', () => {
  it('a build is current once recorded, and stays current when files are only touched', async () => {
    expect(isCurrent(target)).toBe(false);
    await recordedBuild(target, build);
    expect(isCurrent(target)).toBe(true);
    utimesSync(path.join(dir, 'src', 'a.ts'), new Date(), new Date());
    expect(isCurrent(target)).toBe(true);
  });

  it('a changed, added or removed input makes it stale', async () => {
    await recordedBuild(target, build);
    writeFileSync(path.join(dir, 'src', 'nested', 'b.ts'), 'export const b = 3;\n');
    expect(isCurrent(target)).toBe(false);

    await recordedBuild(target, build);
    writeFileSync(path.join(dir, 'src', 'c.ts'), '');
    expect(isCurrent(target)).toBe(false);

    await recordedBuild(target, build);
    rmSync(path.join(dir, 'src', 'c.ts'));
    expect(isCurrent(target)).toBe(false);
  });

  it('a build that fails leaves no stamp, so the next start builds again', async () => {
    await recordedBuild(target, build);
    writeFileSync(path.join(dir, 'src', 'a.ts'), 'broken');
    await expect(recordedBuild(target, () => Promise.reject(new Error('syntax error')))).rejects.toThrow('syntax error');
    expect(isCurrent(target)).toBe(false);
    writeFileSync(path.join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
    expect(isCurrent(target)).toBe(false);
  });

  it('a missing output is not current, whatever the stamp says', async () => {
    await recordedBuild(target, build);
    rmSync(path.join(dir, 'out'), { recursive: true });
    expect(isCurrent(target)).toBe(false);
  });
});
