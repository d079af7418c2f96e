import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { freePort } from '../support/ports.ts';
import { copyOfPreparedSite, startSite, type RunningSite } from '../support/site.ts';

/**
 * The official MCP conformance suite's server scenarios that apply to a
 * read-only server without prompts (docs/architecture.md, "Agents"). The
 * others need the suite's own fixture tools and resources (`test_simple_text`,
 * `test://static-text`…), or features this server does not offer: prompts,
 * completion, logging, resource subscriptions, sampling and elicitation
 * (the server never asks the client anything), and SSE streams that stay open
 * (every answer here is complete).
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const CONFORMANCE = fileURLToPath(import.meta.resolve('@modelcontextprotocol/conformance/dist/index.js'));

let site: RunningSite;
before(async () => {
  // The DNS-rebinding scenario calls from the address it was given, as a browser on that page would: the site's own
  // origin. SITE_URL is a build setting, so the site is built again for it, in a copy of its own.
  const port = await freePort();
  site = await startSite(await copyOfPreparedSite(), { PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` });
});
after(async () => {
  await site.stop();
});

function conformance(scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', `${site.url}/mcp`, '--scenario', scenario], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}

for (const scenario of SCENARIOS) {
  test(`conformance: ${scenario}`, async () => {
    const { code, output } = await conformance(scenario);
    assert.equal(code, 0, output);
    assert.match(output, /Passed: (\d+)\/\1, 0 failed/, output);
  });
}
