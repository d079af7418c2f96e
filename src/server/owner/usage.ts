/** What `npm run data -- --help` prints. */
export const USAGE = `The owner's data tool: reads and changes the store the site uses.
It opens PostgreSQL when DATABASE_URL is set, else the embedded store in DATA_DIR
(default data/store), which only one process may have open: stop the site first.

Usage: npm run data -- <command> [arguments]

  export [--out FILE]          Writes everything as JSON Lines to FILE, or to stdout.
  import [FILE]                Adds the records of an export (FILE, or stdin) that are not
                               there yet; importing the same file twice changes nothing.
  import --from SOURCE FILE [--map MAP] [--dry-run]
                               Adds the published comments of another system's export
                               (SOURCE: artalk, an Artrans JSON file; disqus, its XML export;
                               isso, its SQLite database; remark42, a backup file;
                               wordpress, a WXR file) to the articles their
                               pages were: /articles/SLUG, /LANG/articles/SLUG or /SLUG/, or
                               as MAP says (one "OLD-URL-OR-PATH SLUG" a line). Spam, deleted
                               and unapproved comments are skipped; emails and IP addresses
                               are not kept; importing it twice adds nothing. --dry-run
                               prints what would be imported, and writes nothing.
  review                       Lists what waits, oldest first: comments waiting for approval,
                               topic requests, bug reports, city submissions.
  review answer ID URL         Marks topic request ID answered by the article at URL
                               (https://… or a path such as /articles/night-trains).
  review decline ID            Marks topic request ID declined.
  review done ID               Takes bug report or city submission ID off the list.
  approve ID                   Publishes comment ID, which waited for approval (MODERATION).
  delete-comment ID            Empties the comment and shows it as deleted; its replies stay.
                               A comment waiting for approval is removed outright.
  ban READER                   Refuses every write of READER (429) until unban. READER is
                               the hash, the id of one of the reader's comments, or the
                               colour-and-animal name shown by a comment, in any of the
                               site's languages.
  unban READER                 Lifts the ban.
  block-instance HOST          Blocks a fediverse instance and the hosts under it: nothing
                               from it is taken, nothing is sent to it, its followers are
                               removed. HOST is a host name, an address or a handle on it.
  unblock-instance HOST        Lifts the block.
  blocked-instances            Lists the blocked instances.
  mentions                     Lists the Webmentions received: status (unverified, waiting,
                               published), kind, source and target.
  approve-mention SOURCE TARGET
                               Shows a Webmention that waits for approval (MODERATION).
  delete-mention SOURCE TARGET Removes a Webmention; sent again, it is verified again.
  stats                        Counts what the store holds.
  --help                       Prints this.

Exit codes: 0 done, 1 failed (nothing found, bad input, store unreachable), 2 wrong usage.
`;
