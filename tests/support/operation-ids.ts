import { OPERATIONS } from '../../src/server/api/registry.ts';

/** Every operation id of the registry: what the served documents must list. */
export const OPERATION_IDS = OPERATIONS.map(({ operationId }) => operationId);
