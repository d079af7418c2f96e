import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { articlesLoader } from './site/articles-loader.ts';
import { z } from 'astro/zod';
import { parseArticlePath } from './server/articles/source.ts';
import { STAMP_PATTERN } from './server/articles/translation-stamp.ts';

/** YAML reads an unquoted 2026-03-14 as a Date: take it back to the calendar date the writer typed. */
const calendarDate = z.preprocess(
  (value) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value),
  z.iso.date({ message: 'date must be a calendar date, YYYY-MM-DD' }),
);

const articles = defineCollection({
  // Old versions (`<slug>.v<N>/`) stay beside the article and are never loaded. The articles' bodies and HTML are kept
  // beside the content store, not in it (site/articles-loader.ts).
  loader: articlesLoader({
    base: './content/articles',
    pattern: ['*/*.{md,mdx}', '!*.v+([0-9])/**'],
    generateId: ({ entry }) => {
      const { slug, lang } = parseArticlePath(entry);
      return `${slug}/${lang}`;
    },
  }),
  schema: z.strictObject({
    title: z.string().trim().min(1),
    date: calendarDate,
    excerpt: z.string().trim().min(1),
    draft: z.boolean().optional(),
    // Written by `npm run translations -- mark`, never by hand.
    translatedFrom: z
      .string()
      .regex(STAMP_PATTERN, { message: 'translatedFrom must be a stamp written by npm run translations' })
      .optional(),
  }),
});

const pages = defineCollection({
  loader: glob({ base: './content/pages', pattern: '*/*.md' }),
  schema: z.strictObject({
    title: z.string().trim().min(1),
    description: z.string().trim().min(1),
  }),
});

export const collections = { articles, pages };
