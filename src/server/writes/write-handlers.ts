import { todayUtc, type PublishedView } from '../articles/catalog.ts';
import type { ApiResponse } from '../api-frame/api-response.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { runWrite, type WriteOperation, type WriteRequest } from './pipeline.ts';

/** A request to a reader endpoint, with what it needs from the process (the API registry's services fit). */
export interface ReaderCall extends WriteRequest {
  services: {
    runtime(): Promise<Runtime>;
    published(): Promise<Pick<PublishedView, 'has'>>;
  };
}

/** What every reader endpoint needs: the runtime, and the articles published today. */
export interface ReaderServices {
  runtime: Runtime;
  published: Pick<PublishedView, 'has'>;
}

/** The reader services last worked out for each set of services, and the day their published articles are of. */
const knownServices = new WeakMap<ReaderCall['services'], ReaderServices & { day: string }>();

/** The runtime and today's articles, which every reader endpoint needs. */
export async function readerServices(services: ReaderCall['services']): Promise<ReaderServices> {
  const day = todayUtc();
  const known = { runtime: await services.runtime(), published: await services.published(), day };
  knownServices.set(services, known);
  return known;
}

/**
 * The reader services as readerServices last resolved them, while their day
 * lasts; undefined before, or once the day changed. For a read that answers
 * without waiting when all it needs is in memory (the caller's votes).
 */
export function readerServicesAtHand(services: ReaderCall['services']): ReaderServices | undefined {
  const known = knownServices.get(services);
  return known?.day === todayUtc() ? known : undefined;
}

/** The handler of a write operation: the one pipeline, against the articles published now. */
export function writeHandler<Input>(operation: WriteOperation<Input>) {
  // The call is handed on whole, services included: an object rest (`{ services, ...write }`) copies it on V8's slow path.
  return async (write: ReaderCall): Promise<ApiResponse> => {
    const { runtime, published } = await readerServices(write.services);
    return runWrite(write, runtime, operation, (slug) => published.has(slug));
  };
}
