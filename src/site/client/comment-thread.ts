import { formShown } from './form-checks.ts';
import { islandStrings } from './island.ts';
import { registerPageTools, VOTE_VALUE } from './page-tools.ts';
import type { CastVote, VoteValue } from '../../server/store/types.ts';
import { pressVote } from './votes.ts';
import { forgetWaiting, rememberWaiting, waitingOn, type WaitingComment } from './waiting-comments.ts';
import { describeRefusal, postJson, relativeTime } from './write-api.ts';
import { sendWrite, showFormMessage } from './write-form.ts';

/** The interface strings the thread island shows, in the page's language. */
export interface ThreadStrings {
  loadFailed: string;
  sending: string;
  posted: string;
  /** Said in the form of a comment held for approval. */
  held: string;
  /** Shown in place of the author's name on the writer's own comment waiting for approval. */
  waiting: string;
  reply: string;
  replyLabel: string;
  replySubmit: string;
  cancel: string;
  refusals: Record<string, string>;
}

/**
 * The comment thread of an article page. The page comes with the thread's
 * first page in it (the fragment, put there by the front server); this
 * marks the reader's own votes on it, sends comments, replies and votes, and
 * loads the next pages. Every response is taken as the truth: a vote shows at
 * once and is corrected from the response; a comment shows once the first page
 * is loaded again. The writer's own comments waiting for approval, which the
 * thread never holds, are shown where they will be (waiting-comments.ts).
 */
export class CommentThread extends HTMLElement {
  #slug = '';
  #lang = 'en';
  #strings!: ThreadStrings;
  #body!: HTMLElement;
  #status!: HTMLElement;

