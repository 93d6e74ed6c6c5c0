import {test, expect} from '@playwright/test';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

import {SITE} from '../../src/constants/site';
import {DEFAULT_OPTIONS, validateOptions, type Options, type PluginOptions} from './options';
import {absoluteUrl, robotsTxt} from './index';

const normalize = normalizePluginOptions as unknown as OptionValidationContext<Options, PluginOptions>['validate'];
const validate = (options: Options | Record<string, unknown>) => validateOptions({validate: normalize, options: options as Options});

test.describe('seo plugin', () => {
  test('fills in the defaults and rejects bad values', () => {
    expect(validate({})).toEqual({...DEFAULT_OPTIONS, id: 'default'});
    expect(() => validate({sitemapFilename: '../x.xml'})).toThrow(/sitemapFilename/);
    expect(() => validate({disallow: ['search']})).toThrow(/disallow/);
  });

  test('robots.txt allows everything and names the absolute sitemap URL from SITE.url', () => {
    const text = robotsTxt({siteUrl: SITE.url, baseUrl: SITE.baseUrl}, validate({}));
    expect(text).toBe(`User-agent: *\nDisallow:\n\nSitemap: ${SITE.url}/sitemap.xml\n`);
  });

  test('follows another site URL, base URL and disallow list', () => {
    expect(absoluteUrl('https://x.test/', '/docs/', 'sitemap.xml')).toBe('https://x.test/docs/sitemap.xml');
    const text = robotsTxt({siteUrl: 'https://x.test', baseUrl: '/docs/'}, validate({disallow: ['/docs/search']}));
    expect(text).toContain('Disallow: /docs/search\n');
    expect(text).toContain('Sitemap: https://x.test/docs/sitemap.xml');
  });
});
