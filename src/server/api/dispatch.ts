import type { ApiResponse } from '../api-frame/api-response.ts';
import { methodNotAllowed, withApiFrame } from '../api-frame/frame.ts';
import { unknownApiPath } from '../api-frame/server-errors.ts';
import type { ApiCall, OperationDefinition } from './definition.ts';
import { allowedMethods, operationAt, OPERATIONS } from './registry.ts';

/**
 * Answers every `/api` request from the registry, inside the one API frame:
 * the operation's handler; 405 with `Allow` when other methods serve the
 * path; the extended 404 when nothing does. The Astro catch-all route and the
 * front server both call it. A handler that answers at once (a read with
 * everything it needs in memory) is answered at once.
 */
export function dispatchApi(call: ApiCall, operations: readonly OperationDefinition[] = OPERATIONS): ApiResponse | Promise<ApiResponse> {
  const { pathname } = call.request.url;
  const operation = operationAt(call.request.method, pathname, operations);
  return withApiFrame(() => {
    if (operation) return operation.handle(call);
    const allowed = allowedMethods(pathname, operations);
    return allowed.length > 0 ? methodNotAllowed(allowed) : unknownApiPath(call.services.site, pathname);
  }, operation);
}
