/**
 * An operation on its way out (docs/architecture.md, "The operation registry"): once marked, its responses
 * carry `Deprecation` (the date `since`, which may lie ahead, as RFC 9745
 * allows) and `Sunset`; it is removed on `sunset`, at least 90 days later.
 * Both are calendar dates (YYYY-MM-DD, UTC).
 */
export interface Deprecation {
  since: string;
  sunset: string;
}

/** The fewest days between deprecating an operation and removing it. */
const MIN_DEPRECATION_DAYS = 90;

const DAY_MS = 86_400_000;

/** Midnight UTC of a calendar date, in milliseconds; NaN when it is not one. */
function startOfDay(date: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
}

/** Why a deprecation cannot be published, or null: both dates must be calendar dates, at least 90 days apart. */
export function deprecationProblem({ since, sunset }: Deprecation): string | null {
  const days = (startOfDay(sunset) - startOfDay(since)) / DAY_MS;
  if (Number.isNaN(days)) return `since "${since}" and sunset "${sunset}" must be calendar dates (YYYY-MM-DD)`;
  return days >= MIN_DEPRECATION_DAYS
    ? null
    : `sunset ${sunset} is ${days} days after ${since}; at least ${MIN_DEPRECATION_DAYS} are needed`;
}

/** `Deprecation` (RFC 9745: a structured date, `@<unix seconds>`) and `Sunset` (RFC 8594: an HTTP-date). */
export function deprecationHeaders({ since, sunset }: Deprecation): { Deprecation: string; Sunset: string } {
  return {
    Deprecation: `@${startOfDay(since) / 1000}`,
    Sunset: new Date(startOfDay(sunset)).toUTCString(),
  };
}
