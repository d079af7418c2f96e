import type { z } from 'zod';
import type { identityDocument } from '../api/answers.ts';
import { DOCUMENT_PATHS } from './paths.ts';

/** GET /api/agent/identity (contract §3): there is no authentication, and anonymous is the only identity. */
export function agentIdentity(site: string): z.output<typeof identityDocument> {
  return { identity_types_supported: ['anonymous'], authentication: 'none', documentation: `${site}${DOCUMENT_PATHS.auth}` };
}
