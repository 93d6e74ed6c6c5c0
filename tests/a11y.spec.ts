import {ALL_DOCS} from '../src/constants/docs';
import {expect, openPage, test} from './support/fixtures';
import {expectNoSeriousAxeViolations, seriousAxeViolations} from './support/axe';

for (const mode of ['light', 'dark'] as const) {
  test.describe(`accessibility in ${mode} mode`, () => {
    // axe walks every node of the longest reference pages: give it room on a busy 2-core machine.
    test.describe.configure({timeout: 120_000});
    for (const doc of ALL_DOCS) {
      test(`${doc.path} has no serious or critical axe violations`, async ({page}) => {
        await expectNoSeriousAxeViolations(page, doc.path, mode);
      });
    }
  });
}

test.describe('not-found page', () => {
  test.use({allowedConsoleErrors: /status of 404/});
  test('has no serious or critical axe violations', async ({page}) => {
    await openPage(page, '/no-such-page');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

test.describe('ids', () => {
  test('every id is unique on every page, and every url(#id) an inline SVG uses resolves inside that SVG', async ({page}) => {
    for (const doc of ALL_DOCS) {
      await openPage(page, doc.path);
      const problems = await page.evaluate(() => {
        const found: string[] = [];
        const seen = new Set<string>();
        for (const element of Array.from(document.querySelectorAll('[id]'))) {
          if (seen.has(element.id)) found.push(`duplicate id "${element.id}"`);
          seen.add(element.id);
        }
        for (const svg of Array.from(document.querySelectorAll('svg'))) {
          for (const element of Array.from(svg.querySelectorAll('*'))) {
            for (const attribute of Array.from(element.attributes)) {
              for (const [, id] of attribute.value.matchAll(/url\(#([^)]+)\)/g)) {
                if (!svg.querySelector(`[id="${id}"]`)) found.push(`${attribute.name}="${attribute.value}" points outside its <svg>`);
              }
            }
          }
        }
        return found;
      });
      expect(problems, doc.path).toEqual([]);
    }
  });
});
