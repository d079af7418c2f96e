import { satteri, satteriCreateHighlightFn, satteriHighlightPlugin } from '@astrojs/markdown-satteri';

type Processor = ReturnType<typeof satteri>;
type Highlight = NonNullable<Awaited<ReturnType<typeof satteriCreateHighlightFn>>>;

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
