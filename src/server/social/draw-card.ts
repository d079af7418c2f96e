import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { languageOf } from '../../i18n/languages.ts';
import type { CardText } from './card-path.ts';
import { CARD_HEIGHT, CARD_WIDTH } from './card-size.ts';
import { cardFonts } from './fonts.ts';

const MARGIN = 80;
const TITLE_TOP = 150;
/** Title sizes tried in turn, the largest whose lines fit. */
const TITLE_SIZES = [72, 64, 56, 48];
const MOST_LINES = 4;
const COLOURS = { background: '#fbf8f1', accent: '#1f5f8b', title: '#16181d', quiet: '#4a4f57' };

/**
 * A title's lines within `width`, broken where the language allows (words,
 * or between characters in Japanese and Chinese, by Intl.Segmenter); past
 * MOST_LINES, the last ends with an ellipsis.
 */
function lines(ctx: SKRSContext2D, title: string, lang: string, width: number): string[] {
  const words = [...new Intl.Segmenter(lang, { granularity: 'word' }).segment(title)].map(({ segment }) => segment);
  const result: string[] = [];
  let line = '';
  for (const word of words) {
    const longer = line + word;
    if (line.trim() !== '' && ctx.measureText(longer.trimEnd()).width > width) {
      result.push(line.trim());
      line = word.trimStart();
    } else line = longer;
  }
  if (line.trim() !== '') result.push(line.trim());
  if (result.length <= MOST_LINES) return result;
  const kept = result.slice(0, MOST_LINES);
  let last = kept[MOST_LINES - 1] ?? '';
  while (last.length > 0 && ctx.measureText(`${last}…`).width > width) last = last.slice(0, -1);
  kept[MOST_LINES - 1] = `${last.trimEnd()}…`;
  return kept;
}

/** A card as PNG: the title in its own script and direction, the site's name and host below. */
export async function drawCard({ title, lang, siteName, host }: CardText): Promise<Buffer> {
  const fonts = await cardFonts(lang);
  const canvas = createCanvas(CARD_WIDTH, CARD_HEIGHT);
  const ctx = canvas.getContext('2d');
  const rtl = languageOf(lang).dir === 'rtl';
  ctx.fillStyle = COLOURS.background;
  ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
  ctx.fillStyle = COLOURS.accent;
  ctx.fillRect(rtl ? CARD_WIDTH - 24 : 0, 0, 24, CARD_HEIGHT);
  ctx.direction = rtl ? 'rtl' : 'ltr';
  ctx.textAlign = 'start';
  ctx.textBaseline = 'alphabetic';
  const x = rtl ? CARD_WIDTH - MARGIN : MARGIN;
  const width = CARD_WIDTH - 2 * MARGIN;
  let size = TITLE_SIZES[0] ?? 72;
  let titleLines: string[] = [];
  for (const candidate of TITLE_SIZES) {
    size = candidate;
    ctx.font = `700 ${size}px ${fonts}`;
    titleLines = lines(ctx, title, lang, width);
    if (titleLines.length <= 3) break;
  }
  ctx.fillStyle = COLOURS.title;
  titleLines.forEach((line, index) => {
    ctx.fillText(line, x, TITLE_TOP + index * size * 1.25);
  });
  ctx.fillStyle = COLOURS.quiet;
  ctx.font = `400 34px ${fonts}`;
  ctx.fillText(`${siteName} · ${host}`, x, CARD_HEIGHT - MARGIN);
  return canvas.encode('png');
}
