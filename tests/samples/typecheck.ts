/**
 * Type-checks the Node samples against sdk/index.d.ts: per page, its TypeScript `sdk` and `run` blocks as one strict
 * module and its JavaScript ones as one checked .mjs, in page order. Plain JavaScript cannot annotate types, so the
 * .mjs check leaves strictNullChecks and noImplicitAny off; wrong names, methods and parameters fail either way.
 */
import {mkdtempSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import ts from 'typescript';

import {ROOT, type Block} from './blocks';

type Unit = {file: string; blocks: {block: Block; firstLine: number}[]};

const EXTENSIONS: Record<string, 'ts' | 'mjs'> = {ts: 'ts', typescript: 'ts', js: 'mjs', javascript: 'mjs', mjs: 'mjs'};

function units(blocks: readonly Block[], dir: string): {typescript: Unit[]; javascript: Unit[]} {
  const units = {typescript: [] as Unit[], javascript: [] as Unit[]};
  [...new Set(blocks.map((block) => block.page))].forEach((page, index) => {
    for (const extension of ['ts', 'mjs'] as const) {
      const selected = blocks.filter(
        (block) =>
          block.page === page &&
          EXTENSIONS[block.language] === extension &&
          ['sdk', 'run'].includes(block.classification.kind),
      );
      if (selected.length === 0) continue;
      const file = path.join(dir, `unit-${index}.${extension}`);
      let line = 0;
      const placed = selected.map((block) => {
        const firstLine = line;
        line += block.code.split('\n').length + 1;
        return {block, firstLine};
      });
      writeFileSync(file, `${selected.map((block) => block.code).join('\n\n')}\n`);
      units[extension === 'ts' ? 'typescript' : 'javascript'].push({file, blocks: placed});
    }
  });
  return units;
}

function check(files: Unit[], javascript: boolean): string[] {
  if (files.length === 0) {
    return [];
  }
  const program = ts.createProgram(
    files.map((unit) => unit.file),
    {
      strict: true,
      strictNullChecks: !javascript,
      noImplicitAny: !javascript,
      noEmit: true,
      allowJs: javascript,
      checkJs: javascript,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      moduleDetection: ts.ModuleDetectionKind.Force,
      // The DOM's fetch types, as a reader's editor has them (`response.json()` is `any`, not `unknown`).
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      paths: {'@acme-connect/sdk': [path.join(ROOT, 'sdk', 'index.d.ts')]},
      skipLibCheck: true,
    },
  );
  return ts.getPreEmitDiagnostics(program).flatMap((diagnostic) => {
    const unit = files.find((candidate) => candidate.file === diagnostic.file?.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!unit || diagnostic.start === undefined) {
      return [`TS${diagnostic.code}: ${message}`];
    }
    const {line} = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    const placed = [...unit.blocks].reverse().find((candidate) => candidate.firstLine <= line)!;
    const pageLine = placed.block.line + 1 + (line - placed.firstLine);
    return [`${placed.block.page}:${pageLine} (${placed.block.language}): TS${diagnostic.code} ${message}`];
  });
}

/** Problems, one line each naming the page line; none when every Node sample type-checks. */
export function typeCheckSamples(blocks: readonly Block[]): {problems: string[]; checked: number} {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'doc-typecheck-'));
  const {typescript, javascript} = units(blocks, dir);
  const checked = [...typescript, ...javascript].reduce((sum, unit) => sum + unit.blocks.length, 0);
  return {problems: [...check(typescript, false), ...check(javascript, true)], checked};
}
