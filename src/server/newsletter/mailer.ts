/**
 * The newsletter's way out: one email to one subscriber over the SMTP server
 * of SMTP_URL, from NEWSLETTER_FROM, on a connection kept open between
 * emails. nodemailer is loaded only for a site whose newsletter is on. A send rejects when the server did not accept the
 * message, or at once when `signal` aborts.
 */

/**
 * An article's email's list headers: `List-Unsubscribe` (its URLs in one
 * header) and `List-Id` by nodemailer's `list` option, and with them
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), which
 * says the HTTPS URL unsubscribes at a POST.
 */
interface ListHeaders {
  unsubscribe: string[];
  id: { url: string; comment: string };
}

export interface NewsletterEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  list?: ListHeaders;
}

type SendNewsletterEmail = (email: NewsletterEmail, signal: AbortSignal) => Promise<void>;

export interface Mailer {
  send: SendNewsletterEmail;
  close: () => void;
}

export async function newsletterMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const { createTransport } = await import('nodemailer');
  // One connection kept and reused (nodemailer's pool), where a connection an email would cost each its handshake (and
  // TLS's), which alone holds a sender far below NEWSLETTER_RATE's 6000 a minute. A `pool=` in SMTP_URL still decides.
  const transport = createTransport({ url: smtpUrl, pool: true });
  return {
    send: async ({ to, subject, text, html, list }, signal) => {
      const listed = list
        ? { list: { unsubscribe: [list.unsubscribe], id: list.id }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
        : {};
      await transport.sendMail({ from, to, subject, text, html, signal, ...listed });
    },
    close: () => {
      transport.close();
    },
  };
}
