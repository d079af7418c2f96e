import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { request, type Answer } from '../support/http.ts';
import { startSmtp } from '../support/notification-sinks.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const ORIGIN = 'http://localhost:4321';
const LEAVING = 'leaving.reader@example.test';
const STAYING = 'staying.reader@example.test';

for (const engine of ['embedded', 'PostgreSQL'] as const) {
  describe(`the desk removes a newsletter address on the ${engine} store`, () => {
    test('from its own page only, saying what it did without the address, and the address’s link then finds no one', async () => {
      const smtp = await startSmtp();
      const port = await freePort();
      const store = engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('newsletter_desk') } : {};
      const site = await startSite(PREPARED_SITE, {
        ...store,
        NEWSLETTER: 'on',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        NEWSLETTER_FROM: 'news@example.test',
        OWNER_PORT: String(port),
      });
      const desk = `http://127.0.0.1:${port}`;
      const remove = (email: string, origin: string | null = desk): Promise<Answer> =>
        request(`${desk}/subscribers/remove`, {
          method: 'POST',
          headers: { ...(origin ? { Origin: origin } : {}), 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ back: '/requests', email }).toString(),
        });
      try {
        await site.printed(/The owner's desk at/);
        for (const [email, lang] of [
          [LEAVING, 'fr'],
          [STAYING, 'de'],
        ] as const) {
          const asked = await request(`${site.url}/subscribe`, {
            method: 'POST',
            headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
            body: JSON.stringify({ email, lang }),
          });
          assert.equal(asked.status, 202);
        }
        await until(() => smtp.messages.length === 2, 'both confirmation emails');
        const leavingMail = smtp.messages.find((message) => message.includes(`To: ${LEAVING}`)) ?? '';
        const confirmLink = /http:\/\/localhost:4321(\/newsletter\/confirm\/[A-Za-z0-9_~.-]+)/.exec(leavingMail)?.[1] ?? '';
        assert.equal((await request(`${site.url}${confirmLink}`)).status, 200, 'the link finds its subscriber');

        const page = await request(`${desk}/requests`);
        assert.match(page.text, /<form class="answer" method="post" action="\/subscribers\/remove">/);
        assert.match(page.text, /<input name="email" type="email" required autocomplete="off"/);
        assert.match(page.text, /<dd>fr 0 \(1 pending\), de 0 \(1 pending\)<\/dd>|<dd>de 0 \(1 pending\), fr 0 \(1 pending\)<\/dd>/);

        assert.equal((await remove(LEAVING, 'https://attacker.example')).status, 403, 'another origin');
        assert.equal((await remove(LEAVING, null)).status, 403, 'no Origin');
        assert.equal((await request(`${site.url}${confirmLink}`)).status, 200, 'nothing removed');

        const removed = await remove(` ${LEAVING.toUpperCase()} `);
        assert.equal(removed.status, 303);
        const location = removed.headers.location ?? '';
        assert.match(location, /^\/requests\?done=/);
        assert.equal(new URL(location, desk).searchParams.get('done'), 'The address is removed, and its emails not sent yet with it');
        assert.ok(!location.toLowerCase().includes('leaving'), 'the address is not in the URL it comes back to');
        const shown = await request(`${desk}${location}`);
        assert.match(shown.text, /<dd>de 0 \(1 pending\)<\/dd>/, 'the other address stays');
        assert.ok(!shown.text.includes(LEAVING), 'nor on the page');
        assert.equal((await request(`${site.url}${confirmLink}`)).status, 404, 'the address’s link finds no one');

        const again = await remove(LEAVING);
        assert.equal(new URL(again.headers.location ?? '', desk).searchParams.get('failed'), 'No subscriber has that address');
        assert.equal((await remove('')).status, 303, 'an empty address is no one’s');
        assert.ok(!/leaving\.reader|staying\.reader/i.test(site.output()), 'no address in the server’s output');
      } finally {
        await site.stop();
        await smtp.stop();
      }
    });
  });
}
