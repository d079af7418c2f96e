/** Appearances on PostgreSQL: docs/architecture.md ("Appearances and the newsletter"). */
import { appearanceWrites } from '../records.ts';
import type { AppearanceStore } from '../roles.ts';
import type { Appearance, AppearanceConsumer, ArticleTranslation, RecordedAppearances, VisibleTranslation } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { APPEARANCE_COLUMNS, appearanceColumns, appearanceOf, WRITE_APPEARANCES, type AppearanceRow } from './newsletter-rows.ts';
import { asColumns } from './sql.ts';

export class PostgresAppearances implements AppearanceStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  /**
   * In one transaction that first locks the table against other recorders
   * (readers go on): what is recorded, read under the lock, decides the
   * baseline and every new version, and two instances recording at once
   * take turns, the second finding what the first wrote.
   */
  recordAppearances(visible: readonly VisibleTranslation[], consumers: readonly AppearanceConsumer[]): Promise<RecordedAppearances> {
    return this.#core.transaction(async (client) => {
      await client.query('LOCK TABLE appearances IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<AppearanceRow>(`SELECT ${APPEARANCE_COLUMNS} FROM appearances`);
      const { writes, recorded, deferred } = appearanceWrites(rows.map(appearanceOf), visible, consumers);
      if (writes.length > 0) await client.query(WRITE_APPEARANCES, appearanceColumns(writes));
      return { recorded, deferred };
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

  async findAppearance({ slug, lang }: ArticleTranslation): Promise<Appearance | null> {
    const { rows } = await this.#core.query<AppearanceRow>(`SELECT ${APPEARANCE_COLUMNS} FROM appearances WHERE slug = $1 AND lang = $2`, [
      slug,
      lang,
    ]);
    const [row] = rows;
    return row ? appearanceOf(row) : null;
  }
}
