import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl } from './url-guard.ts';

describe('isSafeExternalUrl', () => {
  it('allows plain https links', () => {
    expect(isSafeExternalUrl('https://otr.cfo.dc.gov/page/real-property-tax')).toBe(true);
  });
  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://host/share',
    'app://plat/index.html',
    'https://user:secret@example.com/',
    'not a url',
    `https://example.com/${'a'.repeat(3000)}`,
  ])('refuses %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });
});

describe('isAppUrl', () => {
  it('recognises the app origin only', () => {
    expect(isAppUrl('app://plat/index.html')).toBe(true);
    expect(isAppUrl('app://evil/index.html')).toBe(false);
    expect(isAppUrl('https://plat/')).toBe(false);
    expect(isAppUrl('')).toBe(false);
  });
});
