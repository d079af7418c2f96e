// Run by the bench as a process of its own: the local SMTP server and webhook
// receiver the site under load notifies (tests/support/notification-sinks.ts).
// Apart from the load generator, so that reading an email or a webhook never
// holds up the requests the bench times. Prints `sinks <smtp port> <webhook url>`
// once both listen, and runs until stopped.
import { startSmtp, startWebhookReceiver } from '../tests/support/notification-sinks.ts';

const [smtp, webhook] = await Promise.all([startSmtp(), startWebhookReceiver()]);
console.log(`sinks ${smtp.port} ${webhook.url}`);
