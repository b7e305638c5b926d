/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { connectBridge } from '../electron/host/bridge-client.ts';

test.describe('app shell in the browser host', () => {
  test('opens, names its service, and exposes only the contract on window.plat', async ({ page, host, shot }) => {
    await page.goto(host.url);
    await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
    await expect(page.getByTestId('service-label')).toHaveText('Local sample service');
    await expect(page.locator('.status-line__dot--ready')).toBeVisible();

    const globals = await page.evaluate(() => ({
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(globals).toEqual({ require: 'undefined', process: 'undefined' });

    const api = await page.evaluate(() => {
      const plat = (window as unknown as { plat: Record<string, unknown> }).plat;
      return {
        frozen: Object.isFrozen(plat),
        members: Object.entries(plat).map(([name, value]) => [name, typeof value]),
      };
    });
    expect(api.frozen).toBe(true);
    expect(api.members.length).toBeGreaterThan(0);
    for (const [name, type] of api.members) {
      expect(type, `window.plat.${name}`).toBe('function');
      expect(name).toMatch(/^[a-z][A-Za-z]+$/);
    }
    expect(api.members.map(([name]) => name)).toContain('getAppInfo');
    expect(api.members.map(([name]) => name)).not.toContain('invoke');

    // The token leaves the address bar once read.
    expect(page.url()).not.toContain('token=');
    await shot('app-shell');
  });

  test('enforces the CSP: an injected inline script does not run', async ({ page, host }) => {
    const response = await page.goto(host.url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (directive: string) => violations.push(directive));
    const ran = await page.evaluate(async () => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation: (d: string) => void }).reportViolation(event.effectiveDirective),
      );
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.appendChild(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations).toContain('script-src-elem');
  });

  test('refuses the bridge socket without the token or from another origin', async ({ host }) => {
    const noToken = connectBridge({ origin: host.origin, token: 'x'.repeat(43) });
    expect(await noToken.api.getAppInfo({})).toMatchObject({ ok: false, error: { code: 'network_error' } });
    noToken.close();
    const otherOrigin = connectBridge(host, { origin: 'http://evil.example' });
    expect(await otherOrigin.api.getAppInfo({})).toMatchObject({ ok: false, error: { code: 'network_error' } });
    otherOrigin.close();
    const good = connectBridge(host);
    expect(await good.api.getAppInfo({})).toMatchObject({ ok: true, value: { runtime: 'browser-host' } });
    good.close();
  });

  test('navigates between views with the keyboard', async ({ page, host }) => {
    await page.goto(host.url);
    await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
    await page.keyboard.press('Control+3');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalog');
    await page.keyboard.press('Control+9');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
  });
});

test('the shell has no serious accessibility violations', async ({ page, host }) => {
  const { expectAccessible } = await import('./accessibility.ts');
  await page.goto(host.url);
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
  await expectAccessible(page, 'the app shell');
});
