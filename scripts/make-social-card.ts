/**
 * Renders static/img/social-card.png (1200×630, the Open Graph / Twitter card image) from the
 * brand and tagline in src/constants/site.ts and the logo in static/img/logo.svg, with Chromium.
 * Run it after changing the brand or tagline: `npm run make:social-card`; commit the PNG.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {chromium} from '@playwright/test';

import {launchOptions} from '../playwright.config';
import {BRAND, SITE} from '../src/constants/site';

export const SOCIAL_CARD = {width: 1200, height: 630, file: 'static/img/social-card.png'} as const;

const root = path.resolve(__dirname, '..');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function cardHtml(): string {
  const logo = readFileSync(path.join(root, 'static/img/logo.svg'), 'utf8');
  const host = new URL(SITE.url).host;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
  html, body { margin: 0; width: ${SOCIAL_CARD.width}px; height: ${SOCIAL_CARD.height}px; }
  body { box-sizing: border-box; padding: 88px 96px; display: flex; flex-direction: column; justify-content: space-between;
    font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; color: #fff;
    background: radial-gradient(circle at 85% 15%, #2f7bff 0, transparent 45%), linear-gradient(135deg, #0042b3 0%, #0b1f4d 100%); }
  .brand { display: flex; align-items: center; gap: 32px; }
  .brand svg { width: 120px; height: 120px; filter: drop-shadow(0 8px 24px rgba(0,0,0,.35)); }
  h1 { font-size: 84px; line-height: 1; margin: 0; letter-spacing: -1px; }
  p { font-size: 46px; line-height: 1.25; margin: 0; max-width: 960px; color: #dbe7ff; }
  footer { display: flex; justify-content: space-between; font-size: 30px; color: #a9c3ff; }
  </style></head><body>
  <div class="brand">${logo}<h1>${escapeHtml(BRAND)}</h1></div>
  <p>${escapeHtml(SITE.tagline)}</p>
  <footer><span>Developer documentation</span><span>${escapeHtml(host)}</span></footer>
  </body></html>`;
}

async function main(): Promise<void> {
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage({
      viewport: {width: SOCIAL_CARD.width, height: SOCIAL_CARD.height},
      deviceScaleFactor: 1,
    });
    await page.setContent(cardHtml(), {waitUntil: 'load'});
    const target = path.join(root, SOCIAL_CARD.file);
    await page.screenshot({path: target, type: 'png'});
    console.log(`wrote ${path.relative(process.cwd(), target)} (${SOCIAL_CARD.width}×${SOCIAL_CARD.height})`);
  } finally {
    await browser.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
