import { z } from 'zod';
import { DEFAULT_LANGUAGE, isLanguageCode } from '../../i18n/languages.ts';

/** A `lang` query parameter: one of the fifteen codes; absent or unknown answers in English rather than failing. */
export const languageParameter = z
  .string()
  .optional()
  .transform((lang) => (isLanguageCode(lang) ? lang : DEFAULT_LANGUAGE));
