/**
 * The owner's blocks of fediverse instances (docs/owner.md, "The
 * fediverse"), where activities come in: an inbox POST signed with a key of
 * a blocked instance is refused 403 before its signature is checked or its
 * body parsed, and an activity whose actor is on a blocked instance (one
 * forwarded by another server) is dropped by its listener. The deliverer
 * asks the store the same question for each host it sends to.
 */
import type { InboxContext, InboxListener } from '@fedify/fedify';
import type { Activity } from '@fedify/vocab';
import type { FederationData } from './data.ts';

/** The key id an inbox POST is signed with: draft-cavage's `Signature`, or RFC 9421's `Signature-Input`. */
const KEY_ID = /\bkeyid="([^"]+)"/i;

/** The host of the key a request is signed with; null when it names none. */
function signingHost(request: Request): string | null {
  const header = request.headers.get('signature') ?? request.headers.get('signature-input') ?? '';
  const keyId = KEY_ID.exec(header)?.[1];
  return keyId === undefined ? null : (URL.parse(keyId)?.hostname ?? null);
}

/** Whether `request` is an inbox POST signed by a blocked instance. */
export async function fromBlockedInstance(data: FederationData, request: Request): Promise<boolean> {
  if (request.method !== 'POST') return false;
  const host = signingHost(request);
  return host !== null && (await data.store.isInstanceBlocked(host));
}

/** The 403 a blocked instance's inbox POST is answered. */
export function blockedAnswer(): Response {
  return new Response('This instance is blocked here', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** `listener`, run only for an activity whose actor is on no blocked instance. */
export function unlessBlocked<Kind extends Activity>(listener: InboxListener<FederationData, Kind>): InboxListener<FederationData, Kind> {
  return async (ctx: InboxContext<FederationData>, activity: Kind) => {
    const host = activity.actorId?.hostname;
    if (host === undefined || (await ctx.data.store.isInstanceBlocked(host))) return;
    await listener(ctx, activity);
  };
}
