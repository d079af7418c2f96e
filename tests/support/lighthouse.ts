import { chromium, expect, type Browser } from '@playwright/test';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { BROWSER_ARGS, CHROMIUM_PATH } from '../../playwright.config.ts';
import { freePort } from './ports.ts';

/** The four categories, each to score 100. */
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** Audits no page can pass in a test's browser: Playwright's Chromium runs with the back/forward cache off. */
const NOT_THE_PAGES = new Set(['bf-cache']);
/**
 * Runs of one page and scheme, at most. Performance is Lighthouse's
 * simulated mobile load, whose blocking time is this machine's own CPU time
 * multiplied: a run that fell on another process's busy second is run again,
 * and a page that scores under 100 in every run fails.
 */
const RUNS = 5;

export type Scheme = 'light' | 'dark';

/** A Chromium that Lighthouse drives through its debugging port. */
export interface LighthouseBrowser {
  browser: Browser;
  port: number;
}

export async function launchForLighthouse(): Promise<LighthouseBrowser> {
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...BROWSER_ARGS, `--remote-debugging-port=${String(port)}`],
  });
  return { browser, port };
}

interface Scores {
  /** Each category's score, 0 to 100. */
  categories: Record<string, number>;
  /** The audits that scored under 1, each with its score and what it measured. */
  missed: string[];
}

/** One Lighthouse run of `url` in a tab that prefers `scheme`. */
async function scoresOf(port: number, url: string, scheme: Scheme): Promise<Scores> {
  const driver = await puppeteer.connect({ browserURL: `http://127.0.0.1:${String(port)}` });
  const tab = await driver.newPage();
  try {
    await tab.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    const result = await lighthouse(url, { onlyCategories: CATEGORIES, output: 'json', logLevel: 'error' }, undefined, tab);
    expect(await tab.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'the scheme the page was seen in').toBe(
      scheme === 'dark',
    );
    const lhr = result?.lhr;
    // A page Lighthouse could not load scores nothing: a run to be made again, counted as a miss.
    if (lhr?.runtimeError) return { categories: { performance: 0 }, missed: [`runtime error ${JSON.stringify(lhr.runtimeError)}`] };
    const missed = Object.values(lhr?.audits ?? {})
      .filter(
        ({ id, score, scoreDisplayMode }) => ['binary', 'numeric'].includes(scoreDisplayMode) && score !== 1 && !NOT_THE_PAGES.has(id),
      )
      .map(({ id, score, displayValue }) => `${id} ${String(score)} ${displayValue ?? ''}`);
    const categories = Object.fromEntries(
      CATEGORIES.map((category) => [category, Math.round((lhr?.categories[category]?.score ?? 0) * 100)]),
    );
    return { categories, missed };
  } finally {
    await tab.close();
    await driver.disconnect();
  }
}

/**
 * Lighthouse's four categories at 100 for `url` in `scheme`. Accessibility,
 * best practices and SEO must be 100 in every run; performance in one of
 * RUNS at most (a run that could not load the page counts as a miss), each
 * run printed.
 */
export async function expectLighthouse100({ port }: LighthouseBrowser, url: string, scheme: Scheme): Promise<void> {
  for (let run = 1; ; run += 1) {
    const { categories, missed } = await scoresOf(port, url, scheme);
    const scores = CATEGORIES.map((category) => `${category} ${String(categories[category])}`).join(', ');
    console.log(
      `Lighthouse, ${url}, ${scheme}, run ${String(run)}: ${scores}${missed.length > 0 ? `; below 1: ${missed.join('; ')}` : ''}`,
    );
    const loaded = !missed.some((audit) => audit.startsWith('runtime error'));
    if (loaded) for (const category of CATEGORIES.slice(1)) expect(categories[category], `${category}: ${missed.join('; ')}`).toBe(100);
    if (loaded && categories['performance'] === 100) return;
    expect(run, `performance under 100 in ${String(RUNS)} runs: ${missed.join('; ')}`).toBeLessThan(RUNS);
  }
}
