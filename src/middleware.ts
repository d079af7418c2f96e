import { defineMiddleware } from 'astro:middleware';
import { operationAt } from './server/api/operations.ts';
import { isApiPath, withApiFrame } from './server/http/api-frame.ts';

// Content negotiation and static headers live in the front server (src/server/front),
// which also sees the prerendered pages that middleware never does at run time.
export const onRequest = defineMiddleware(({ url, request }, next) => {
  const { pathname } = url;
  return isApiPath(pathname) ? withApiFrame(next, operationAt(request.method, pathname)) : next();
});
