import { islandStrings } from './island.ts';
import { rememberWaitingTopic, waitingTopicFrom, waitingTopics, type WaitingTopic } from './waiting-topics.ts';
import { WRITE_STORED_EVENT, type WriteStored } from './write-form.ts';

/** What the list of waiting topic requests says, in the page's language. */
export interface WaitingTopicStrings {
  waiting: string;
}

/**
 * The reader's own topic requests waiting for approval, shown on /answers
 * above those every reader sees, marked as waiting: kept from the page's
 * form when the API answers `waiting` (waiting-topics.ts).
 */
export class WaitingTopicRequests extends HTMLElement {
  connectedCallback(): void {
    this.#show();
    document.addEventListener(WRITE_STORED_EVENT, (event) => {
      const { path, answer, sent } = (event as CustomEvent<WriteStored>).detail;
      const topic = path === '/api/topic-requests' ? waitingTopicFrom(answer, sent, new Date()) : null;
      if (!topic) return;
      rememberWaitingTopic(topic);
      this.#show();
    });
  }

  #show(): void {
    const list = this.querySelector('ul') as HTMLUListElement;
    const listed = new Set(
      Array.from(document.querySelectorAll<HTMLElement>('[data-topic-request]'), (item) => item.dataset['topicRequest'] ?? ''),
    );
    const topics = waitingTopics(listed);
    list.replaceChildren(...topics.map((topic) => this.#item(topic)));
    list.hidden = topics.length === 0;
  }

  #item(topic: WaitingTopic): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'waiting';
    const title = document.createElement('h2');
    title.dir = 'auto';
    title.textContent = topic.requestTitle;
    item.append(title);
    if (topic.details) {
      const details = document.createElement('p');
      details.dir = 'auto';
      details.textContent = topic.details;
      item.append(details);
    }
    const status = document.createElement('p');
    status.className = 'meta status status-waiting';
    status.textContent = islandStrings<WaitingTopicStrings>(this).waiting;
    item.append(status);
    return item;
  }
}
