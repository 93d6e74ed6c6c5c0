// transpileModule, not the bundler: the script must stay out of the main bundle.
import {createHash} from 'node:crypto';
import {readFile} from 'node:fs/promises';
import path from 'node:path';

export const SCRIPT_SOURCE = path.join(__dirname, 'script.ts');

export type CompiledScript = {code: string; hash: string};

export async function compileScript(): Promise<CompiledScript> {
  const ts = await import('typescript');
  const source = await readFile(SCRIPT_SOURCE, 'utf8');
  const {outputText} = ts.transpileModule(source, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2017,
      module: ts.ModuleKind.CommonJS,
      removeComments: true,
      sourceMap: false,
    },
  });
  const body = outputText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//# sourceMappingURL'))
    .join('\n');
  const code = `!function(exports){${body}\n}({});\n`;
  return {code, hash: createHash('sha256').update(code).digest('hex').slice(0, 10)};
}
