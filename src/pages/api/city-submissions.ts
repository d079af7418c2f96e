import type { APIRoute } from 'astro';
import { findCity, knownCountryCodes } from '../../server/cities/find-city.ts';
import { methodNotAllowed } from '../../server/http/api-frame.ts';
import { createCitySubmission } from '../../server/writes/operations.ts';
import { runWrite } from '../../server/writes/pipeline.ts';
import { writeRuntime } from '../../server/writes/runtime.ts';

export const prerender = false;

const submitCity = createCitySubmission(
  (lookup) => findCity(lookup),
  (code) => knownCountryCodes().includes(code),
);

export const POST: APIRoute = async ({ request, clientAddress }) =>
  runWrite({ request, socketAddress: clientAddress }, await writeRuntime(), submitCity);

export const ALL = methodNotAllowed(['POST']);
