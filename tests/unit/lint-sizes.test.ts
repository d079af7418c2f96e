// The size rules of eslint.config.js (README, "House rules"), applied as `npm run lint` applies them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import config from '../../eslint.config.js';

/** A function whose body holds `lines` statements, with as many blank and comment lines between them. */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines }, (_, index) => `  total += ${index};\n\n  // step ${index}\n`).join('');
  return `export function long(): number {\n  let total = 0;\n${body}  return total;\n}\n`;
}

/**
 * The project's size rules, lint-ready: its config's block that sets them, with TypeScript's parser and no type
 * information, which these rules do not need (so the test need not build the project's program).
 */
const sizeLint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    ...config.filter((block) => block.rules?.['max-lines-per-function'] !== undefined),
  ],
});

async function sizeProblems(text: string, filePath: string): Promise<string[]> {
  const [result] = await sizeLint.lintText(text, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

test('lint refuses a function of more than 80 lines in src/ and scripts/, blank lines and comments not counted', async () => {
  // The function's own lines are its signature, `let`, `return` and the closing brace besides the statements.
  const fits = functionOf(76);
  const tooLong = functionOf(77);
  for (const filePath of ['src/server/size-rule-example.ts', 'scripts/size-rule-example.ts']) {
    assert.deepEqual(await sizeProblems(tooLong, filePath.replace(/^\w+/, 'elsewhere')), [], 'the rule holds in src/ and scripts/ only');
    assert.deepEqual(await sizeProblems(fits, filePath), [], `${filePath}: 80 lines pass`);
    const problems = await sizeProblems(tooLong, filePath);
    assert.equal(problems.length, 1, filePath);
    assert.match(problems[0] ?? '', /too many lines \(81\)\. Maximum allowed is 80/);
  }
});

test('lint refuses a file of more than 400 lines in src/', async () => {
  const small = (index: number) => `export function part${index}(): number {\n  return ${index};\n}\n\n`;
  const file = (functions: number) => Array.from({ length: functions }, (_, index) => small(index)).join('');
  // Each function is three counted lines: 133 make 399, 134 make 402.
  assert.deepEqual(await sizeProblems(file(133), 'src/server/size-rule-example.ts'), []);
  assert.match(
    (await sizeProblems(file(134), 'src/server/size-rule-example.ts')).join('\n'),
    /File has too many lines \(402\)\. Maximum allowed is 400/,
  );
});
