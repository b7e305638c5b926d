import { defineConfig } from '@playwright/test';
import { CHROMIUM_QUIET_ARGS } from './electron/core/reports/chromium-printer.ts';

// Debian's Chromium, never a downloaded browser, with the printer's quiet flags (without the
// background-networking ones Chromium keeps dialling hosts this network refuses).
const chromiumPath = process.env.PLAT_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: CHROMIUM_QUIET_ARGS,
    },
  },
  projects: [{ name: 'browser-host', use: { browserName: 'chromium' } }],
});
