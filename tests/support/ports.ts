export { freePort } from '../../scripts/test-services.ts';
