import { DOCUMENT_PATHS } from '../http/site-paths.ts';

/** /.well-known/api-catalog (RFC 9727): a linkset naming the API's description and its documentation. */
export function apiCatalog(site: string) {
  return {
    linkset: [
      {
        anchor: `${site}/api`,
        'service-desc': [{ href: `${site}${DOCUMENT_PATHS.openapi}`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
        'service-doc': [{ href: `${site}${DOCUMENT_PATHS.developers}`, type: 'text/html' }],
      },
    ],
  };
}
