import type { AstroIntegration, AstroPrerenderer } from 'astro';

/** A wrapper of Astro's prerenderer: the build's search index and render kit each add one. */
export type PrerendererWrap = (astroDefault: AstroPrerenderer) => AstroPrerenderer;

/**
 * Astro's prerenderer wrapped by each of `wraps`, the first outermost: how the
 * build sees each page as Astro renders it (src/build/search-index.ts) and
 * keeps what renders them (src/build/render-kit.ts).
 */
export function prerenderingIntegration(...wraps: PrerendererWrap[]): AstroIntegration {
  let setPrerenderer: ((wrap: PrerendererWrap) => void) | undefined;
  const wrapped: PrerendererWrap = (astroDefault) => wraps.reduceRight((inner, wrap) => wrap(inner), astroDefault);
  return {
    name: 'longhand:prerendering',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'longhand:prerendering',
                // Astro builds its own prerendering entry only while no prerenderer is set when the bundles' settings
                // are made: the wrapper is set after that, before the pages are rendered (the build's last step).
                buildApp: {
                  order: 'pre',
                  handler: () => {
                    setPrerenderer?.(wrapped);
                    return Promise.resolve();
                  },
                },
              },
            ],
          },
        });
      },
      'astro:build:start': (options) => {
        setPrerenderer = options.setPrerenderer;
      },
    },
  };
}
