import {docRoutes} from './support/docs';
import {expect, openPage, test} from './support/fixtures';
import {expectNoSeriousAxeViolations, seriousAxeViolations} from './support/axe';

// On a phone too (Lighthouse's mobile run is one): narrow layouts overflow code and tables sideways and
// skip rendering far content, which changes what axe can see of colours and backgrounds. A mode's colours are
// the same at any width, so the phone's layout is checked in one mode.
for (const mode of ['light', 'dark'] as const) {
  test.describe(`accessibility in ${mode} mode`, {tag: mode === 'dark' ? '@desktop-only' : []}, () => {
    // axe walks every node of the longest reference pages: give it room on a busy 2-core machine.
    test.describe.configure({timeout: 120_000});
    for (const route of docRoutes()) {
      test(`${route} has no serious or critical axe violations`, async ({page}) => {
        await expectNoSeriousAxeViolations(page, route, mode);
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
  for (const route of docRoutes()) {
    test(`${route}: every id is unique, and every url(#id) an inline SVG uses resolves inside that SVG`, async ({
      page,
    }) => {
      await openPage(page, route);
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
                if (!svg.querySelector(`[id="${id}"]`))
                  found.push(`${attribute.name}="${attribute.value}" points outside its <svg>`);
              }
            }
          }
        }
        return found;
      });
      expect(problems, route).toEqual([]);
    });
  }
});
