import { newAppearances } from '../records.ts';
import type { AppearanceStore } from '../roles.ts';
import type { Appearance, AppearanceConsumer, ArticleTranslation } from '../types.ts';
import type { EmbeddedCore } from './engine.ts';
import { appearanceKey } from './newsletter-state.ts';

/** Appearances on the embedded store: one process holds it (lock.ts), so checking and recording with no await between is once. */
export class EmbeddedAppearances implements AppearanceStore {
  readonly #core: EmbeddedCore;

  constructor(core: EmbeddedCore) {
    this.#core = core;
  }

  async recordAppearances(visible: readonly ArticleTranslation[], consumers: readonly AppearanceConsumer[]): Promise<Appearance[]> {
    const { appearances } = this.#core.state.newsletter;
    const keys = new Set<string>();
    const fresh = visible.filter((translation) => {
      const key = appearanceKey(translation);
      if (keys.has(key) || appearances.find(key) !== null) return false;
      keys.add(key);
      return true;
    });
    if (fresh.length === 0) return [];
    const items = newAppearances(fresh, consumers, appearances.size === 0);
    await this.#core.commit({ op: 'appearances', items });
    return items;
  }

  appearancesWaiting(consumer: AppearanceConsumer, limit: number): Promise<Appearance[]> {
    const waiting: Appearance[] = [];
    for (const item of this.#core.state.newsletter.appearances.oldestFirst()) {
      if (waiting.length >= limit) break;
      if (item.waiting.includes(consumer)) waiting.push(item);
    }
    return Promise.resolve(waiting);
  }

  async appearancesHanded(consumer: AppearanceConsumer, handed: readonly ArticleTranslation[]): Promise<void> {
    if (handed.length > 0) await this.#core.commit({ op: 'appearancesHanded', consumer, keys: handed.map(appearanceKey) });
  }
}
