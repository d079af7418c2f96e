/** Appearances on PostgreSQL: docs/architecture.md ("Appearances and the newsletter"). */
import { newAppearances } from '../records.ts';
import type { AppearanceStore } from '../roles.ts';
import type { Appearance, AppearanceConsumer, ArticleTranslation } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { APPEARANCE_COLUMNS, appearanceColumns, appearanceOf, INSERT_APPEARANCES, type AppearanceRow } from './newsletter-rows.ts';
import { asColumns } from './sql.ts';

export class PostgresAppearances implements AppearanceStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  /**
   * In one transaction that first locks the table against other recorders
   * (readers go on): whether the store holds any appearance yet decides a
   * baseline, and two instances recording at once take turns, the second
   * inserting nothing the first did.
   */
  recordAppearances(visible: readonly ArticleTranslation[], consumers: readonly AppearanceConsumer[]): Promise<Appearance[]> {
    if (visible.length === 0) return Promise.resolve([]);
    return this.#core.transaction(async (client) => {
      await client.query('LOCK TABLE appearances IN SHARE ROW EXCLUSIVE MODE');
      const { rows: any } = await client.query('SELECT 1 FROM appearances LIMIT 1');
      const items = newAppearances(visible, consumers, any.length === 0);
      const { rows } = await client.query<AppearanceRow>(INSERT_APPEARANCES, appearanceColumns(items));
      return rows.map(appearanceOf);
    });
  }

  async appearancesWaiting(consumer: AppearanceConsumer, limit: number): Promise<Appearance[]> {
    const { rows } = await this.#core.query<AppearanceRow>(
      `SELECT ${APPEARANCE_COLUMNS} FROM appearances WHERE waiting @> ARRAY[$1::text] ORDER BY appeared_at, slug, lang LIMIT $2`,
      [consumer, limit],
    );
    return rows.map(appearanceOf);
  }

  async appearancesHanded(consumer: AppearanceConsumer, handed: readonly ArticleTranslation[]): Promise<void> {
    if (handed.length === 0) return;
    await this.#core.query(
      `UPDATE appearances SET waiting = array_remove(waiting, $3)
       WHERE (slug, lang) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [
        ...asColumns(
          handed.map(({ slug, lang }) => [slug, lang]),
          2,
        ),
        consumer,
      ],
    );
  }
}
