import { agentIdentity } from './agent-identity.ts';
import type { SiteFacts } from './site-facts.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';

/** What both metadata documents say about identity: anonymous only, and where to read more. */
function agentAuth(site: string) {
  const identity = agentIdentity(site);
  return {
    identity_types_supported: identity.identity_types_supported,
    identity_endpoint: `${site}${DOCUMENT_PATHS.identity}`,
    authentication: identity.authentication,
    documentation: identity.documentation,
  };
}

/**
 * /.well-known/oauth-protected-resource (RFC 9728): the API is a resource
 * that takes no token, so every list of methods, scopes and servers is empty.
 */
export function protectedResourceMetadata({ site, name }: Pick<SiteFacts, 'site' | 'name'>) {
  return {
    resource: site,
    resource_name: `${name} API`,
    resource_documentation: `${site}${DOCUMENT_PATHS.auth}`,
    authorization_servers: [],
    bearer_methods_supported: [],
    scopes_supported: [],
    grant_types_supported: [],
    agent_auth: agentAuth(site),
  };
}

/**
 * /.well-known/oauth-authorization-server (RFC 8414): there is no
 * authorization server, so it issues nothing and grants nothing; the one
 * endpoint it names is the identity endpoint, which says so.
 */
export function authorizationServerMetadata(site: string) {
  return {
    issuer: site,
    service_documentation: `${site}${DOCUMENT_PATHS.auth}`,
    response_types_supported: [],
    grant_types_supported: [],
    token_endpoint_auth_methods_supported: [],
    bearer_methods_supported: [],
    scopes_supported: [],
    agent_auth: agentAuth(site),
  };
}
