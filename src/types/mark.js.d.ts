// The part of mark.js (no bundled types) that guardedMark.ts uses.
declare module 'mark.js/dist/mark.es6.js' {
  export default class Mark {
    constructor(context: Element | NodeList | readonly Element[] | string);
    mark(keywords: string | readonly string[], options?: Record<string, unknown>): void;
    unmark(options?: Record<string, unknown>): void;
  }
}
