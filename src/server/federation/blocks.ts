/**
 * The owner's blocks of fediverse instances (docs/owner.md, "Federation")
 * in the inbox's listeners: an activity whose actor is on a blocked
 * instance (one forwarded by another server) is dropped. An inbox POST
 * signed with a blocked instance's key never reaches them (inbox-gate.ts);
 * the deliverer asks the store the same question for each host it sends to.
 */
import type { InboxContext, InboxListener } from '@fedify/fedify';
import type { Activity } from '@fedify/vocab';
import type { FederationData } from './data.ts';

/** `listener`, run only for an activity whose actor is on no blocked instance. */
export function unlessBlocked<Kind extends Activity>(listener: InboxListener<FederationData, Kind>): InboxListener<FederationData, Kind> {
  return async (ctx: InboxContext<FederationData>, activity: Kind) => {
    const host = activity.actorId?.hostname;
    if (host === undefined || (await ctx.data.store.isInstanceBlocked(host))) return;
    await listener(ctx, activity);
  };
}
