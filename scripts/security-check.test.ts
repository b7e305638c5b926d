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
  it('finds nothing in a report with only its header', () => {
    expect(parseFindings('issue, severity, confidence, filename, location, sample, description, url\n')).toEqual([]);
  });
});
