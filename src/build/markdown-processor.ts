import { satteri, satteriCreateHighlightFn, satteriHighlightPlugin } from '@astrojs/markdown-satteri';

type Processor = ReturnType<typeof satteri>;
type Highlight = NonNullable<Awaited<ReturnType<typeof satteriCreateHighlightFn>>>;

/**
 * A Shiki transformer lifting the time Shiki gives a line's tokenizing
 * (500 ms by default, after which the rest of the line is left in the plain
 * colour): on a busy machine a line's first tokenizing, which compiles its
 * grammar's patterns, can take longer, and the same code block came out
 * coloured otherwise from one build to the next.
 */
const untimedTokenizing = {
  name: 'longhand:untimed-tokenizing',
  preprocess(_code: string, options: { tokenizeTimeLimit?: number }): undefined {
    options.tokenizeTimeLimit = 0;
    return undefined;
  },
};

/**
 * Shiki's settings for every code block (`markdown.shikiConfig`, which MDX
 * takes too). Code follows the reader's colour scheme: light colours inline,
 * dark ones as --shiki-dark (see global.css); the high-contrast themes keep
 * every token readable against its background (WCAG AA).
 */
export const SHIKI_CONFIG = {
  themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' } as const,
  transformers: [untimedTokenizing],
};

/** Code blocks kept highlighted, the least recently used out first: an article's blocks in all its languages, many times over. */
const REMEMBERED_BLOCKS = 512;

/**
 * `highlight`, each block's answer kept and given again as it is: Sätteri
 * copies a visitor's answer into its own tree and never changes the one given.
 */
function rememberedHighlight(highlight: Highlight): Highlight {
  const remembered = new Map<string, ReturnType<Highlight>>();
  return (code, lang, meta) => {
    const key = `${lang}\u0000${meta ?? ''}\u0000${code}`;
    let node = remembered.get(key);
    if (node) remembered.delete(key);
    else {
      node = highlight(code, lang, meta);
      node.catch(() => remembered.delete(key));
    }
    remembered.set(key, node);
    if (remembered.size > REMEMBERED_BLOCKS) remembered.delete(remembered.keys().next().value as string);
    return node;
  };
}

/**
 * Astro's own Markdown processor (Sätteri), whose syntax highlighting (Shiki,
 * as `markdown.shikiConfig` says) remembers the code blocks it has done: an
 * article's translations carry its original's code blocks unchanged, so a
 * block is highlighted once per build however many languages carry it
 * (docs/architecture.md, "The build"). The output is the processor's own,
 * block for block.
 */
export function markdownProcessor(): Processor {
  const processor = satteri();
  return {
    ...processor,
    async createRenderer(shared) {
      const highlight = await satteriCreateHighlightFn(shared.syntaxHighlight, shared.shikiConfig);
      if (!highlight) return processor.createRenderer(shared);
      const excludeLangs = typeof shared.syntaxHighlight === 'object' ? shared.syntaxHighlight.excludeLangs : undefined;
      const highlighting = satteriHighlightPlugin(rememberedHighlight(highlight), excludeLangs);
      const { mdastPlugins, hastPlugins, features } = processor.options;
      return satteri({ mdastPlugins, hastPlugins: [highlighting, ...hastPlugins], features }).createRenderer({
        ...shared,
        syntaxHighlight: false,
      });
    },
  };
}
