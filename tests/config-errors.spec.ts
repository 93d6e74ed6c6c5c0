/**
 * Spec §8's configuration rows: each deliberately broken copy of a minimal site config is built
 * in a temporary folder with the real Docusaurus CLI, and the build must fail with the message
 * that tells the owner what to fix.
 */
import {spawn} from 'node:child_process';
import {mkdtemp, mkdir, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {expect, test} from '@playwright/test';

const projectRoot = path.resolve(__dirname, '..');

/** Writes a one-doc site whose navbar holds `item` into a new temporary folder. */
async function writeBrokenSite(item: Record<string, string>): Promise<string> {
  const siteDir = await mkdtemp(path.join(tmpdir(), 'broken-config-'));
  await mkdir(path.join(siteDir, 'docs'));
  await symlink(path.join(projectRoot, 'node_modules'), path.join(siteDir, 'node_modules'), 'dir');
  await writeFile(path.join(siteDir, 'docs', 'intro.md'), '# Intro\n\nThe only doc of a deliberately broken site.\n');
  await writeFile(path.join(siteDir, 'sidebars.js'), "module.exports = {mainSidebar: ['intro'], emptySidebar: []};\n");
  await writeFile(
    path.join(siteDir, 'docusaurus.config.js'),
    `module.exports = {
  // Rspack, as the site itself builds: the same messages in a fraction of webpack's time.
  future: {experimental_faster: true},
  title: 'Broken', url: 'https://example.com', baseUrl: '/',
  presets: [['classic', {docs: {routeBasePath: '/', sidebarPath: require.resolve('./sidebars.js')}, blog: false, pages: false, sitemap: false}]],
  themeConfig: {navbar: {items: [${JSON.stringify(item)}]}},
};
`,
  );
  return siteDir;
}

async function buildWithNavbarItem(item: Record<string, string>): Promise<{code: number | null; output: string}> {
  const siteDir = await writeBrokenSite(item);
  try {
    return await new Promise((resolve) => {
      const child = spawn('npx', ['docusaurus', 'build', '--no-minify'], {
        cwd: siteDir,
        env: {...process.env, NO_UPDATE_NOTIFIER: '1', NODE_ENV: 'production'},
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('close', (code) => resolve({code, output}));
    });
  } finally {
    await rm(siteDir, {recursive: true, force: true});
  }
}

// Builds only, no browser: run once.
test.describe(
  'broken configurations fail the build with a helpful message (spec §8)',
  {tag: '@viewport-independent'},
  () => {
    test.describe.configure({timeout: 240_000});

    test('an unknown navbar item type: "No NavbarItem component found for type"', async () => {
      const {code, output} = await buildWithNavbarItem({type: 'custom-doesNotExist', position: 'right'});
      expect(code).not.toBe(0);
      expect(output).toContain('No NavbarItem component found for type "custom-doesNotExist"');
    });

    test('a docs-sidebar navbar item whose sidebar has nothing to link to', async () => {
      const {code, output} = await buildWithNavbarItem({type: 'docSidebar', sidebarId: 'emptySidebar', label: 'Docs'});
      expect(code).not.toBe(0);
      expect(output).toContain('Sidebar with ID "emptySidebar" doesn\'t have anything to be linked to');
    });

    test('a missing doc id lists the available doc ids', async () => {
      const {code, output} = await buildWithNavbarItem({type: 'doc', docId: 'no-such-doc', label: 'Docs'});
      expect(code).not.toBe(0);
      expect(output).toMatch(/couldn't find any doc with id "no-such-doc"[\s\S]*Available doc ids are:[\s\S]*- intro/i);
    });

    test('a missing sidebar id lists the available sidebar ids', async () => {
      const {code, output} = await buildWithNavbarItem({type: 'docSidebar', sidebarId: 'noSuchSidebar', label: 'Docs'});
      expect(code).not.toBe(0);
      expect(output).toMatch(/noSuchSidebar[\s\S]*(Available sidebar ids are|available)[\s\S]*mainSidebar/i);
    });

    test('a navbar item type the theme does not know is rejected by config validation', async () => {
      const {code, output} = await buildWithNavbarItem({type: 'doesNotExist', position: 'right'});
      expect(code).not.toBe(0);
      expect(output).toContain('Bad navbar item type doesNotExist');
    });
  },
);

// The site owner's dev server, read on the owner's desktop (and a dev-server start is slow).
test.describe('a navbar item that fails to render in the browser (spec §8)', {tag: '@desktop-only'}, () => {
  test.describe.configure({timeout: 240_000});

  // Server rendering stops at the first failing item (see above); in the browser the theme's error
  // boundary names the item. The dev server renders client-side only, so it shows that message.
  test('tells the owner to double-check the navbar items configuration', async ({page}) => {
    const siteDir = await writeBrokenSite({type: 'custom-doesNotExist', position: 'right'});
    const port = 3190 + test.info().workerIndex;
    const server = spawn('npx', ['docusaurus', 'start', '--host', '127.0.0.1', '--port', String(port), '--no-open'], {
      cwd: siteDir,
      env: {...process.env, NO_UPDATE_NOTIFIER: '1', BROWSER: 'none'},
      detached: true,
    });
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.status, {timeout: 180_000})
        .toBe(200);
      await page.goto(`http://127.0.0.1:${port}/`);
      const crash = page.getByText('A theme navbar item failed to render.');
      await expect(crash).toBeVisible({timeout: 60_000});
      await expect(
        page.getByText(/Please double-check the following navbar item \(themeConfig\.navbar\.items\)/),
      ).toBeVisible();
      await expect(
        page.getByText('No NavbarItem component found for type "custom-doesNotExist"').first(),
      ).toBeVisible();
    } finally {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
      await rm(siteDir, {recursive: true, force: true});
    }
  });
});
