/**
 * One vote per page per visit: the vote is kept in sessionStorage under the page's path. Where
 * storage is blocked or full (private modes, strict cookie settings) it is kept in memory for as
 * long as the page stays open; nothing here ever throws.
 */
export type Vote = 'yes' | 'no';

const memory = new Map<string, Vote>();

const keyOf = (path: string) => `page-feedback:${path}`;

export function storedVote(path: string): Vote | undefined {
  try {
    const value = window.sessionStorage.getItem(keyOf(path));
    if (value === 'yes' || value === 'no') {
      return value;
    }
  } catch {
    // storage blocked: memory only
  }
  return memory.get(path);
}

export function storeVote(path: string, vote: Vote): void {
  memory.set(path, vote);
  try {
    window.sessionStorage.setItem(keyOf(path), vote);
  } catch {
    // storage blocked or full: memory only
  }
}
