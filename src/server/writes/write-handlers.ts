import type { PublishedView } from '../articles/catalog.ts';
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

/** The runtime and today's articles, which every reader endpoint needs. */
export async function readerServices(
  services: ReaderCall['services'],
): Promise<{ runtime: Runtime; published: Pick<PublishedView, 'has'> }> {
  const runtime = await services.runtime();
  return { runtime, published: await services.published() };
}

/** The handler of a write operation: the one pipeline, against the articles published now. */
export function writeHandler<Input>(operation: WriteOperation<Input>) {
  // The call is handed on whole, services included: an object rest (`{ services, ...write }`) copies it on V8's slow path.
  return async (write: ReaderCall): Promise<ApiResponse> => {
    const { runtime, published } = await readerServices(write.services);
    return runWrite(write, runtime, operation, (slug) => published.has(slug));
  };
}
