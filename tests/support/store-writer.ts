// Run by the store tests as a child process to be killed mid-write:
// `node tests/support/store-writer.ts <dataDir> <compactAfterBytes>` opens the
// embedded store and writes from several loops until killed, printing one line
// per acknowledged write: `comment <slug> <id>`, `vote <slug> <voter>` (an up
// vote on the article) or `topic <id>`. Standard output is a pipe, written
// synchronously, so a printed line was acknowledged before the kill.
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';

const [dataDir, compactAfterBytes] = process.argv.slice(2);
if (!dataDir || !compactAfterBytes) throw new Error('usage: store-writer.ts <dataDir> <compactAfterBytes>');

const store = await openEmbeddedStore(dataDir, { compactAfterBytes: Number(compactAfterBytes) });
const LOOPS = 20;
const ARTICLES = 5;

async function writeForever(loop: number): Promise<never> {
  for (let round = 0; ; round += 1) {
    const articleSlug = `article-${(loop + round) % ARTICLES}`;
    const kind = round % 10;
    if (kind === 9) {
      const request = await store.insertTopicRequest({ requestTitle: `Topic ${loop}.${round}`, details: null, authorHash: 'writer' });
      process.stdout.write(`topic ${request.id}\n`);
    } else if (kind === 8) {
      const voter = `voter-${loop}-${round}`;
      await store.applyVote({ articleSlug, commentId: null }, voter, () => 1);
      process.stdout.write(`vote ${articleSlug} ${voter}\n`);
    } else {
      const comment = await store.insertComment({
        articleSlug,
        parentId: null,
        depth: 1,
        author: 'Teal heron',
        authorHash: 'writer',
        body: `Loop ${loop}, round ${round}: `.padEnd(300, '.'),
        status: 'published',
      });
      process.stdout.write(`comment ${articleSlug} ${comment.id}\n`);
    }
  }
}

await Promise.all(Array.from({ length: LOOPS }, (_, loop) => writeForever(loop)));
