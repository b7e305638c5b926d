// axe-core over the current page: no serious or critical violations on any view (or, with
// `every`, no violation of any impact: the per-view sweep holds the app to that).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export async function expectAccessible(page: Page, context: string, options: { every?: boolean } = {}): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const found = results.violations
    .filter((violation) => options.every === true || violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  expect(found, `axe violations on ${context}`).toEqual([]);
}
