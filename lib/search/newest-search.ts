import type {Checkpoint} from './sharded-index';

/** Thrown at a checkpoint of a search that a newer one has replaced. */
class Replaced extends Error {}

/**
 * Runs searches so that only the newest goes on. A reader types a key at a time and each key starts a search; a
 * search typed past ends at its next step, so it loads no more parts (on a slow link they would queue before the
 * newest search's parts), and answers with the newest search's results: a caller that shows every answer as it
 * arrives (the search page) then never shows an older one, nor an empty list.
 */
export function newestSearchOnly<T>(): (search: (checkpoint: Checkpoint) => Promise<T>) => Promise<T> {
  let newestId = 0;
  let newestAnswer: Promise<T> | undefined;
  const settle = async (answer: Promise<T>): Promise<T> => {
    try {
      return await answer;
    } catch (error) {
      // A newer search started before this one was replaced, so newestAnswer is that search's (or a later one's).
      if (error instanceof Replaced) return settle(newestAnswer!);
      throw error;
    }
  };
  return (search) => {
    const id = ++newestId;
    const answer = search(async () => {
      if (id !== newestId) throw new Replaced();
    });
    newestAnswer = answer;
    return settle(answer);
  };
}
