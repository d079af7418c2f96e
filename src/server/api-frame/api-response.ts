/** Names kept by lowerCaseName at most, so that names a caller chooses cannot grow the map. */
const MAX_KEPT_NAMES = 256;
const lowerCaseNames = new Map<string, string>();

/** A header name in lower case, one string per name: the API sets the same few dozen names on every response. */
function lowerCaseName(name: string): string {
  let lower = lowerCaseNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerCaseNames.size < MAX_KEPT_NAMES) lowerCaseNames.set(name, lower);
  }
  return lower;
}

/** Header names in lower case, as HTTP compares them. */
export class ApiResponseHeaders {
  readonly #values = new Map<string, string>();

  constructor(init: Record<string, string> = {}) {
    for (const name in init) this.set(name, init[name] as string);
  }

  get(name: string): string | null {
    return this.#values.get(lowerCaseName(name)) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(lowerCaseName(name));
  }

  set(name: string, value: string): void {
    this.#values.set(lowerCaseName(name), value);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}

/**
 * An API response as the API makes it: a status, headers and the JSON text (or
 * no body). The front server writes it to the socket as it is, with no body
 * stream; Astro's route (`astro dev`) and tests turn it into a Response.
 */
export class ApiResponse {
  readonly status: number;
  readonly headers: ApiResponseHeaders;
  readonly body: string | null;

  constructor(status: number, headers: Record<string, string>, body: string | null) {
    this.status = status;
    this.headers = new ApiResponseHeaders(headers);
    this.body = body;
  }

  toResponse(): Response {
    return new Response(this.body, { status: this.status, headers: [...this.headers.entries()] });
  }
}
