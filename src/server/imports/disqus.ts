/**
 * Disqus's XML export (Admin, Moderation, Export): `thread` elements with
 * the page's `link`, then `post` elements naming their thread and, for a
 * reply, their parent by `dsq:id`; `message` is HTML, `isSpam` and
 * `isDeleted` mark what is skipped. The author's email and ipAddress are not read.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import type { ForeignComment } from './foreign.ts';

type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

function child(element: Element, name: string): Element | undefined {
  return element.children.find((node): node is Element => 'attribs' in node && node.name === name);
}

function text(element: Element, name: string): string {
  const found = child(element, name);
  return found === undefined ? '' : DomUtils.textContent(found).trim();
}

function idOf(element: Element | undefined): string | null {
  return element?.attribs['dsq:id'] ?? null;
}

/** The comments of a Disqus export's text, on the page their thread's `link` names. */
export function readDisqus(xml: string): ForeignComment[] {
  const root = DomUtils.getElementsByTagName('disqus', parseDocument(xml, { xmlMode: true }).children, false, 1)[0];
  const elements = root === undefined ? [] : root.children.filter((node): node is Element => 'attribs' in node);
  const pages = new Map(elements.filter(({ name }) => name === 'thread').map((thread) => [idOf(thread), text(thread, 'link')]));
  return elements
    .filter(({ name }) => name === 'post')
    .map((post) => {
      const author = child(post, 'author');
      const name = author === undefined ? '' : text(author, 'name');
      return {
        sourceId: idOf(post) ?? '',
        parentSourceId: idOf(child(post, 'parent')),
        pageUrl: pages.get(idOf(child(post, 'thread'))) ?? '',
        authorName: name === '' ? 'Anonymous' : name,
        authorUrl: null,
        createdAt: new Date(text(post, 'createdAt')).toISOString(),
        body: { html: text(post, 'message') },
        status: text(post, 'isSpam') === 'true' ? 'spam' : text(post, 'isDeleted') === 'true' ? 'deleted' : 'approved',
      } satisfies ForeignComment;
    });
}
