/** Converts doc sources to Markdown bodies (kept light: a production build loads it in a worker thread). */
import {readFile} from 'node:fs/promises';

import type {ContractData} from '../../lib/contract/data';
import {mdxToMarkdown} from './markdown';

/** What converting needs, as plain data (it crosses to the worker thread). */
export type ConvertJob = {
  /** Every doc, in output order: absolute source path and site path (with the base URL). */
  pages: ReadonlyArray<{sourcePath: string; permalink: string}>;
  siteUrl: string;
  baseUrl: string;
  siteDir: string;
  /** Absolute paths of the static directories. */
  staticDirs: string[];
  /** The served contract's facts that components render (plugins/api-reference). */
  contract: ContractData;
};

/** The Markdown body of each page of the job, in the same order. */
export async function convertPages(job: ConvertJob): Promise<string[]> {
  const url = (sitePath: string) => new URL(sitePath, job.siteUrl).href;
  const permalinkBySource = new Map(job.pages.map((page) => [page.sourcePath, page.permalink]));
  return Promise.all(
    job.pages.map(async (page) =>
      mdxToMarkdown(await readFile(page.sourcePath, 'utf8'), {
        sourcePath: page.sourcePath,
        pageUrl: url(page.permalink),
        siteRootUrl: url(job.baseUrl),
        resolveDocPermalink: (file) => permalinkBySource.get(file),
        siteDir: job.siteDir,
        staticDirs: job.staticDirs,
        contract: job.contract,
      }),
    ),
  );
}
