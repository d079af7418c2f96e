import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cardVersion, type CardText } from './card-path.ts';
import { drawCard } from './draw-card.ts';

/**
 * Social cards, drawn at the first request for each and kept on disk by
 * version (`<dir>/<version>.png`), so that the build draws none: an archive
 * of thousands of translations would pay for every one at each build. One
 * card is drawn at a time: a crawler asking for a thousand new ones waits its
 * turn instead of taking the event loop from readers. A folder that cannot be
 * written only costs drawing again.
 */
export class CardFiles {
  readonly #dir: string;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #drawing = new Map<string, Promise<Buffer>>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  async get(text: CardText): Promise<Buffer> {
    const version = cardVersion(text);
    const file = join(this.#dir, `${version}.png`);
    const kept = await readFile(file).catch(() => undefined);
    if (kept) return kept;
    let drawing = this.#drawing.get(version);
    if (!drawing) {
      drawing = this.#queue.then(async () => {
        const png = await drawCard(text);
        await this.#keep(file, png);
        return png;
      });
      this.#queue = drawing.catch(() => undefined);
      this.#drawing.set(version, drawing);
      void drawing.finally(() => this.#drawing.delete(version)).catch(() => undefined);
    }
    return drawing;
  }

  /** Written whole, then moved into place: another instance or request never reads half a card. */
  async #keep(file: string, png: Buffer): Promise<void> {
    try {
      await mkdir(this.#dir, { recursive: true });
      await writeFile(`${file}.${process.pid}.tmp`, png);
      await rename(`${file}.${process.pid}.tmp`, file);
    } catch {
      // Not kept: drawn again next time.
    }
  }
}
