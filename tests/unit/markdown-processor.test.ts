import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownProcessor, SHIKI_CONFIG } from '../../src/build/markdown-processor.ts';

const SHIKI = {
  themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
  langs: [],
  wrap: false,
  transformers: [],
};
const ARTICLE = (words: string) => `# ${words}\n\n\`\`\`js\nconst answer = 42;\n\`\`\`\n`;

test('a code block is highlighted in both schemes, and alike each time it comes again, in any text around it', async () => {
  const renderer = await markdownProcessor().createRenderer({ syntaxHighlight: 'shiki', shikiConfig: SHIKI } as never);
  const first = (await renderer.render(ARTICLE('Hello'), {})).code;
  const again = (await renderer.render(ARTICLE('Bonjour'), {})).code;
  assert.match(first, /<pre class="astro-code[^"]*"/);
  assert.match(first, /--shiki-dark:/);
  const block = (html: string) => html.slice(html.indexOf('<pre'));
  assert.equal(block(again), block(first));
  assert.match(again, /<h1 id="bonjour">Bonjour<\/h1>/);
});

test('another block, or the same code in another language, is highlighted on its own', async () => {
  const renderer = await markdownProcessor().createRenderer({ syntaxHighlight: 'shiki', shikiConfig: SHIKI } as never);
  const js = (await renderer.render(ARTICLE('A'), {})).code;
  const asText = (await renderer.render('```text\nconst answer = 42;\n```\n', {})).code;
  assert.notEqual(asText.slice(asText.indexOf('<pre')), js.slice(js.indexOf('<pre')));
  assert.match(asText, /data-language="text"/);
});

test('with highlighting off, code is left as the writer wrote it', async () => {
  const renderer = await markdownProcessor().createRenderer({ syntaxHighlight: false, shikiConfig: SHIKI } as never);
  const html = (await renderer.render(ARTICLE('A'), {})).code;
  assert.doesNotMatch(html, /astro-code/);
  assert.match(html, /<code class="language-js">const answer = 42;/);
});

test('a long line is coloured to its end, however long its tokenizing takes on a busy machine', async () => {
  // A machine so busy that a line gets 1 ms: Shiki then leaves the rest of the line in the plain colour.
  const busyMachine = {
    name: 'busy-machine',
    preprocess(_code: string, options: { tokenizeTimeLimit?: number }): undefined {
      options.tokenizeTimeLimit = 1;
      return undefined;
    },
  };
  const line = `const list = [${Array.from({ length: 4000 }, (_, at) => `"item ${at}", ${at} /* note */`).join(', ')}];`;
  const spans = async (transformers: unknown[]) => {
    const shikiConfig = { ...SHIKI_CONFIG, langs: [], wrap: false, transformers };
    const renderer = await markdownProcessor().createRenderer({ syntaxHighlight: 'shiki', shikiConfig } as never);
    return (await renderer.render(`\`\`\`js\n${line}\n\`\`\`\n`, {})).code.split('<span').length - 1;
  };
  const cut = await spans([busyMachine]);
  const whole = await spans([busyMachine, ...SHIKI_CONFIG.transformers]);
  assert.ok(whole > 4000 * 4, `every item's string, number and comment are tokens of their own (${whole} spans)`);
  assert.ok(cut < whole / 2, `without the site's transformer, the line is cut short (${cut} spans against ${whole})`);
});
