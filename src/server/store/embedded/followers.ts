import { z } from 'zod';
import { now } from '../clock.ts';
import type { FollowerStore } from '../roles.ts';
import { hostAndParents, isUnder } from '../records.ts';
import { follower as followerShape, instanceBlock } from '../shapes.ts';
import type { Follower, InstanceBlock, NewFollower } from '../types.ts';
import { snapshotDocument, type SnapshotDocument } from './durable-json-file.ts';

/** `followers.json`: every follower of every language's actor, oldest first, and the blocked instances. */
const followersDocument = z.object({
  format: z.literal(1),
  followers: z.array(followerShape),
  blockedInstances: z.array(instanceBlock).default([]),
});
type FollowersDocument = z.infer<typeof followersDocument>;

function keyOf(lang: string, actorId: string): string {
  return `${lang} ${actorId}`;
}

/**
 * The followers of the embedded store and the blocked instances, in memory
 * and in `followers.json`, which each change replaces whole and durably
 * before it resolves: a block and the removal of its followers are one
 * write. Follows come at the pace of people on other servers, not of
 * readers' requests, so a file rewritten per change costs little, and it
 * keeps the journal, the threads and their compactions as they are.
 */
export class FollowerFile {
  readonly #file: SnapshotDocument<FollowersDocument>;
  /** By language and actor id, oldest first (a Map keeps insertion order). */
  readonly #followers = new Map<string, Follower>();
  /** By host. */
  readonly #blocks = new Map<string, InstanceBlock>();

  private constructor(file: SnapshotDocument<FollowersDocument>) {
    this.#file = file;
    for (const follower of file.data.followers) this.#followers.set(keyOf(follower.lang, follower.actorId), follower);
    for (const block of file.data.blockedInstances) this.#blocks.set(block.host, block);
  }

  /** The followers kept in `file`, none when there is no file; rejects naming the file when it is damaged. */
  static async load(file: string): Promise<FollowerFile> {
    const document = snapshotDocument<FollowersDocument>(file, followersDocument, { format: 1, followers: [], blockedInstances: [] });
    await document.read();
    return new FollowerFile(document);
  }

  find(lang: string, actorId: string): Follower | undefined {
    return this.#followers.get(keyOf(lang, actorId));
  }

  /** Every follower, oldest first. */
  all(): Follower[] {
    return [...this.#followers.values()];
  }

  block(host: string): InstanceBlock | undefined {
    return this.#blocks.get(host);
  }

  /** Every blocked instance, by host name. */
  blocks(): InstanceBlock[] {
    return [...this.#blocks.values()].sort((a, b) => a.host.localeCompare(b.host));
  }

  /** Keeps `block` and removes the followers it covers, in one durable write. */
  putBlock(block: InstanceBlock): Promise<void> {
    const covered = [...this.#followers].filter(([, follower]) => isUnder(follower.actorId, block.host));
    const previous = this.#blocks.get(block.host);
    this.#blocks.set(block.host, block);
    for (const [key] of covered) this.#followers.delete(key);
    return this.#save(() => {
      if (previous) this.#blocks.set(block.host, previous);
      else this.#blocks.delete(block.host);
      for (const [key, follower] of covered) this.#followers.set(key, follower);
    });
  }

  /** Lifts the block of `host`, durable before it resolves. */
  removeBlock(host: string): Promise<void> {
    const removed = this.#blocks.get(host);
    this.#blocks.delete(host);
    return this.#save(() => {
      if (removed) this.#blocks.set(host, removed);
    });
  }

  /** Keeps `follower` (replacing the one of its language and actor), durable before it resolves. */
  put(follower: Follower): Promise<void> {
    const key = keyOf(follower.lang, follower.actorId);
    const previous = this.#followers.get(key);
    this.#followers.set(key, follower);
    return this.#save(() => {
      if (previous) this.#followers.set(key, previous);
      else this.#followers.delete(key);
    });
  }

  /** Removes a follower, durable before it resolves. */
  remove(lang: string, actorId: string): Promise<void> {
    const key = keyOf(lang, actorId);
    const removed = this.#followers.get(key);
    this.#followers.delete(key);
    return this.#save(() => {
      if (removed) this.#followers.set(key, removed);
    });
  }

  /** Writes the file; a failed write undoes the change in memory (best effort: a later change may have followed it). */
  async #save(undo: () => void): Promise<void> {
    try {
      await this.#file.adapter.writeSized({ format: 1, followers: this.all(), blockedInstances: this.blocks() });
    } catch (error) {
      undo();
      throw error;
    }
  }
}

/** The followers of the federation's actors in the embedded store. */
export class EmbeddedFollowers implements FollowerStore {
  readonly #file: FollowerFile;

  constructor(file: FollowerFile) {
    this.#file = file;
  }

  async addFollower(follower: NewFollower): Promise<boolean> {
    const known = this.#file.find(follower.lang, follower.actorId);
    await this.#file.put(followerShape.parse({ ...follower, followedAt: known?.followedAt ?? now() }));
    return known === undefined;
  }

  async removeFollower(lang: Follower['lang'], actorId: string): Promise<boolean> {
    if (!this.#file.find(lang, actorId)) return false;
    await this.#file.remove(lang, actorId);
    return true;
  }

  listFollowers(lang: Follower['lang'], offset: number, limit: number): Promise<Follower[]> {
    const ofLanguage = this.#file.all().filter((follower) => follower.lang === lang);
    return Promise.resolve(ofLanguage.slice(offset, offset + limit));
  }

  followerCount(lang: Follower['lang']): Promise<number> {
    return Promise.resolve(this.#file.all().filter((follower) => follower.lang === lang).length);
  }

  async blockInstance(host: string): Promise<boolean> {
    const known = this.#file.block(host);
    await this.#file.putBlock(instanceBlock.parse({ host, blockedAt: known?.blockedAt ?? now() }));
    return known === undefined;
  }

  async unblockInstance(host: string): Promise<boolean> {
    if (!this.#file.block(host)) return false;
    await this.#file.removeBlock(host);
    return true;
  }

  blockedInstances(): Promise<InstanceBlock[]> {
    return Promise.resolve(this.#file.blocks());
  }

  isInstanceBlocked(host: string): Promise<boolean> {
    return Promise.resolve(hostAndParents(host).some((candidate) => this.#file.block(candidate) !== undefined));
  }
}
