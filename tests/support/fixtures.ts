import {test as base, expect, type Page, type Response} from '@playwright/test';

type Fixtures = {
  /** Console messages matching this are expected by the test (e.g. a simulated crash). */
  allowedConsoleErrors: RegExp | undefined;
};

export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [undefined, {option: true}],
  // A test's page fails it on any console error or uncaught page error not explicitly allowed. A test that asks for
  // no page (Node only: the request fixture, files, processes) opens none.
  page: async ({page, allowedConsoleErrors}, use) => {
    const problems: string[] = [];
    const isAllowed = (text: string) => allowedConsoleErrors?.test(text) ?? false;
    page.on('console', (message) => {
      if (message.type() === 'error' && !isAllowed(message.text())) {
        problems.push(`console.error: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => {
      if (!isAllowed(error.message)) {
        problems.push(`pageerror: ${error.message}`);
      }
    });
    await use(page);
    expect(problems, 'console errors and uncaught page errors').toEqual([]);
  },
});

export {expect};

/**
 * Waits until React has hydrated the server-rendered page: the one way tests wait for it (after a
 * goto, a reload or a recovery), so no test guesses with a sleep or a selector of its own.
 */
export async function waitForHydration(page: Page): Promise<void> {
  // No timeout of its own: a long page hydrates late on a busy machine; the test's timeout bounds the wait.
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true', {timeout: 0});
}

/** Opens a path and waits for hydration; returns the document's response (for its status). */
export async function openPage(page: Page, path: string): Promise<Response | null> {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}
