import { defineHastPlugin, markdownToHtml } from 'satteri';

/** Whether a link already names its scheme (`https:`, `mailto:`…): such a link is left as written. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * An article's Markdown as the HTML of its email, with every link and image
 * made absolute against the article's page: an email is read away from the
 * site, where `/articles/x` or `../x.png` would lead nowhere. The writer's
 * own HTML passes as the site's pages show it.
 */
export function articleHtml(markdown: string, pageUrl: string): string {
  const absolute = defineHastPlugin({
    name: 'absolute-links',
    element: {
      filter: ['a', 'img', 'source'],
      visit(node, context) {
        for (const name of ['href', 'src']) {
          const value: unknown = node.properties[name];
          if (typeof value === 'string' && !HAS_SCHEME.test(value)) context.setProperty(node, name, new URL(value, pageUrl).href);
        }
      },
    },
  });
  return markdownToHtml(markdown, { hastPlugins: [absolute] }).html;
}
