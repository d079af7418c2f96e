/** One published version of the API. */
export interface ChangelogEntry {
  version: string;
  /** YYYY-MM-DD */
  date: string;
  /** Markdown, one change each. */
  changes: readonly string[];
}

/** The API's versions, newest first: the first is API_VERSION, which a unit test checks. */
export const CHANGELOG: readonly ChangelogEntry[] = [
  {
    version: '1.7.0',
    date: '2026-11-28',
    changes: [
      'A comment may have been imported by the site’s owner from another comment system (Disqus, WordPress, Remark42, Isso or Artalk): it then carries the new optional field `importedFrom` (`disqus`, `wordpress`, `remark42`, `isso`, `artalk`), and `author` holds the name its author gave there instead of a colour-and-animal name.',
      'A comment whose author has a page of their own carries the new optional field `authorUrl`: a fediverse reply’s profile (the same as `remote.profile`), or the website an imported comment’s author gave. `author` stays a string. The site’s own readers’ comments are as before, without either field.',
      'Additive only: a client of 1.6.0 reads every answer as before.',
    ],
  },
  {
    version: '1.6.0',
    date: '2026-11-27',
    changes: [
      'A comment may be a reply from the fediverse (ActivityPub, where the site federates): it then carries the new optional field `remote`, with the remote post (`object`), its author’s actor (`actor`) and the profile page readers are linked to (`profile`), and `author` holds their display name and handle (`Alice (@alice@social.example)`) instead of a colour-and-animal name. The site’s own readers’ comments are as before, without the field.',
      'Additive only: a client of 1.5.0 reads every answer as before.',
    ],
  },
  {
    version: '1.5.0',
    date: '2026-11-27',
    changes: [
      '`createTopicRequest` answers the new field `status`: `pending` when the request is listed on /answers at once, `waiting` when it waits for the owner’s approval (MODERATION `first`: a reader’s requests until one of their comments or requests was published; `all`: every request). A waiting request is listed nowhere (`listTopicRequests`, /answers, its Markdown twin, the MCP tool `list_topic_requests`) until the owner approves it; removed, it is gone.',
      '`createTopicRequest` answers 400 with `code` `too_many_links` when its title and details together hold more than 3 links, as `createComment` does.',
      'Additive only: a client of 1.4.0 reads every answer as before.',
    ],
  },
  {
    version: '1.4.0',
    date: '2026-11-26',
    changes: [
      '`createComment` answers the new field `status`: `published`, or `pending` where the site holds comments for the owner’s approval (MODERATION `first`: a reader’s comments until one was published; `all`: every comment). A pending comment is shown to no one but its writer: not in the thread, its count, the feeds or the Markdown twins; a reply to it answers 400 and a vote on it 404, as for a comment that does not exist. Once approved it appears as posted; rejected, it is gone.',
      '`createComment`, `createTopicRequest`, `createBugReport` and `createCitySubmission` take two new optional fields, which the site’s forms send: `formStamp` (what the new GET /form-stamp, outside the API, answered when the form was shown) and `honeypot` (a field people leave empty). A filled honeypot, a stamp the site did not sign, or a write sent a few seconds after its stamp or sooner answers 400; a write without them is taken as before.',
      '`createComment` answers 400 for a comment with more than 3 links, or with the same text as the reader’s previous comment.',
      'These 400s, and a missing or rejected `captchaToken`, carry the new field `code` beside `error` (`honeypot`, `too_fast`, `form_stamp`, `too_many_links`, `repeated_comment`, `captcha_missing`, `captcha_rejected`), so that a form can say why in its reader’s language.',
      'The captcha may be ALTCHA, self-hosted proof of work: `captchaToken` then carries the widget’s payload for a challenge from GET /captcha/challenge (outside the API), good for one write. The field and its 400s are unchanged.',
      'Additive only: a client of 1.3.0 reads every answer as before.',
    ],
  },
  {
    version: '1.3.0',
    date: '2026-11-25',
    changes: [
      '`getArticles` gives each article, listed or read alone, the new field `outdated`: true for a translation whose English original has changed since it was translated, false otherwise (always false in English, and where an untranslated article is given in English).',
      'Additive only: a client of 1.2.1 reads every answer as before.',
    ],
  },
  {
    version: '1.2.1',
    date: '2026-11-25',
    changes: [
      'Every text field of a write (`body`, `requestTitle`, `details`, `description`, `city`, `cityId`, `articleSlug`, `parentId`, `commentId`) answers 400 naming the field when it holds a control character other than newline and tab, a lone surrogate, or nothing visible once zero-width and direction characters are set aside. A carriage return is read as a newline. Such text was stored on one store and failed with 500 on the other.',
      'A caller on IPv6 is known by its /64: the same name, votes, quotas and ban for every address in it. An IPv4-mapped address is the IPv4 caller.',
      'No field or parameter changed.',
    ],
  },
  {
    version: '1.2.0',
    date: '2026-11-25',
    changes: [
      'The site’s owner can delete a comment: it stays in its thread as a placeholder, so its replies keep their place. `createComment` with a deleted comment as `parentId` answers 400, and `castVote` on it 404, as for a comment that does not exist.',
      'The owner can ban a reader: every write of theirs answers 429, as during the burst ban, with `Retry-After` set to the burst ban’s 48 hours, until the owner lifts it.',
      'Topic requests the owner answered link to the article on `/answers`; declined ones say so.',
      'No field or parameter changed: a client of 1.1.0 reads every answer as before.',
    ],
  },
  {
    version: '1.1.0',
    date: '2026-11-24',
    changes: [
      '`searchCities` also finds cities by their other names, in every script (München, Cologne, 東京, Москва, ميونخ, 뮌헨, मुंबई): when the main names match fewer than 8 cities, the list is filled with cities matching on another name, by the same tiers, and such a result carries the new field `matchedName`. Ranking on main names is unchanged.',
      '`searchCities` takes the new optional parameter `lang` (one of the fifteen codes, English by default): `countryName` is given in that language.',
      'Additive only: a client of 1.0.0 reads every answer as before.',
    ],
  },
  {
    version: '1.0.0',
    date: '2026-11-22',
    changes: [
      'First stable version, without authentication: articles (`getArticles`), city search (`searchCities`) and the identity document (`getAgentIdentity`) to read; comments, votes, topic requests, bug reports and city submissions to write from the site’s own pages.',
      'Every answer carries `API-Version` and `RateLimit-Policy`; writes carry their `RateLimit` headers, and every error is JSON.',
      'Discovery documents: /openapi.json, /llms.txt, /agents.md, /auth.md, the OAuth metadata and API catalog under /.well-known/, and this page.',
    ],
  },
];
