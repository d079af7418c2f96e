import type { uiStrings } from '../i18n/ui.ts';

const REFUSALS = ['400', '403', '413', '415', '429', '5xx', 'offline'] as const;

/** The messages of every refusal a write form can meet, by status, for src/site/client/write-api.ts's describeRefusal. */
export function refusalStrings(t: ReturnType<typeof uiStrings>): Record<string, string> {
  return Object.fromEntries(REFUSALS.map((status) => [status, t(`form.refused.${status}`)]));
}
