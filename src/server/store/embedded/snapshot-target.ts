/** State kept in one lowdb snapshot file, complete up to a journal record. */
export interface SnapshotTarget {
  /** The last journal record the snapshot file already holds: replay skips it and those before it. */
  readonly journalSeq: number;
  /**
   * Writes the current state, marked complete up to record `journalSeq`, to
   * the snapshot file durably. The state is copied before the first await,
   * so changes made while the file is written wait for the next snapshot.
   * Resolves with the bytes written.
   */
  writeSnapshot(journalSeq: number): Promise<number>;
}
