/** A reader's vote as the thread shows it: up, down, or none. */
export type VoteValue = -1 | 0 | 1;

/**
 * A press of a vote button, as the API applies it, for the thread to show
 * at once: the same direction again removes the vote, the other direction
 * switches it; the score moves by the difference.
 */
export function pressVote(current: VoteValue, requested: -1 | 1, score: number): { vote: VoteValue; score: number } {
  const vote = current === requested ? 0 : requested;
  return { vote, score: score - current + vote };
}
