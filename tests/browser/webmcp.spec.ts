import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { BROWSER_ARGS, CHROMIUM_PATH, WEBMCP_ARGS } from '../../playwright.config.ts';

/** The page's WebMCP tools, as the browser lists them to an agent. */
interface ListedTool {
  name: string;
  description: string;
  inputSchema: { properties?: Record<string, { description?: string }>; required?: string[] };
}

interface ModelContext {
  getTools(): Promise<ListedTool[]>;
  executeTool(tool: ListedTool, input: Record<string, unknown>): Promise<string>;
}

let browser: Browser;
test.beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BROWSER_ARGS, ...WEBMCP_ARGS] });
});
test.afterAll(async () => {
  await browser.close();
});

async function opened(path: string, baseURL: string | undefined): Promise<Page> {
  const page = await browser.newPage({ baseURL: baseURL ?? '' });
  await page.goto(path);
  return page;
}

function tools(page: Page): Promise<ListedTool[]> {
  return page.evaluate(async () => (document as unknown as { modelContext: ModelContext }).modelContext.getTools());
}

/** Calls a tool as a browser's agent would, and parses its answer. */
function run(page: Page, name: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  return page.evaluate(
    async ({ name: wanted, input: given }) => {
      const context = (document as unknown as { modelContext: ModelContext }).modelContext;
      const tool = (await context.getTools()).find((candidate) => candidate.name === wanted);
      if (!tool) throw new Error(`no tool ${wanted}`);
      return JSON.parse(await context.executeTool(tool, given)) as Record<string, unknown>;
    },
    { name, input },
  );
}

test('every form is a described tool: the bug report on every page, the topic request on /answers', async ({ baseURL }) => {
  const page = await opened('/fr/answers', baseURL);
  const listed = await tools(page);
  expect(listed.map(({ name }) => name).sort()).toEqual(['report_bug', 'request_topic']);
  const topic = listed.find(({ name }) => name === 'request_topic');
  expect(topic?.description).toMatch(/^Suggest an article topic\./);
  expect(Object.keys(topic?.inputSchema.properties ?? {})).toEqual(['requestTitle', 'details']);
  for (const tool of listed) {
    for (const [name, parameter] of Object.entries(tool.inputSchema.properties ?? {})) {
      expect(parameter.description, `${tool.name}.${name}`).toBeTruthy();
    }
  }
  await page.close();
});

test('an article offers its comment form, its votes and the newsletter; a vote through the tool is the reader’s own, a toggle', async ({
  baseURL,
}) => {
  const page = await opened('/articles/a-small-web-server', baseURL);
  await expect(page.locator('.thread-page')).toBeAttached();
  const listed = await tools(page);
  expect(listed.map(({ name }) => name).sort()).toEqual([
    'post_comment',
    'report_bug',
    'subscribe_newsletter',
    'vote_on_article',
    'vote_on_comment',
  ]);
  // The page's language goes with it, as the form's hidden field: the agent gives the address alone.
  const subscribe = listed.find(({ name }) => name === 'subscribe_newsletter');
  expect(Object.keys(subscribe?.inputSchema.properties ?? {})).toEqual(['email']);
  expect(subscribe?.inputSchema.properties?.['email']?.description).toMatch(/email address/);
  expect(subscribe?.inputSchema.required).toEqual(['email']);
  const up = page.locator('.article-votes .vote[data-vote="1"]');
  const voted = await run(page, 'vote_on_article', { value: 1 });
  expect(voted['vote']).toBe(1);
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.article-votes .score')).toHaveText(String(voted['score']));
  const again = await run(page, 'vote_on_article', { value: 1 });
  expect(again).toEqual({ score: Number(voted['score']) - 1, vote: 0 });
  await expect(up).toHaveAttribute('aria-pressed', 'false');
  expect(await run(page, 'vote_on_comment', { commentId: 'no-such-comment', value: -1 })).toEqual({
    error: 'No such comment on this page',
  });
  await page.close();
});

test('/cities offers the city search and the submission form; the search answers each city’s id and country', async ({ baseURL }) => {
  const page = await opened('/cities', baseURL);
  const listed = await tools(page);
  expect(listed.map(({ name }) => name).sort()).toEqual(['report_bug', 'search_cities', 'submit_city']);
  const submit = listed.find(({ name }) => name === 'submit_city');
  expect(Object.keys(submit?.inputSchema.properties ?? {})).toEqual(
    expect.arrayContaining(['city', 'cityId', 'country', 'currency', 'netPay', 'rent', 'beerPrice']),
  );
  const { results } = (await run(page, 'search_cities', { q: 'zurich', country: 'CH' })) as {
    results: { id: string; name: string; country: string }[];
  };
  expect(results[0]).toMatchObject({ name: 'Zürich', country: 'CH' });
  expect(results[0]?.id).toMatch(/^\d+$/);
  await page.close();
});
