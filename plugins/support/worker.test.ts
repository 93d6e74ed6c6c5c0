import path from 'node:path';
import {threadId} from 'node:worker_threads';

import {test, expect} from '@playwright/test';

import {runInWorker} from './worker';

const FIXTURE = path.join(__dirname, 'fixtures', 'work.ts');

test.describe('runInWorker', () => {
  test('runs a TypeScript module’s export in another thread and returns its result, Maps included', async () => {
    const result = await runInWorker<{byWord: Map<string, number>; threadId: number}>(FIXTURE, 'lengths', [['esim', 'iccid']]);
    expect(result.byWord).toEqual(new Map([['esim', 4], ['iccid', 5]]));
    expect(result.threadId).not.toBe(threadId);
  });

  test('rejects with the error thrown in the worker', async () => {
    await expect(runInWorker(FIXTURE, 'fail', ['conversion failed: no paths'])).rejects.toThrow(/fail \(in a worker thread\) failed: Error: conversion failed: no paths/);
  });

  test('rejects when the export is missing or not a function, or the module cannot load', async () => {
    await expect(runInWorker(FIXTURE, 'notAFunction')).rejects.toThrow(/exports no function notAFunction/);
    await expect(runInWorker(path.join(__dirname, 'fixtures', 'missing.ts'), 'lengths')).rejects.toThrow(/Cannot find module/);
  });
});
