import type { LookupsReader, LookupsWriter } from './saved-lookups.ts';

/**
 * For each bucket (a trigram, a country…), the ranks of the cities in it,
 * most populous first, stored flat: bucket `b` holds `ranks[starts[b]]` to
 * `ranks[starts[b + 1] - 1]`. Beside each rank is its city's bigram
 * signature (grams.ts), so that a scan rejects most candidates reading
 * memory in order, without following the rank to the name.
 */
export class PostingLists {
  readonly starts: Int32Array;
  readonly ranks: Int32Array;
  readonly signatures: Int32Array;

  private constructor(starts: Int32Array, ranks: Int32Array, signatures: Int32Array) {
    this.starts = starts;
    this.ranks = ranks;
    this.signatures = signatures;
  }

  /** Lists saved by `save`, read back in the same order. */
  static read(saved: LookupsReader): PostingLists {
    return new PostingLists(saved.next(), saved.next(), saved.next());
  }

  save(writer: LookupsWriter): void {
    writer.add(this.starts, this.ranks, this.signatures);
  }

  /**
   * `signatures` holds one city's signature per rank; `bucketsOf(rank, add)`
   * calls `add` with each bucket of one city, where a bucket added twice lists
   * the city once. `expectedEntries` sizes the work space, grown as needed.
   */
  static build(
    bucketCount: number,
    signatures: Int32Array,
    bucketsOf: (rank: number, add: (bucket: number) => void) => void,
    expectedEntries = signatures.length * 4,
  ): PostingLists {
    const lastRank = new Int32Array(bucketCount).fill(-1);
    let entryBuckets = new Int32Array(expectedEntries);
    let entryRanks = new Int32Array(entryBuckets.length);
    let entries = 0;
    let rank = 0;
    const add = (bucket: number) => {
      if (lastRank[bucket] === rank) return;
      lastRank[bucket] = rank;
      if (entries === entryBuckets.length) {
        entryBuckets = grown(entryBuckets);
        entryRanks = grown(entryRanks);
      }
      entryBuckets[entries] = bucket;
      entryRanks[entries++] = rank;
    };
    for (; rank < signatures.length; rank++) bucketsOf(rank, add);

    const starts = new Int32Array(bucketCount + 1);
    for (let entry = 0; entry < entries; entry++) {
      const bucket = entryBuckets[entry] ?? 0;
      starts[bucket + 1] = (starts[bucket + 1] ?? 0) + 1;
    }
    for (let bucket = 0; bucket < bucketCount; bucket++) starts[bucket + 1] = (starts[bucket + 1] ?? 0) + (starts[bucket] ?? 0);
    const ranks = new Int32Array(entries);
    const listed = new Int32Array(entries);
    // Entries come in rank order, so filling each bucket from its start keeps its list sorted.
    const next = starts.slice(0, bucketCount);
    for (let entry = 0; entry < entries; entry++) {
      const bucket = entryBuckets[entry] ?? 0;
      const at = next[bucket] ?? 0;
      const entryRank = entryRanks[entry] ?? 0;
      ranks[at] = entryRank;
      listed[at] = signatures[entryRank] ?? 0;
      next[bucket] = at + 1;
    }
    return new PostingLists(starts, ranks, listed);
  }

  /** How many cities a bucket holds. */
  size(bucket: number): number {
    return (this.starts[bucket + 1] ?? 0) - (this.starts[bucket] ?? 0);
  }
}

function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(array.length * 2);
  larger.set(array);
  return larger;
}
