/** The store contract's followers and kept secrets: what the federation keeps (src/server/federation/). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NewFollower } from '../../src/server/store/types.ts';
import { collect, newComment, replay, type ContractStores } from './store-contract-kit.ts';

function remote(name: string, lang: NewFollower['lang'] = 'en', host = 'social.example'): NewFollower {
  return {
    lang,
    actorId: `https://${host}/users/${name}`,
    inbox: `https://${host}/users/${name}/inbox`,
    sharedInbox: `https://${host}/inbox`,
  };
}

export function followersKept({ harness, freshStore }: ContractStores): void {
  test('followers are kept per language, listed oldest first, counted, and removed', async (t) => {
    const store = await freshStore(t);
    assert.equal(await store.addFollower(remote('ann')), true);
    assert.equal(await store.addFollower(remote('bob')), true);
    assert.equal(await store.addFollower(remote('ann', 'fr')), true);
    const [ann] = await store.listFollowers('en', 0, 1);
    assert.equal(await store.addFollower({ ...remote('ann'), sharedInbox: null }), false, 'a follow again is no new follower');
    assert.equal(await store.followerCount('en'), 2);
    assert.equal(await store.followerCount('fr'), 1);
    assert.equal(await store.followerCount('de'), 0);
    const english = await store.listFollowers('en', 0, 10);
    assert.deepEqual(
      english.map((follower) => [follower.actorId, follower.sharedInbox]),
      [
        [remote('ann').actorId, null],
        [remote('bob').actorId, remote('bob').sharedInbox],
      ],
    );
    assert.equal(english[0]?.followedAt, ann?.followedAt, 'a follow again keeps when it first followed');
    assert.deepEqual(
      (await store.listFollowers('en', 1, 10)).map((follower) => follower.actorId),
      [remote('bob').actorId],
    );
    assert.equal(await store.removeFollower('en', remote('ann').actorId), true);
    assert.equal(await store.removeFollower('en', remote('ann').actorId), false);
    assert.equal(await store.followerCount('en'), 1);
    assert.equal(await store.followerCount('fr'), 1, 'another language keeps its own');
  });

  test('followers and kept secrets outlast a reopening, a secret made once however many ask', async () => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    let made = 0;
    const make = () => Promise.resolve(`key-${++made}`);
    const [first, second] = await Promise.all([store.keptSecret('federation-keys', make), store.keptSecret('federation-keys', make)]);
    assert.equal(first, second);
    assert.notEqual(await store.keptSecret('other-key', make), first, 'each name keeps its own');
    await assert.rejects(store.keptSecret('Not a name', make));
    await store.addFollower(remote('ann', 'ja'));
    await store.close();
    const reopened = await harness.open(place);
    try {
      assert.equal(await reopened.keptSecret('federation-keys', make), first);
      assert.deepEqual(
        (await reopened.listFollowers('ja', 0, 10)).map((follower) => follower.inbox),
        [remote('ann').inbox],
      );
    } finally {
      await reopened.close();
    }
  });

  test('followers and secrets move with an export, and importing them twice changes nothing', async (t) => {
    const source = await freshStore(t);
    await source.keptSecret('federation-keys', () => 'the keys');
    await source.addFollower(remote('ann'));
    await source.addFollower(remote('bob', 'fr'));
    const exported = (await collect(source.exportRecords())).filter((record) => record.kind === 'secret' || record.kind === 'follower');
    assert.deepEqual(
      exported.map((record) => record.kind),
      ['secret', 'follower', 'follower'],
    );
    const target = await freshStore(t);
    assert.deepEqual(await target.importRecords(replay(exported)), { added: 3, skipped: 0 });
    assert.deepEqual(await target.importRecords(replay(exported)), { added: 0, skipped: 3 });
    assert.equal(await target.keptSecret('federation-keys', () => 'other keys'), 'the keys');
    assert.deepEqual(await target.listFollowers('fr', 0, 10), await source.listFollowers('fr', 0, 10));
    assert.equal(await target.followerCount('en'), 1);
  });

  test('a blocked instance loses its followers and those of the hosts under it, and outlasts a reopening and an export', async () => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    await store.addFollower(remote('ann', 'en', 'bad.example'));
    await store.addFollower(remote('bob', 'fr', 'eu.bad.example:8443'));
    await store.addFollower(remote('cat', 'en', 'notbad.example'));
    await store.addFollower(remote('dan'));
    assert.equal(await store.blockInstance('bad.example'), true);
    assert.equal(await store.blockInstance('bad.example'), false, 'blocked already');
    assert.deepEqual(
      (await store.listFollowers('en', 0, 10)).map((follower) => follower.actorId),
      [remote('cat', 'en', 'notbad.example').actorId, remote('dan').actorId],
      'a host that only ends alike keeps its followers',
    );
    assert.equal(await store.followerCount('fr'), 0, 'a host under the blocked one loses its own');
    for (const host of ['bad.example', 'eu.bad.example', 'a.b.bad.example']) assert.equal(await store.isInstanceBlocked(host), true, host);
    for (const host of ['notbad.example', 'example', 'social.example']) assert.equal(await store.isInstanceBlocked(host), false, host);
    await store.blockInstance('[::1]');
    await store.close();
    const reopened = await harness.open(place);
    try {
      assert.deepEqual(
        (await reopened.blockedInstances()).map((block) => block.host),
        ['[::1]', 'bad.example'],
      );
      const exported = (await collect(reopened.exportRecords())).filter((record) => record.kind === 'instanceBlock');
      assert.equal(exported.length, 2);
      assert.equal(await reopened.unblockInstance('bad.example'), true);
      assert.equal(await reopened.unblockInstance('bad.example'), false);
      assert.equal(await reopened.isInstanceBlocked('eu.bad.example'), false);
      assert.deepEqual(await reopened.importRecords(replay(exported)), { added: 1, skipped: 1 });
      assert.equal(await reopened.isInstanceBlocked('eu.bad.example'), true, 'imported again');
    } finally {
      await reopened.close();
    }
  });

  test('likes and boosts: one per actor and kind, counted, undone, moving the thread’s revision; kept and exported', async () => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    const ann = remote('ann').actorId;
    const bob = remote('bob').actorId;
    const before = await store.revision('thread:one');
    assert.equal(await store.setReaction({ articleSlug: 'one', kind: 'like', actorId: ann }, true), true);
    assert.notEqual(await store.revision('thread:one'), before, 'the thread’s render changes');
    assert.equal(await store.setReaction({ articleSlug: 'one', kind: 'like', actorId: ann }, true), false, 'one like an actor');
    await store.setReaction({ articleSlug: 'one', kind: 'boost', actorId: ann }, true);
    await store.setReaction({ articleSlug: 'one', kind: 'like', actorId: bob }, true);
    await store.setReaction({ articleSlug: 'two', kind: 'boost', actorId: bob }, true);
    assert.deepEqual(await store.reactionCounts('one'), { likes: 2, boosts: 1 });
    const unchanged = await store.revision('thread:one');
    assert.equal(await store.setReaction({ articleSlug: 'one', kind: 'boost', actorId: bob }, false), false, 'no boost to undo');
    assert.equal(await store.revision('thread:one'), unchanged, 'nothing changed, nothing to render again');
    assert.equal(await store.setReaction({ articleSlug: 'one', kind: 'like', actorId: ann }, false), true);
    assert.deepEqual(await store.reactionCounts('one'), { likes: 1, boosts: 1 });
    assert.deepEqual(await store.reactionCounts('three'), { likes: 0, boosts: 0 });
    await store.close();
    const reopened = await harness.open(place);
    try {
      assert.deepEqual(await reopened.reactionCounts('one'), { likes: 1, boosts: 1 });
      const exported = (await collect(reopened.exportRecords())).filter((record) => record.kind === 'reaction');
      assert.equal(exported.length, 3);
      const target = await harness.open(await harness.fresh());
      try {
        assert.deepEqual(await target.importRecords(replay(exported)), { added: 3, skipped: 0 });
        assert.deepEqual(await target.importRecords(replay(exported)), { added: 0, skipped: 3 });
        assert.deepEqual(await target.reactionCounts('one'), { likes: 1, boosts: 1 });
        assert.deepEqual(await target.reactionCounts('two'), { likes: 0, boosts: 1 });
      } finally {
        await target.close();
      }
    } finally {
      await reopened.close();
    }
  });

  test('a comment from a remote post is found by its id made from the post, edited, deleted; a local one never', async () => {
    const place = await harness.fresh();
    const store = await harness.open(place);
    const object = 'https://social.example/notes/1';
    const from = { object, actor: remote('ann').actorId, profile: 'https://social.example/@ann' };
    const reply = await store.insertComment({ ...newComment('one', 'From afar'), remote: from });
    const local = await store.insertComment(newComment('one', 'From here'));
    assert.deepEqual(await store.remoteComment(reply.id), reply);
    assert.equal(await store.remoteComment(local.id), null);
    assert.equal(await store.remoteComment('not-a-comment'), null);
    const again = await store.insertComment({ ...newComment('two', 'Another post'), remote: { ...from, object: `${object}/2` } });
    assert.notEqual(again.id, reply.id, 'each post its own id');
    await store.close();
    const reopened = await harness.open(place);
    try {
      assert.deepEqual(await reopened.remoteComment(reply.id), reply);
      assert.equal((await reopened.editRemoteComment(reply.id, 'Edited from afar'))?.body, 'Edited from afar');
      assert.equal((await reopened.getComment('one', reply.id))?.body, 'Edited from afar');
      assert.equal(await reopened.editRemoteComment(local.id, 'Not theirs to edit'), null, 'only a remote post’s comment');
      assert.deepEqual((await reopened.deleteComment(reply.id))?.body, '');
      assert.equal((await reopened.editRemoteComment(reply.id, 'Back again'))?.body, '', 'a deleted one stays deleted');
      assert.equal((await reopened.remoteComment(reply.id))?.deletedAt !== null, true, 'deleted in place, as the owner deletes');
    } finally {
      await reopened.close();
    }
  });
}
