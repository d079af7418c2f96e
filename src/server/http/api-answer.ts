/** Header names in lower case, as HTTP compares them. */
export class AnswerHeaders {
  readonly #values = new Map<string, string>();

  constructor(init: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(init)) this.set(name, value);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), value);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}

/**
 * An API answer as the API makes it: a status, headers and the JSON text (or
 * no body). The front server writes it to the socket as it is: a web Response
 * would cost a body stream per answer, more than the rest of a small read.
 * Astro's route (`astro dev`) and tests turn it into a Response.
 */
export class ApiAnswer {
  readonly status: number;
  readonly headers: AnswerHeaders;
  readonly body: string | null;

  constructor(status: number, headers: Record<string, string>, body: string | null) {
    this.status = status;
    this.headers = new AnswerHeaders(headers);
    this.body = body;
  }

  toResponse(): Response {
    return new Response(this.body, { status: this.status, headers: [...this.headers.entries()] });
  }
}
