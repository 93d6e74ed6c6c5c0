import type {Checkpoint} from './sharded-index';

/** Thrown at a checkpoint of a search that a newer one has replaced. */
class Replaced extends Error {}

/**
 * Runs one caller's searches so that only the newest goes on. A reader types a key at a time and each key starts a
 * search; a search typed past ends at its next step, so it loads no more parts (on a slow link they would queue before
 * the newest search's parts). Every search overtaken by a newer one, ended or done, answers with the newest search's
 * results: a caller that shows every answer as it arrives (the search page) then never ends on an older one, nor on
 * an empty list.
 */
export function newestSearchOnly<T>(): (search: (checkpoint: Checkpoint) => Promise<T>) => Promise<T> {
  let newestId = 0;
  let newestAnswer: Promise<T> | undefined;
  const settle = async (id: number, answer: Promise<T>): Promise<T> => {
    try {
      const result = await answer;
      if (id === newestId) return result;
    } catch (error) {
      if (id === newestId) throw error;
    }
    // Overtaken: newestAnswer is set in the same step as newestId.
    return settle(newestId, newestAnswer!);
  };
  return (search) => {
    const id = ++newestId;
    const answer = search(async () => {
      if (id !== newestId) throw new Replaced();
    });
    newestAnswer = answer;
    return settle(id, answer);
  };
}
