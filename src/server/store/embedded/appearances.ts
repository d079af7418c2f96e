import { appearanceKey, appearanceWrites } from '../records.ts';
import type { AppearanceStore } from '../roles.ts';
import type { Appearance, AppearanceConsumer, ArticleTranslation, RecordedAppearances, VisibleTranslation } from '../types.ts';
import type { EmbeddedCore } from './engine.ts';

/** Appearances on the embedded store: one process holds it (lock.ts), so comparing and recording with no await between is once. */
export class EmbeddedAppearances implements AppearanceStore {
  readonly #core: EmbeddedCore;

  constructor(core: EmbeddedCore) {
    this.#core = core;
  }

  async recordAppearances(visible: readonly VisibleTranslation[], consumers: readonly AppearanceConsumer[]): Promise<RecordedAppearances> {
    const { writes, recorded, deferred } = appearanceWrites(this.#core.state.newsletter.appearances.oldestFirst(), visible, consumers);
    if (writes.length > 0) await this.#core.commit({ op: 'appearances', items: writes });
    return { recorded, deferred };
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

  findAppearance(translation: ArticleTranslation): Promise<Appearance | null> {
    return Promise.resolve(this.#core.state.newsletter.appearances.find(appearanceKey(translation)));
  }
}