  connectedCallback(): void {
    this.#slug = this.dataset['slug'] ?? '';
    this.#lang = document.documentElement.lang || 'en';
    this.#strings = islandStrings<ThreadStrings>(this);
    this.#body = this.querySelector('.thread-body') as HTMLElement;
    this.#status = this.querySelector('.thread-status') as HTMLElement;
    (this.querySelector('.thread-controls') as HTMLElement).hidden = false;
    formShown(this.querySelector('.comment-form') as HTMLFormElement);
    this.addEventListener('click', (event) => {
      this.#onClick(event);
    });
    this.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#send(event.target as HTMLFormElement);
    });
    const served = this.#body.querySelector<HTMLElement>(':scope > .thread-page');
    void (served ? this.#enhance(served) : this.#load());
    this.#registerVoteTools();
  }

  /**
   * The votes as WebMCP tools: each presses the button a reader would, and
   * answers the score and the reader's vote as the page then shows them.
   */
  #registerVoteTools(): void {
    const pressed = async (group: Element | null, value: unknown) => {
      const button = group?.querySelector<HTMLButtonElement>(`.vote[data-vote="${value === -1 ? -1 : 1}"]`);
      if (!group || !button) return { error: 'No such comment on this page' };
      await this.#vote(button);
      const vote = group.querySelector('.vote[aria-pressed="true"]')?.getAttribute('data-vote') ?? '0';
      return { score: Number(group.querySelector('.score')?.textContent), vote: Number(vote) };
    };
    registerPageTools([
      {
        name: 'vote_on_article',
        description:
          'Vote on this article as the reader, up or down: a toggle, the same direction again removes the vote. Answers the article’s score and the reader’s vote (0: none).',
        inputSchema: { type: 'object', properties: { value: VOTE_VALUE }, required: ['value'] },
        execute: ({ value }) => pressed(this.querySelector('.article-votes'), value),
      },
      {
        name: 'vote_on_comment',
        description:
          'Vote on a comment shown on this page as the reader, up or down: a toggle, as for the article. Answers the comment’s score and the reader’s vote.',
        inputSchema: {
          type: 'object',
          properties: { commentId: { type: 'string', description: 'The comment’s id (its data-comment-id).' }, value: VOTE_VALUE },
          required: ['commentId', 'value'],
        },
        execute: ({ commentId, value }) =>
          pressed(this.#commentById(String(commentId))?.querySelector(':scope > .comment-actions .votes') ?? null, value),
      },
    ]);
  }

  /** The fragment's address: `/threads/<slug>` for English, `/<code>/threads/<slug>` otherwise. */
  #fragmentUrl(page: number): string {
    const prefix = this.#lang === 'en' ? '' : `/${this.#lang}`;
    return `${prefix}/threads/${encodeURIComponent(this.#slug)}${page > 1 ? `?page=${page}` : ''}`;
  }

  /**
   * Loads the first page of the thread in place of what is shown: after a
   * comment is sent, or on a page served without its thread (`astro dev`).
   */
  async #load(): Promise<void> {
    const page = await this.#fetchPage(1);
    if (!page) return;
    this.#body.replaceChildren(page);
    await this.#enhance(page);
  }

  /** Shows the article's score, the first page's dates and the reader's waiting comments as the island does, then the reader's votes. */
  async #enhance(page: HTMLElement): Promise<void> {
    this.#showArticleScore(Number(page.dataset['articleScore'] ?? 0));
    this.#describeTimes(page);
    this.#showWaiting();
    await this.#markVotes();
  }

  /**
   * Puts each of the reader's waiting comments where it would be: a comment
   * first among the top-level ones (newest first), a reply last under its
   * parent when that is shown. One the thread now holds was approved, and is
   * forgotten.
   */
  #showWaiting(): void {
    for (const waiting of waitingOn(this.#slug)) {
      if (this.#commentById(waiting.id)) {
        forgetWaiting(waiting.id);
        continue;
      }
      if (this.querySelector(`[data-waiting-id="${CSS.escape(waiting.id)}"]`)) continue;
      const item = document.createElement('li');
      item.append(this.#waitingComment(waiting));
      if (waiting.parentId === null) {
        this.#body.querySelector('.thread-empty')?.remove();
        this.#body.querySelector('.comments')?.prepend(item);
        continue;
      }
      const parent = this.#commentById(waiting.parentId);
      if (!parent) continue;
      let replies = parent.querySelector(':scope > ol.replies');
      if (!replies) {
        replies = document.createElement('ol');
        replies.className = 'replies';
        parent.append(replies);
      }
      replies.append(item);
    }
  }

  /** A waiting comment as its writer sees it: said to wait, its text, no vote and no reply. */
  #waitingComment(waiting: WaitingComment): HTMLElement {
    const shown = document.createElement('article');
    shown.className = 'comment comment-waiting';
    shown.dataset['waitingId'] = waiting.id;
    const meta = document.createElement('p');
    meta.className = 'comment-meta';
    meta.textContent = this.#strings.waiting;
    const body = document.createElement('p');
    body.className = 'comment-body';
    body.dir = 'auto';
    body.textContent = waiting.body;
    shown.append(meta, body);
    return shown;
  }

  async #fetchPage(number: number): Promise<HTMLElement | null> {
    const response = await fetch(this.#fragmentUrl(number)).catch(() => null);
    if (!response?.ok) {
      this.#say(this.#strings.loadFailed, true);
      return null;
    }
    const template = document.createElement('template');
    // The fragment is the site's own render, in which every reader's text went through the comments' safe renderer.
    template.innerHTML = await response.text();
    return template.content.querySelector('.thread-page');
  }

  /** Dates as "3 hours ago", the exact date and time on hover or focus. */
  #describeTimes(root: ParentNode): void {
    for (const time of root.querySelectorAll<HTMLTimeElement>('.comment-meta time')) {
      const seconds = (Date.parse(time.dateTime) - Date.now()) / 1000;
      time.textContent = relativeTime(seconds, this.#lang);
    }
  }

  async #markVotes(): Promise<void> {
    const response = await fetch(`/api/votes?slug=${encodeURIComponent(this.#slug)}`).catch(() => null);
    if (!response?.ok) return;
    const votes = (await response.json()) as { article: VoteValue; comments: Record<string, CastVote> };
    this.#showVote(this.querySelector('.article-votes'), votes.article);
    for (const [id, vote] of Object.entries(votes.comments))
      this.#showVote(this.#commentById(id)?.querySelector(':scope > .comment-actions .votes') ?? null, vote);
  }

  #commentById(id: string): HTMLElement | null {
    return this.querySelector(`[data-comment-id="${CSS.escape(id)}"]`);
  }

  #showArticleScore(score: number): void {
    const shown = this.querySelector('.article-votes .score');
    if (shown) shown.textContent = String(score);
  }

  /** Presses the button of the reader's vote in a group of vote buttons, and only it. */
  #showVote(group: Element | null, vote: VoteValue): void {
    for (const button of group?.querySelectorAll('.vote') ?? []) {
      button.setAttribute('aria-pressed', String(Number(button.getAttribute('data-vote')) === vote));
    }
  }

  #onClick(event: Event): void {
    const target = (event.target as HTMLElement).closest('button');
    if (!target) return;
    if (target.classList.contains('vote')) void this.#vote(target);
    else if (target.classList.contains('reply')) this.#openReply(target);
    else if (target.classList.contains('reply-cancel')) this.#closeReply(target.closest('form'));
    else if (target.classList.contains('thread-more')) void this.#more(target);
  }

  /** A vote shown at once (pressVote), then as the API returns it; as it was if refused. */
  async #vote(button: HTMLButtonElement): Promise<void> {
    const group = button.closest('.votes, .article-votes');
    const scoreShown = group?.querySelector('.score');
    if (!group || !scoreShown) return;
    const comment = button.closest<HTMLElement>('.comment');
    const requested = Number(button.dataset['vote']) as CastVote;
    const pressed = group.querySelector('.vote[aria-pressed="true"]');
    const current = pressed ? (Number(pressed.getAttribute('data-vote')) as CastVote) : 0;
    const before = Number(scoreShown.textContent);
    const shown = pressVote(current, requested, before);
    this.#showVote(group, shown.vote);
    scoreShown.textContent = String(shown.score);
    const outcome = await postJson('/api/votes', {
      articleSlug: this.#slug,
      ...(comment ? { commentId: comment.dataset['commentId'] } : {}),
      value: requested,
    });
    if (outcome.ok) {
      this.#showVote(group, outcome.body['vote'] as VoteValue);
      scoreShown.textContent = String(outcome.body['score']);
      return;
    }
    this.#showVote(group, current);
    scoreShown.textContent = String(before);
    this.#say(describeRefusal(outcome, this.#strings.refusals, this.#lang).message, true);
  }

  #openReply(button: HTMLButtonElement): void {
    const comment = button.closest<HTMLElement>('.comment');
    if (!comment || comment.querySelector(':scope > form.reply-form')) return;
    const template = this.querySelector<HTMLTemplateElement>('template.reply-template');
    const form = template?.content.firstElementChild?.cloneNode(true) as HTMLFormElement | undefined;
    if (!form) return;
    form.dataset['parentId'] = comment.dataset['commentId'] ?? '';
    comment.querySelector(':scope > .comment-actions')?.after(form);
    button.setAttribute('aria-expanded', 'true');
    form.querySelector('textarea')?.focus();
    formShown(form);
  }

  #closeReply(form: HTMLFormElement | null): void {
    const comment = form?.closest('.comment');
    comment?.querySelector(':scope > .comment-actions .reply')?.setAttribute('aria-expanded', 'false');
    form?.remove();
  }

  /** Sends a comment or a reply; on success the thread is loaded again, with it. */
  async #send(form: HTMLFormElement): Promise<void> {
    const parentId = form.dataset['parentId'];
    const body = (form.querySelector('textarea') as HTMLTextAreaElement).value;
    const answer = await sendWrite(
      form,
      '/api/comments',
      { articleSlug: this.#slug, ...(parentId ? { parentId } : {}), body },
      this.#strings,
    );
    if (answer === null) return;
    const held = answer['status'] === 'pending';
    if (held) rememberWaiting(answer);
    const said = held ? this.#strings.held : this.#strings.posted;
    // Only the text is emptied: a reset would also empty the captcha's field, which its widget may have filled again.
    (form.querySelector('textarea') as HTMLTextAreaElement).value = '';
    showFormMessage(form, said, false);
    const id = String(answer['id']);
    await this.#load();
    const posted = this.#commentById(id) ?? this.querySelector(`[data-waiting-id="${CSS.escape(id)}"]`);
    posted?.classList.add('just-posted');
    posted?.scrollIntoView({ block: 'nearest' });
    if (parentId) this.#say(said, false);
  }

  /** The next page of top-level comments, after those shown. */
  async #more(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const page = await this.#fetchPage(Number(button.dataset['page']));
    if (!page) {
      button.disabled = false;
      return;
    }
    this.#describeTimes(page);
    this.#body.querySelector('.comments')?.append(...(page.querySelector('.comments')?.children ?? []));
    this.#showWaiting();
    const next = page.querySelector('.thread-more');
    if (next) button.replaceWith(next);
    else button.remove();
    await this.#markVotes();
  }

  #say(message: string, isError: boolean): void {
    this.#status.textContent = message;
    this.#status.classList.toggle('error', isError);
  }
}
