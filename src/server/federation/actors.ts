import type { Federation } from '@fedify/fedify';
import { Endpoints, Image, Service } from '@fedify/vocab';
import { isLanguageCode } from '../../i18n/languages.ts';
import { homePath } from '../http/site-paths.ts';
import { publicationIn, type FederationData } from './data.ts';
import { keptKeyPairs } from './keys.ts';
import { FEDERATION_PATHS } from './paths.ts';

/**
 * One actor a language, `<code>@<host>`, whose identifier is its language
 * code. A `Service`, not a `Person`: it is the publication, no one person,
 * and it posts what the site publishes; nobody reads what is sent to it as
 * a message, which Mastodon's "automated" mark tells a follower.
 */
export function setActors(federation: Federation<FederationData>): void {
  federation
    .setActorDispatcher(FEDERATION_PATHS.actor, async (ctx, identifier) => {
      if (!isLanguageCode(identifier)) return null;
      const { name, summary, icon } = publicationIn(ctx.data, identifier);
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Service({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name,
        summary,
        icon: new Image({ url: icon, mediaType: 'image/png' }),
        url: new URL(homePath(identifier), ctx.data.site),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        manuallyApprovesFollowers: false,
        discoverable: true,
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
      });
    })
    .mapHandle((_ctx, username) => (isLanguageCode(username) ? username : null))
    .setKeyPairsDispatcher(async (ctx, identifier) => (isLanguageCode(identifier) ? keptKeyPairs(ctx.data.store) : []));
}
