import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {expect, test} from '@playwright/test';

import {dropNotFoundOwnUrl, NOT_FOUND_FILE, withoutOwnUrl} from './not-found-head';

const SITE = 'https://docs.example.com';

test.describe('the not-found page names no URL of its own', () => {
  // As the theme writes them (minified, unquoted), and in other spellings a head may use.
  const dropped = [
    `<link data-rh=true rel=canonical href=${SITE}/404.html>`,
    `<link rel="canonical" href="${SITE}/404.html" data-rh="true">`,
    `<LINK HREF='${SITE}/404.html' REL='Canonical'>`,
    `<link data-rh=true rel=alternate href=${SITE}/404.html hreflang=en>`,
    `<link hreflang="x-default" href="${SITE}/404.html" rel="alternate">`,
    `<meta data-rh=true property=og:url content=${SITE}/404.html>`,
    `<meta content="${SITE}/404.html" property="og:url">`,
  ];
  const kept = [
    '<link data-rh=true rel=icon href=/img/favicon.svg>',
    '<link rel=alternate type=application/rss+xml href=/feed.xml>',
    '<link rel=stylesheet href=/assets/css/styles.0123abcd.css>',
    `<link data-rel=canonical href=${SITE}/404.html>`,
    '<meta data-rh=true property=og:title content=Docs>',
    `<meta data-property=og:url content=${SITE}/404.html>`,
    '<meta name=description content="rel=canonical property=og:url">',
    '<meta name="description" content="see rel=alternate hreflang=en or property=og:url here">',
  ];
  // Each tag of `dropped` and none of `kept` goes: the rewritten file shows which one did not.
  test('rewrites 404.html in place, every other tag and file as it was, no file left behind', async () => {
    const outDir = test.info().outputPath('build');
    await mkdir(outDir, {recursive: true});
    const page = (head: string) =>
      `<!doctype html><html lang=en><head>${head}</head><body><p>Not found</p></body></html>`;
    await writeFile(path.join(outDir, NOT_FOUND_FILE), page([...dropped, ...kept].join('')));
    await writeFile(path.join(outDir, 'index.html'), page(dropped.join('')));
    await dropNotFoundOwnUrl(outDir);
    expect(await readFile(path.join(outDir, NOT_FOUND_FILE), 'utf8')).toBe(page(kept.join('')));
    expect(withoutOwnUrl(page(dropped.join('')))).toBe(page(''));
    expect(await readFile(path.join(outDir, 'index.html'), 'utf8')).toBe(page(dropped.join('')));
    expect((await readdir(outDir)).sort()).toEqual([NOT_FOUND_FILE, 'index.html']);
  });
});
