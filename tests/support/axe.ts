import AxeBuilder from '@axe-core/playwright';
import type {Page} from '@playwright/test';
import {expect, openPage} from './fixtures';

export type ColourMode = 'light' | 'dark';

/** The serious and critical axe violations on the open page, each with the elements it names. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({page}).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Opens a page in a colour mode and expects no serious or critical axe violation on it. */
export async function expectNoSeriousAxeViolations(page: Page, path: string, mode: ColourMode): Promise<void> {
  await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
  await openPage(page, path);
  await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
  expect(await seriousAxeViolations(page)).toEqual([]);
}
