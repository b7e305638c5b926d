import { describe, expect, it } from 'vitest';
import { parseFindings } from './security-check.ts';

describe('electronegativity report parsing', () => {
  it('reads every finding with its issue, severity and location', () => {
    const csv = [
      'issue, severity, confidence, filename, location, sample, description, url',
      'AUXCLICK_JS_CHECK,"MEDIUM","FIRM","/tmp/x/main.ts","43:17","const window = new BrowserWindow({","Limit navigation flows, please",https://example',
      'CSP_GLOBAL_CHECK,"LOW","CERTAIN","/tmp/x/index.html","8:0",N/A,"One or more CSP directives detected seems to be vulnerable",https://example',
    ].join('\n');
    expect(parseFindings(csv)).toEqual([
      { issue: 'AUXCLICK_JS_CHECK', severity: 'MEDIUM', location: '/tmp/x/main.ts:43:17', description: 'Limit navigation flows, please' },
      { issue: 'CSP_GLOBAL_CHECK', severity: 'LOW', location: '/tmp/x/index.html:8:0', description: 'One or more CSP directives detected seems to be vulnerable' },
    ]);
  });
  it('reads a real report, whose samples hold commas, semicolons and quotes', () => {
    // As electronegativity 1.10.3 wrote it for this project's main.ts and index.html.
    const csv = [
      'issue, severity, confidence, filename, location, sample, description, url',
      `CSP_GLOBAL_CHECK,"LOW","FIRM","/tmp/e4/index.html","8:0","default-src 'self'; script-src 'self'; object-src 'none'","One or more CSP directives detected seems to be vulnerable",https://github.com/doyensec/electronegativity/wiki/CSP`,
      `PRELOAD_JS_CHECK,"MEDIUM","FIRM","/tmp/e4/main.ts","51:6","preload: path.join(__dirname, 'preload.cjs'),","Review the use of preload scripts",https://github.com/doyensec/electronegativity/wiki/PRELOAD_JS_CHECK`,
    ].join('\n');
    expect(parseFindings(csv)).toEqual([
      { issue: 'CSP_GLOBAL_CHECK', severity: 'LOW', location: '/tmp/e4/index.html:8:0', description: 'One or more CSP directives detected seems to be vulnerable' },
      { issue: 'PRELOAD_JS_CHECK', severity: 'MEDIUM', location: '/tmp/e4/main.ts:51:6', description: 'Review the use of preload scripts' },
    ]);
  });

  it('keeps a sample that breaks across lines inside its finding (seen once in CI)', () => {
    const csv = [
      'issue, severity, confidence, filename, location, sample, description, url',
      `CSP_GLOBAL_CHECK,"LOW","FIRM","/tmp/e4/index.html","8:0","de`,
      `fault-src 'self'; form-action 'none'","One or more CSP directives detected seems to be vulnerable",https://example`,
    ].join('\n');
    expect(parseFindings(csv)).toEqual([
      { issue: 'CSP_GLOBAL_CHECK', severity: 'LOW', location: '/tmp/e4/index.html:8:0', description: 'One or more CSP directives detected seems to be vulnerable' },
    ]);
  });

  it('finds nothing in a report with only its header', () => {
    expect(parseFindings('issue, severity, confidence, filename, location, sample, description, url\n')).toEqual([]);
  });
});
