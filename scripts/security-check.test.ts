import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scan, toFinding, verdict, type Finding } from './security-check.ts';

const preload: Finding = { issue: 'PRELOAD_JS_CHECK', severity: 'MEDIUM', location: 'electron/main.ts:51:6', description: 'Review the use of preload scripts' };
const cspLow: Finding = { issue: 'CSP_GLOBAL_CHECK', severity: 'LOW', location: 'renderer/index.html:8:0', description: 'One or more CSP directives detected seems to be vulnerable' };

describe('the security gate', () => {
  it('reads each issue the scanner returns as its id, severity, source location and description', () => {
    const issue = { id: 'PRELOAD_JS_CHECK', severity: { name: 'MEDIUM' }, file: '/tmp/x/main.ts', location: { line: 51, column: 6 }, description: 'Review the use of preload scripts' };
    expect(toFinding(issue)).toEqual({ ...preload, location: '/tmp/x/main.ts:51:6' });
    expect(toFinding(issue, () => 'electron/main.ts')).toEqual(preload);
  });

  it('passes when every finding is reviewed', () => {
    const { ok, lines } = verdict({ findings: [cspLow, preload], unparsed: [] });
    expect(ok).toBe(true);
    expect(lines.at(-1)).toBe('electronegativity: 2 findings, 0 not reviewed');
  });

  it('fails on a finding nobody reviewed', () => {
    const open: Finding = { issue: 'NODE_INTEGRATION_JS_CHECK', severity: 'INFORMATIONAL', location: 'electron/main.ts:40:2', description: 'Disable nodeIntegration' };
    const { ok, lines } = verdict({ findings: [preload, open], unparsed: [] });
    expect(ok).toBe(false);
    expect(lines).toContain('FINDING  NODE_INTEGRATION_JS_CHECK (INFORMATIONAL) electron/main.ts:40:2 — Disable nodeIntegration');
  });

  it('covers only the low CSP remark, not a stronger one', () => {
    expect(verdict({ findings: [{ ...cspLow, severity: 'MEDIUM' }], unparsed: [] }).ok).toBe(false);
  });

  it('fails when the scan reports nothing at all (the scanned files always carry the reviewed findings)', () => {
    const { ok, lines } = verdict({ findings: [], unparsed: [] });
    expect(ok).toBe(false);
    expect(lines.join('\n')).toMatch(/reported nothing at all/);
  });

  it('fails when a file could not be parsed, whatever else was found', () => {
    expect(verdict({ findings: [preload], unparsed: [{ file: 'electron/main.ts', message: 'Unexpected token' }] }).ok).toBe(false);
  });
});

describe('the security gate over real scans', () => {
  const fixtures = mkdtempSync(path.join(tmpdir(), 'plat-eneg-test-'));
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

  it("passes on Plat's own main.ts, preload.ts and page, every time (no report file to race on)", async () => {
    for (let run = 0; run < 5; run += 1) {
      const result = await scan();
      // Files, not line numbers: main.ts changes under other work.
      expect(result.findings.map((finding) => `${finding.issue}:${finding.severity} ${finding.location.split(':')[0]}`).sort()).toEqual([
        'CSP_GLOBAL_CHECK:LOW renderer/index.html',
        'OPEN_EXTERNAL_JS_CHECK:MEDIUM electron/main.ts',
        'PRELOAD_JS_CHECK:MEDIUM electron/main.ts',
      ]);
      expect(verdict(result).ok).toBe(true);
    }
  });

  it('fails on a window that turns node integration on', async () => {
    const main = path.join(fixtures, 'main.ts');
    writeFileSync(main, "import { BrowserWindow } from 'electron';\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });\n");
    const result = await scan([main]);
    const { ok, lines } = verdict(result);
    expect(ok).toBe(false);
    expect(lines.some((line) => line.startsWith('FINDING ') && line.includes('NODE_INTEGRATION'))).toBe(true);
  });

  it('fails on an app with no CSP at all (the reviewed low CSP remark does not cover it)', async () => {
    const plain = path.join(fixtures, 'plain.ts');
    writeFileSync(plain, 'export const answer = 42;\n');
    const result = await scan([plain]);
    expect(result.findings).toContainEqual(expect.objectContaining({ issue: 'CSP_GLOBAL_CHECK', severity: 'MEDIUM' }));
    expect(verdict(result).ok).toBe(false);
  });
});
