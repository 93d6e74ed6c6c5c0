/**
 * A Node.js binary of the minimum version the pages state (SDK.nodeVersion), so the JavaScript
 * samples really run on it. Node publishes its binaries on the npm registry as `node-<os>-<arch>`
 * packages; `npm pack` fetches the pinned one once into node_modules/.cache.
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, renameSync, rmSync} from 'node:fs';
import path from 'node:path';

import {SDK} from '../../src/constants/api';
import {ROOT} from './blocks';

/** The exact release run for the stated minimum (the last of its major line). */
export const MINIMUM_NODE_RELEASE = '18.20.8';

/** Path to a `node` of the minimum version, downloading it on first use. */
export function minimumNodeBinary(): string {
  if (MINIMUM_NODE_RELEASE.split('.')[0] !== SDK.nodeVersion) {
    throw new Error(
      `The pages state Node.js ${SDK.nodeVersion} as the minimum, but the doc tests pin ${MINIMUM_NODE_RELEASE}: update MINIMUM_NODE_RELEASE.`,
    );
  }
  const packageName = `node-${process.platform}-${process.arch}`;
  const dir = path.join(ROOT, 'node_modules', '.cache', `${packageName}-${MINIMUM_NODE_RELEASE}`);
  const binary = path.join(dir, 'package', 'bin', 'node');
  if (!existsSync(binary)) {
    // Unpacked beside the cache, then moved in whole: two doc-test runs that start together never see half of it.
    mkdirSync(path.dirname(dir), {recursive: true});
    const staging = mkdtempSync(`${dir}.unpacking-`);
    const tarball = execFileSync(
      'npm',
      ['pack', `${packageName}@${MINIMUM_NODE_RELEASE}`, '--silent', '--pack-destination', staging],
      {cwd: staging, encoding: 'utf8'},
    )
      .trim()
      .split('\n')
      .at(-1)!;
    execFileSync('tar', ['-xzf', path.join(staging, tarball), '-C', staging]);
    if (!existsSync(binary)) rmSync(dir, {recursive: true, force: true});
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another run moved its copy in first: use that one.
      if (!existsSync(binary)) throw error;
      rmSync(staging, {recursive: true, force: true});
    }
  }
  const version = execFileSync(binary, ['--version'], {encoding: 'utf8'}).trim();
  if (version !== `v${MINIMUM_NODE_RELEASE}`) {
    throw new Error(`${binary} reports ${version}, expected v${MINIMUM_NODE_RELEASE}`);
  }
  return binary;
}
