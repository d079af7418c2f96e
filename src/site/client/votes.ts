import type { CastVote, VoteValue } from '../../server/store/types.ts';

/**
 * A press of a vote button, as the API applies it, for the thread to show
 * at once: the same direction again removes the vote, the other direction
 * switches it; the score moves by the difference.
 */
export function pressVote(current: VoteValue, requested: CastVote, score: number): { vote: VoteValue; score: number } {
  const vote = current === requested ? 0 : requested;
  return { vote, score: score - current + vote };
}
