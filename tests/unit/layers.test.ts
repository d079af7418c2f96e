import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';

/**
 * The layer rules of eslint.config.js, run the way `npm run lint` runs them:
 * a real module of each layer, with one more import added.
 */
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function layerErrors(file: string, extraImport: string): Promise<string[]> {
  const source = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
  // An Astro component imports in its front matter, after the opening fence.
  const text = file.endsWith('.astro')
    ? source.replace('---\n', `---\nimport '${extraImport}';\n`)
    : `${source}\nimport '${extraImport}';\n`;
  const [result] = await eslint.lintText(text, { filePath: file });
  return (result?.messages ?? []).filter(({ ruleId }) => ruleId === 'boundaries/dependencies').map(({ message }) => message);
}

describe('layers', () => {
  const forbidden: [string, string][] = [
    ['src/server/api-frame/frame.ts', '../api/registry.ts'],
    ['src/server/api-frame/server-errors.ts', '../discovery/llms.ts'],
    ['src/server/discovery/document-response.ts', '../front/encoding.ts'],
    ['src/server/discovery/llms.ts', '../../site/content.ts'],
    ['src/server/front/server.ts', '../api/registry.ts'],
    ['src/server/store/service.ts', '../writes/pipeline.ts'],
    ['src/server/writes/pipeline.ts', '../api/dispatch.ts'],
    ['src/server/identity/caller.ts', '../writes/pipeline.ts'],
    ['src/layouts/Base.astro', '../server/store/open'],
  ];
  for (const [file, target] of forbidden) {
    test(`${file} may not import ${target}`, async () => {
      const errors = await layerErrors(file, target);
      assert.equal(errors.length, 1, `expected one layer error, got ${JSON.stringify(errors)}`);
    });
  }

  const allowed: [string, string][] = [
    ['src/server/api/registry.ts', '../writes/pipeline.ts'],
    ['src/server/writes/pipeline.ts', '../store/service.ts'],
    ['src/server/api/viewer-votes.ts', '../identity/caller.ts'],
    ['src/server/discovery/llms.ts', '../http/site-paths.ts'],
  ];
  for (const [file, target] of allowed) {
    test(`${file} may import ${target}`, async () => {
      assert.deepEqual(await layerErrors(file, target), []);
    });
  }
});
