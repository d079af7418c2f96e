import { DOCUMENT_PATHS } from '../http/site-paths.ts';

/** The identity document: there is no authentication, and anonymous is the only identity. */
export interface AgentIdentity {
  identity_types_supported: ['anonymous'];
  authentication: 'none';
  documentation: string;
}

/** GET /api/agent/identity's answer, as its registry entry (getAgentIdentity) documents it. */
export function agentIdentity(site: string): AgentIdentity {
  return { identity_types_supported: ['anonymous'], authentication: 'none', documentation: `${site}${DOCUMENT_PATHS.auth}` };
}
