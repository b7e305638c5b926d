import { describe, expect, it } from 'vitest';
import { checkServiceBaseUrl, isLoopbackHost } from './connection-url.ts';

describe('checkServiceBaseUrl', () => {
  it('accepts https and loopback http, trimmed and without trailing slashes', () => {
    expect(checkServiceBaseUrl(' https://records.example.com/ ')).toEqual({ ok: true, baseUrl: 'https://records.example.com' });
    expect(checkServiceBaseUrl('https://records.example.com/api/v/')).toEqual({ ok: true, baseUrl: 'https://records.example.com/api/v' });
    for (const url of ['http://127.0.0.1:8080', 'http://127.1.2.3', 'http://localhost:3000/', 'http://[::1]:9']) {
      expect(checkServiceBaseUrl(url).ok, url).toBe(true);
    }
  });

  it.each([
    ['http://user:pass@127.0.0.1:9/', /user name or password/, false],
    ['https://token@records.example.com', /user name or password/, false],
    ['https://records.example.com/?a=1', /query string/, false],
    ['https://records.example.com/?', /query string/, false],
    ['https://records.example.com/#x', /fragment/, false],
    ['https://records.example.com/#', /fragment/, false],
    ['ftp://records.example.com', /must start with https:\/\//, false],
    ['file:///etc/passwd', /must start with https:\/\//, false],
    ['not a url', /not a web address/, false],
    ['', /Enter the service/, false],
    [`https://records.example.com/${'a'.repeat(2100)}`, /longer than 2048/, false],
    ['http://records.example.com', /unencrypted/, true],
    ['http://10.0.0.5:8080', /unencrypted/, true],
    ['http://127.0.0.1.nip.io', /unencrypted/, true],
  ])('refuses %s', (url, problem, needsInsecureConsent) => {
    const check = checkServiceBaseUrl(url);
    expect(check).toMatchObject({ ok: false, problem: expect.stringMatching(problem), needsInsecureConsent });
  });

  it('accepts plain http to another computer only with allowInsecure, and never credentials with it', () => {
    expect(checkServiceBaseUrl('http://records.example.com', { allowInsecure: true })).toEqual({ ok: true, baseUrl: 'http://records.example.com' });
    expect(checkServiceBaseUrl('http://u:p@records.example.com', { allowInsecure: true })).toMatchObject({ ok: false, needsInsecureConsent: false });
  });

  it('knows loopback hosts', () => {
    expect(['localhost', 'api.localhost', '127.0.0.1', '127.255.0.9', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['128.0.0.1', 'example.com', '127.0.0.1.example.com', '[::2]', '0.0.0.0'].some(isLoopbackHost)).toBe(false);
  });
});
