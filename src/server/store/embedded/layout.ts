import { join } from 'node:path';

/** Where each part of the embedded store lives under its data directory (see engine.ts for what each file holds). */
export interface StoreLayout {
  root: string;
  articles: string;
  journal: string;
  topicRequests: string;
  bugReports: string;
  citySubmissions: string;
  bans: string;
  /** Moderation links used, until they expire. */
  spentLinks: string;
  /** Notifications waiting to be sent. */
  outbox: string;
  /** Article translations as they became visible. */
  appearances: string;
  /** The newsletter's subscribers. */
  subscribers: string;
  /** The newsletter's emails, one per appearance and subscriber, sent or waiting. */
  newsletterIssues: string;
  /** The federation's deliveries, one per activity and inbox, settled or waiting. */
  deliveries: string;
  /** Webmentions received and sent. */
  mentions: string;
  /** The generated IP-hash salt. */
  salt: string;
  /** The followers of the federation's actors (followers.ts). */
  followers: string;
  /** Locked by the process that has the store open (lock.ts). */
  lock: string;
  /** The process id file earlier versions locked with, removed once the lock is held. */
  legacyLock: string;
}

export function storeLayout(dataDir: string): StoreLayout {
  return {
    root: dataDir,
    articles: join(dataDir, 'articles'),
    journal: join(dataDir, 'journal'),
    topicRequests: join(dataDir, 'topic-requests.json'),
    bugReports: join(dataDir, 'bug-reports.json'),
    citySubmissions: join(dataDir, 'city-submissions.json'),
    bans: join(dataDir, 'bans.json'),
    spentLinks: join(dataDir, 'spent-links.json'),
    outbox: join(dataDir, 'outbox.json'),
    appearances: join(dataDir, 'appearances.json'),
    subscribers: join(dataDir, 'subscribers.json'),
    newsletterIssues: join(dataDir, 'newsletter-issues.json'),
    deliveries: join(dataDir, 'deliveries.json'),
    mentions: join(dataDir, 'mentions.json'),
    salt: join(dataDir, 'ip-hash-salt'),
    followers: join(dataDir, 'followers.json'),
    lock: join(dataDir, 'store.lock'),
    legacyLock: join(dataDir, 'lock'),
  };
}

/** Matches an article snapshot's file name and captures its slug. */
export const ARTICLE_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.json$/;

export function articleFile(layout: StoreLayout, slug: string): string {
  return join(layout.articles, `${slug}.json`);
}

/** The file that keeps the secret `name` (StoreLifecycle's keptSecret): `secret-<name>`. */
export function secretFile(layout: StoreLayout, name: string): string {
  return join(layout.root, `secret-${name}`);
}

/** Matches a kept secret's file name and captures its name. */
export const SECRET_FILE = /^secret-([a-z0-9]+(?:-[a-z0-9]+)*)$/;
