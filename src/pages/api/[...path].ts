import type { APIRoute } from 'astro';
import { dispatchApi } from '../../server/api/dispatch.ts';
import { apiRequestOf } from '../../server/api-frame/api-request.ts';
import { apiServices } from '../../site/api-services.ts';

export const prerender = false;

/** Every `/api` request under `astro dev`; the front server dispatches the same registry itself. */
export const ALL: APIRoute = async ({ request, clientAddress }) =>
  (await dispatchApi({ request: apiRequestOf(request), socketAddress: clientAddress, services: apiServices })).toResponse();
