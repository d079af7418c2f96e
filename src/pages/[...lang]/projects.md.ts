import type { APIRoute, InferGetStaticPropsType } from 'astro';
import { projectsStaticPaths } from '../../site/content.ts';
import { pageTwin } from '../../site/markdown-twins.ts';
import { markdown } from '../../site/markdown-response.ts';

export const prerender = true;
export const getStaticPaths = projectsStaticPaths;

export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = ({ props: { entry } }) =>
  markdown(pageTwin(entry.data.title, entry.body ?? ''));
