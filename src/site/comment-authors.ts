import type { LanguageCode } from '../i18n/languages.ts';
import { readerNameIn } from '../i18n/reader-names.ts';
import { uiStrings } from '../i18n/ui.ts';
import type { PublicComment } from '../server/store/service.ts';
import type { CommentSystem } from '../server/store/types.ts';

type Signed = Pick<PublicComment, 'author' | 'remote' | 'importedFrom'>;

/** Each comment system as it writes its own name. */
const SYSTEM_NAMES: Record<CommentSystem, string> = {
  artalk: 'Artalk',
  disqus: 'Disqus',
  isso: 'Isso',
  remark42: 'Remark42',
  wordpress: 'WordPress',
};

/**
 * The name a comment is signed with in `lang`: a reader's colour and animal
 * in the language's words; a fediverse author's or an imported author's name
 * as they gave it, never taken for a colour and an animal.
 */
export function authorNameIn(comment: Signed, lang: LanguageCode): string {
  return comment.remote || comment.importedFrom ? comment.author : readerNameIn(comment.author, lang);
}

/** "imported from Disqus" in `lang` for an imported comment; null for any other. */
export function importedMarkIn(comment: Signed, lang: LanguageCode): string | null {
  return comment.importedFrom ? uiStrings(lang)('thread.imported', { source: SYSTEM_NAMES[comment.importedFrom] }) : null;
}
