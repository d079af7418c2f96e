import type { OperationDefinition } from '../server/api/definition.ts';
import { OPERATIONS } from '../server/api/registry.ts';
import { NEWSLETTER_PATHS } from '../server/http/site-paths.ts';

/**
 * WebMCP's declarative attributes of the site's forms, so that a browser's
 * agent can fill and send them in the reader's own browser: each form is the
 * tool of the write it sends, described with the registry's words (its
 * summary and description, each field's meaning), like /openapi.json.
 * Forms carry no `toolautosubmit`: a write in the reader's name is sent by
 * the reader's own click.
 */

function operation(operationId: string): OperationDefinition {
  const found = OPERATIONS.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId}`);
  return found;
}

/** The id of the empty form every page has, which the honeypots belong to (FormChecks.astro): no tool's field. */
export const FORM_TRAPS = 'form-traps';

/** A form's `toolname` and `tooldescription`: the write's summary and description, and what the form adds. */
export function formTool(operationId: string, toolname: string, more = ''): { toolname: string; tooldescription: string } {
  const { summary, description } = operation(operationId);
  return { toolname, tooldescription: [`${summary}.`, description, more].filter(Boolean).join(' ') };
}

/** The `toolparamdescription` of each field of a form that sends `operationId`: what the registry says the field means. */
export function fieldTools(operationId: string): (field: string) => { toolparamdescription: string } {
  const { fields } = operation(operationId);
  return (field) => {
    const about = fields[field];
    if (about === undefined) throw new Error(`${operationId} has no field ${field}`);
    return { toolparamdescription: about };
  };
}

/**
 * The newsletter's subscribe form (SubscribeForm.astro): where it posts,
 * outside the API, and its tool, described here since no operation of the
 * registry sends it. The attributes are a new object each call, as above:
 * Astro adds its scope's class to an object spread on an element.
 */
export const SUBSCRIBE_FORM = {
  action: NEWSLETTER_PATHS.subscribe,
  tool: () => ({
    toolname: 'subscribe_newsletter',
    tooldescription:
      'Subscribe an email address to each new article in this page’s language. The site first sends a confirmation email; nothing more is sent until its link is opened and its button pressed.',
  }),
  email: () => ({ toolparamdescription: 'The reader’s email address, which receives the confirmation email and then each new article.' }),
};
