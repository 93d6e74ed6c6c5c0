import {expect, openPage, test} from './support/fixtures';

// prism-react-renderer's vsDark: plain text #9CDCFE on #1E1E1E.
const VS_DARK_BACKGROUND = 'rgb(30, 30, 30)';

test.describe('code blocks', () => {
  for (const mode of ['light', 'dark'] as const) {
    test(`use the vsDark theme in ${mode} mode, with a copy button`, async ({page}) => {
      await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
      await openPage(page, '/getting-started/quick-start');
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      const block = page.locator('.theme-code-block').first();
      await expect(block).toBeVisible();
      const background = await block.locator('pre').evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(background).toBe(VS_DARK_BACKGROUND);
      await block.hover();
      await expect(block.getByRole('button', {name: /copy code/i})).toBeVisible();
    });
  }

  test('bash, json, typescript and python are highlighted (tokens, not plain text)', async ({page}) => {
    const pages = ['/getting-started/quick-start', '/basics/sdk', '/getting-started/authentication'];
    const seen = new Set<string>();
    for (const path of pages) {
      await openPage(page, path);
      const languages = await page.locator('pre.prism-code').evaluateAll((blocks) =>
        blocks
          .filter((block) => block.querySelector('.token:not(.plain)'))
          .map((block) => /language-(\w+)/.exec(block.className)?.[1] ?? ''),
      );
      languages.forEach((language) => seen.add(language));
    }
    for (const language of ['bash', 'json', 'python']) {
      expect(seen, `highlighted ${language}`).toContain(language);
    }
    expect([...seen].some((language) => language === 'ts' || language === 'typescript' || language === 'js')).toBe(true);
  });

  test('the copy button copies the code', async ({page, context}) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openPage(page, '/getting-started/quick-start');
    const block = page.locator('.theme-code-block').first();
    await block.hover();
    await block.getByRole('button', {name: /copy code/i}).click();
    await expect(block.getByRole('button', {name: /copied/i})).toBeVisible();
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    const code = await block.locator('code').innerText();
    const lines = (text: string) => text.split('\n').map((line) => line.trimEnd()).filter(Boolean);
    expect(lines(clipboard)).toEqual(lines(code));
  });

  test('line highlighting is available (a highlighted line is styled)', async ({page}) => {
    await openPage(page, '/getting-started/quick-start');
    const highlighted = page.locator('.theme-code-block-highlighted-line').first();
    await expect(highlighted).toBeVisible();
  });
});
