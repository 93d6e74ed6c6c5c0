/** What the benches share: reading their options, and the median they report. */

/**
 * The value after `name` on the command line (`--runs 4` → '4'), if given. A flag given without a value stops the
 * bench, rather than running it as if the flag were not there.
 */
export function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  if (index < 0) return undefined;
  const value = process.argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value (${name} <value>)`);
  return value;
}

/** The median; with an even count, the mean of the two middle values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The benches run under tsx, whose esbuild keeps function names by wrapping each named function in `__name(…)`. A
 * function handed to page.evaluate (the test helpers' among them) then throws "__name is not defined" in the page;
 * a page given this init script has it, as the identity.
 */
export const TSX_NAMES_IN_PAGE = 'globalThis.__name = (target) => target';

/** Whether `name` is on the command line (`--box`). */
export function argFlag(name: string): boolean {
  return process.argv.includes(name);
}
