/**
 * Generated doc pages for `npm run bench:search-scale` (bench/search-scale.ts): N realistic pages,
 * written into a temporary copy's docs/, never into the repository's own.
 *
 * Deterministic: page i comes from a PRNG seeded with i alone, so the first 100 pages of a 300-page run
 * are the pages of a 100-page run. Each page follows README's page rules, so the build accepts it: front
 * matter with a unique `title` (never a real page's) and `description` (one sentence, 40+ characters),
 * a few `keywords`; imports for `<Tabs>`; an opening paragraph; 6–10 `##`/`###` sections ending with
 * `## Next steps` (links to real pages and to earlier generated ones only, so every link resolves); one
 * or two tables; one `<Tabs groupId="language">` with a cURL and a JavaScript tab; 2–4 code blocks in
 * bash, json or js, each classified `norun="…"` (README: shown only); sometimes an admonition.
 *
 * The prose is built from sentence templates over a broad vocabulary (general English, eSIM, connectivity
 * and integration words, destinations, carrier-like brand names), drawn with Zipf-like weights, plus each
 * page's own field names, methods, error codes and events: like real API docs, every page brings new terms,
 * so the index grows with distinct terms as well as with text. 1,500–3,000 words of text per page.
 */
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';

/** The three categories the pages go to, in turn (after the site's own four). */
export const GENERATED_CATEGORIES = [
  {dir: 'generated-guides', label: 'Integration guides', position: 5},
  {dir: 'generated-operations', label: 'Operations handbook', position: 6},
  {dir: 'generated-recipes', label: 'Recipes', position: 7},
] as const;

/** Adverbs that can open a sentence. */
const OPENING_ADVERBS = [
  'usually',
  'often',
  'sometimes',
  'typically',
  'eventually',
  'occasionally',
  'generally',
  'afterwards',
  'in most cases',
  'at first',
];

/** Why a generated code block is shown only (README: `norun="reason"`). */
const NORUN = 'norun="generated page of the search-scale benchmark"';

export type GeneratedPage = {file: string; route: string; title: string; words: number};
export type GeneratedSet = {pages: GeneratedPage[]; words: number; distinctWords: number};

type RealPage = {route: string; title: string};

/* ------------------------------------------------------------------------------------------------ */
/* Random numbers                                                                                    */
/* ------------------------------------------------------------------------------------------------ */

/** mulberry32: small, fast, good enough for text. */
class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}

function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A word list drawn with Zipf-like weights (1/rank^0.8) over a fixed shuffled order: a few words are
 * common, most are rare, as in real text.
 */
class ZipfList {
  private readonly words: string[];
  private readonly cumulative: number[];

  constructor(name: string, words: readonly string[]) {
    this.words = new Rng(hashSeed(`rank:${name}`)).shuffle(words);
    let total = 0;
    this.cumulative = this.words.map((_, rank) => (total += 1 / Math.pow(rank + 1, 0.8)));
  }

  draw(rng: Rng): string {
    const target = rng.next() * (this.cumulative[this.cumulative.length - 1] ?? 0);
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.cumulative[mid] ?? 0) < target) low = mid + 1;
      else high = mid;
    }
    return this.words[low] as string;
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* English morphology, just enough for the templates                                                */
/* ------------------------------------------------------------------------------------------------ */

const UNCOUNTABLE = new Set(
  'data,knowledge,traffic,guidance,evidence,feedback,software,equipment,information,coverage,luggage,storage,maintenance,compliance,consent,research,progress,uptime,tethering,roaming,data roaming,support,advice,access,money'.split(
    ',',
  ),
);
const IRREGULAR_PLURALS: Record<string, string> = {
  analysis: 'analyses',
  criterion: 'criteria',
  person: 'people',
  child: 'children',
  index: 'indexes',
  basis: 'bases',
  hypothesis: 'hypotheses',
};
const IRREGULAR_PARTICIPLES: Record<string, string> = {
  build: 'built',
  find: 'found',
  hold: 'held',
  keep: 'kept',
  pay: 'paid',
  read: 'read',
  run: 'run',
  send: 'sent',
  set: 'set',
  show: 'shown',
  split: 'split',
  write: 'written',
  choose: 'chosen',
  buy: 'bought',
  get: 'got',
  give: 'given',
  take: 'taken',
  make: 'made',
  lead: 'led',
  lose: 'lost',
  leave: 'left',
  begin: 'begun',
  bring: 'brought',
  catch: 'caught',
  feed: 'fed',
  forget: 'forgotten',
  hide: 'hidden',
  know: 'known',
  mean: 'meant',
  meet: 'met',
  override: 'overridden',
  rebuild: 'rebuilt',
  resend: 'resent',
  reset: 'reset',
  rewrite: 'rewritten',
  see: 'seen',
  sell: 'sold',
  shut: 'shut',
  spend: 'spent',
  tell: 'told',
  think: 'thought',
  understand: 'understood',
  undo: 'undone',
  withdraw: 'withdrawn',
};
/** Verbs whose final consonant doubles (British spelling where it differs). */
const DOUBLING = new Set(
  'run,set,get,shut,begin,forget,stop,plan,drop,ship,skip,tag,flag,map,log,wrap,submit,permit,prefer,refer,control,label,travel,cancel,signal,model,dial,fuel,pin,grab,scan,chat,plug,tap,trim,step,swap,commit,emit,omit,admit,transmit,equip,level,total,tunnel,patrol,shop,top,zip'.split(
    ',',
  ),
);

function splitLast(phrase: string): [string, string] {
  const space = phrase.lastIndexOf(' ');
  return space < 0 ? ['', phrase] : [phrase.slice(0, space + 1), phrase.slice(space + 1)];
}

function splitFirst(phrase: string): [string, string] {
  const space = phrase.indexOf(' ');
  return space < 0 ? [phrase, ''] : [phrase.slice(0, space), phrase.slice(space)];
}

function plural(noun: string): string {
  if (UNCOUNTABLE.has(noun.toLowerCase())) return noun;
  const [head, last] = splitLast(noun);
  if (UNCOUNTABLE.has(last.toLowerCase())) return noun;
  const irregular = IRREGULAR_PLURALS[last];
  if (irregular) return head + irregular;
  if (/^[A-Z0-9+-]+$/.test(last) || /^e[A-Z]/.test(last)) return `${head}${last}s`; // SIMs, APIs, eSIMs
  if (/(s|x|z|ch|sh)$/.test(last)) return `${head}${last}es`;
  if (/[^aeiou]y$/.test(last)) return `${head}${last.slice(0, -1)}ies`;
  return `${head}${last}s`;
}

function third(verb: string): string {
  const [first, rest] = splitFirst(verb);
  if (/(s|x|z|ch|sh|o)$/.test(first)) return `${first}es${rest}`;
  if (/[^aeiou]y$/.test(first)) return `${first.slice(0, -1)}ies${rest}`;
  return `${first}s${rest}`;
}

function participle(verb: string): string {
  const [first, rest] = splitFirst(verb);
  const irregular = IRREGULAR_PARTICIPLES[first];
  if (irregular) return irregular + rest;
  if (DOUBLING.has(first)) return `${first}${first.slice(-1)}ed${rest}`;
  if (first.endsWith('e')) return `${first}d${rest}`;
  if (/[^aeiou]y$/.test(first)) return `${first.slice(0, -1)}ied${rest}`;
  return `${first}ed${rest}`;
}

function gerund(verb: string): string {
  const [first, rest] = splitFirst(verb);
  if (first.endsWith('ie')) return `${first.slice(0, -2)}ying${rest}`;
  if (DOUBLING.has(first)) return `${first}${first.slice(-1)}ing${rest}`;
  if (/[^aeiouy]e$/.test(first) && first !== 'be') return `${first.slice(0, -1)}ing${rest}`;
  return `${first}ing${rest}`;
}

/** "a" or "an" by the sound of the next word (acronyms by their first letter's name). */
function article(next: string): string {
  const word = next.replace(/^`/, '');
  if (/^[A-Z]{2,}/.test(word) || /^[A-Z][A-Z0-9+-]*$/.test(word)) return /^[AEFHILMNORSX]/.test(word) ? 'an' : 'a';
  if (/^(uni|use|usu|eu|one|once)/i.test(word)) return 'a';
  if (/^(hour|honest)/i.test(word)) return 'an';
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** Upper-cases the first letter, except in a word like eSIM. */
const capitalise = (text: string) => (/^[a-z]+[A-Z]/.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1));
const snake = (words: string[]) => words.map((word) => word.toLowerCase().replace(/[^a-z0-9]+/g, '_')).join('_');
const camel = (words: string[]) =>
  words
    .map((word) => word.toLowerCase().replace(/[^a-z0-9]+/g, ''))
    .map((word, index) => (index === 0 ? word : capitalise(word)))
    .join('');

/* ------------------------------------------------------------------------------------------------ */
/* One page's topic and its own names                                                               */
/* ------------------------------------------------------------------------------------------------ */

type Lexicon = {
  fields: string[];
  methods: string[];
  errors: string[];
  events: string[];
  resources: string[];
  statuses: string[];
};

/** What a page is about: it draws these more often than the rest of the vocabulary. */
type Topic = {
  nouns: string[];
  domainNouns: string[];
  verbs: string[];
  adjectives: string[];
  places: string[];
  brands: string[];
  lexicon: Lexicon;
};

const LISTS = {
  noun: new ZipfList('noun', splitList(GENERAL_NOUNS())),
  domain: new ZipfList('domain', splitList(DOMAIN_NOUNS())),
  verb: new ZipfList('verb', splitList(VERBS())),
  adjective: new ZipfList('adjective', splitList(ADJECTIVES())),
  adverb: new ZipfList('adverb', splitList(ADVERBS())),
  place: new ZipfList('place', splitList(PLACES())),
  part: new ZipfList('part', splitList(NAME_PARTS())),
};

function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\s*,\s*/)
        .map((word) => word.trim())
        .filter(Boolean),
    ),
  ];
}

function brandName(rng: Rng): string {
  const [starts, ends] = [splitList(BRAND_STARTS()), splitList(BRAND_ENDS())];
  const name = rng.pick(starts) + rng.pick(ends);
  return rng.chance(0.4) ? `${name} ${rng.pick(['Mobile', 'Telecom', 'Wireless', 'Networks', 'Connect'])}` : name;
}

function makeLexicon(rng: Rng): Lexicon {
  const part = () => LISTS.part.draw(rng);
  const unique = (make: () => string, count: number) => {
    const out = new Set<string>();
    for (let tries = 0; out.size < count && tries < count * 20; tries += 1) out.add(make());
    return [...out];
  };
  return {
    fields: unique(() => snake(rng.chance(0.5) ? [part(), part()] : [part(), part(), part()]), rng.int(12, 20)),
    methods: unique(() => camel([LISTS.verb.draw(rng).split(' ')[0] ?? 'get', part(), part()]), rng.int(4, 8)),
    errors: unique(
      () => snake([part(), participle(LISTS.verb.draw(rng).split(' ')[0] ?? 'fail')]).toUpperCase(),
      rng.int(3, 6),
    ),
    events: unique(() => `${part()}.${participle(LISTS.verb.draw(rng).split(' ')[0] ?? 'update')}`, rng.int(3, 5)),
    resources: unique(() => `${plural(part())}`, rng.int(2, 3)),
    statuses: unique(() => participle(LISTS.verb.draw(rng).split(' ')[0] ?? 'open'), rng.int(3, 5)),
  };
}

function makeTopic(rng: Rng): Topic {
  const several = (list: ZipfList, count: number) => {
    const out = new Set<string>();
    for (let tries = 0; out.size < count && tries < 100; tries += 1) out.add(list.draw(rng));
    return [...out];
  };
  return {
    nouns: several(LISTS.noun, 4),
    domainNouns: several(LISTS.domain, 5),
    verbs: several(LISTS.verb, 3),
    adjectives: several(LISTS.adjective, 3),
    places: several(LISTS.place, rng.int(1, 3)),
    brands: Array.from({length: rng.int(1, 2)}, () => brandName(rng)),
    lexicon: makeLexicon(rng),
  };
}

/* ------------------------------------------------------------------------------------------------ */
/* Prose                                                                                             */
/* ------------------------------------------------------------------------------------------------ */

/** Draws words for one page: the page's topic often, the whole vocabulary otherwise. */
class Writer {
  constructor(
    readonly rng: Rng,
    readonly topic: Topic,
  ) {}

  /** A singular noun phrase without determiner. */
  N(): string {
    const roll = this.rng.next();
    if (roll < 0.22) return this.rng.pick([...this.topic.domainNouns, ...this.topic.nouns]);
    if (roll < 0.6) return LISTS.domain.draw(this.rng);
    return LISTS.noun.draw(this.rng);
  }

  Ns(): string {
    return plural(this.N());
  }

  V(): string {
    return this.rng.chance(0.25) ? this.rng.pick(this.topic.verbs) : LISTS.verb.draw(this.rng);
  }

  Vs(): string {
    return third(this.V());
  }

  Ved(): string {
    return participle(this.V());
  }

  Ving(): string {
    return gerund(this.V());
  }

  A(): string {
    return this.rng.chance(0.15) ? this.rng.pick(this.topic.adjectives) : LISTS.adjective.draw(this.rng);
  }

  Adv(): string {
    return LISTS.adverb.draw(this.rng);
  }

  /** A determiner and a singular noun phrase, sometimes with an adjective. */
  the(noun = this.N()): string {
    const phrase = this.rng.chance(0.3) ? `${this.A()} ${noun}` : noun;
    const roll = this.rng.next();
    if (roll < 0.5) return `the ${phrase}`;
    if (roll < 0.65) return `your ${phrase}`;
    if (roll < 0.82)
      return UNCOUNTABLE.has(splitLast(noun)[1].toLowerCase()) ? `the ${phrase}` : `${article(phrase)} ${phrase}`;
    if (roll < 0.9) return `each ${phrase}`;
    return `this ${phrase}`;
  }

  /** A determiner (or none) and a plural noun phrase. */
  theMany(): string {
    const phrase = this.rng.chance(0.3) ? `${this.A()} ${this.Ns()}` : this.Ns();
    return `${this.rng.pick(['the', 'your', 'all', 'most', 'some', 'these', 'many', 'the'])} ${phrase}`;
  }

  a(noun: string): string {
    return `${article(noun)} ${noun}`;
  }

  pp(): string {
    const preposition = this.rng.pick([
      'for',
      'with',
      'across',
      'from',
      'in',
      'on',
      'during',
      'after',
      'before',
      'through',
      'under',
      'without',
      'by',
      'behind',
      'around',
      'per',
    ]);
    if (preposition === 'per') return `per ${this.N()}`;
    return `${preposition} ${this.rng.chance(0.5) ? this.the() : this.theMany()}`;
  }

  code(name: string): string {
    return `\`${name}\``;
  }

  ID(): string {
    const {fields, methods} = this.topic.lexicon;
    return this.code(this.rng.chance(0.75) ? this.rng.pick(fields) : `${this.rng.pick(methods)}()`);
  }

  ERR(): string {
    return this.code(this.rng.pick(this.topic.lexicon.errors));
  }

  EV(): string {
    return this.code(this.rng.pick(this.topic.lexicon.events));
  }

  PLACE(): string {
    return this.rng.chance(0.6) ? this.rng.pick(this.topic.places) : LISTS.place.draw(this.rng);
  }

  BRAND(): string {
    return this.rng.chance(0.8) ? this.rng.pick(this.topic.brands) : brandName(this.rng);
  }

  NUM(): string {
    const rng = this.rng;
    return rng.pick([
      () => `${rng.pick([5, 10, 15, 20, 30, 45, 90])} minutes`,
      () => `${rng.pick([2, 6, 12, 24, 36, 48, 72])} hours`,
      () => `${rng.int(2, 30)} days`,
      () => `${rng.pick([100, 250, 500, 750])} MB`,
      () => `${rng.pick([1, 2, 3, 5, 10, 20, 50])} GB`,
      () => `${rng.pick([3, 5, 10, 25, 100, 500, 1000])} requests`,
      () => `${rng.int(2, 8)} attempts`,
      () => `${rng.pick([2, 3, 4, 6])} weeks`,
    ])();
  }

  PRICE(): string {
    return `${this.rng.pick(['USD', 'EUR', 'GBP', 'AUD', 'SGD'])} ${this.rng.int(1, 60)}.${this.rng.pick(['00', '50', '90', '25', '75'])}`;
  }

  when(): string {
    return this.rng.pick([
      () => `after ${this.NUM()}`,
      () => `within ${this.NUM()}`,
      () => 'the next day',
      () => `at the end of the ${this.N()}`,
      () => `before the ${this.N()} ${this.Vs()}`,
      () => 'later',
      () => `once ${this.the()} ${this.Vs()}`,
    ])();
  }

  /** One sentence from a template, sometimes after a transition. */
  sentence(): string {
    const templates: (() => string)[] = [
      () => `${this.the()} ${this.Vs()} ${this.the()} ${this.pp()}.`,
      () => `when ${this.the()} ${this.Vs()} ${this.the()}, ${this.the()} ${this.Vs()} ${this.Adv()}.`,
      () => `use ${this.ID()} to ${this.V()} ${this.the()} before ${this.the()} ${this.Vs()}.`,
      () => `if ${this.the()} is ${this.A()}, ${this.V()} ${this.the()} and ${this.V()} it again ${this.when()}.`,
      () =>
        `most ${this.Ns()} ${this.V()} ${this.the()} within ${this.NUM()}, but ${this.A()} ${this.Ns()} can take longer.`,
      () => {
        const phrase = `${this.A()} ${this.N()}`;
        return `each ${this.N()} has ${this.a(phrase)} that ${this.Vs()} ${this.the()} ${this.pp()}.`;
      },
      () =>
        `you can ${this.V()} ${this.the()} from the ${this.N()} screen of the dashboard, or ${this.V()} it with ${this.ID()}.`,
      () =>
        `the ${this.ID()} field holds the ${this.N()} that ${this.Vs()} ${this.the()}; leave it empty to ${this.V()} the ${this.A()} ${this.N()}.`,
      () =>
        `travellers in ${this.PLACE()} often ${this.V()} ${this.the()} through ${this.BRAND()}, so ${this.V()} ${this.the()} ${this.Adv()}.`,
      () => `${this.Ving()} ${this.the()} ${this.Vs()} ${this.the()} ${this.pp()}.`,
      () =>
        `do not ${this.V()} ${this.the()} while ${this.the()} is ${this.Ving()}: the request fails with ${this.ERR()} and ${this.the()} stays ${this.A()}.`,
      () => `for ${this.A()} ${this.Ns()}, ${this.Ving()} ${this.the()} ${this.Adv()} keeps ${this.the()} ${this.A()}.`,
      () =>
        `the ${this.N()} is ${this.Ved()} ${this.Adv()} after ${this.NUM()}, and ${this.ID()} then reports the ${this.A()} ${this.N()}.`,
      () =>
        `keep ${this.the()} ${this.A()} and ${this.V()} ${this.the()} ${this.pp()}; ${this.the()} then ${this.Vs()} the rest.`,
      () =>
        `this matters because ${this.theMany()} ${this.V()} ${this.the()} ${this.Adv()}, and ${this.A()} ${this.Ns()} are hard to ${this.V()} later.`,
      () =>
        `${this.BRAND()} sends ${this.EV()} when ${this.the()} ${this.Vs()}; your ${this.N()} should ${this.V()} it within ${this.NUM()}.`,
      () =>
        `${this.a(this.A())} ${this.N()} rarely ${this.Vs()} ${this.the()}, yet ${this.theMany()} ${this.V()} it ${this.Adv()}.`,
      () => `teams that ${this.V()} ${this.Ns()} ${this.Adv()} tend to ${this.V()} fewer ${this.Ns()}.`,
      () => {
        const phrase = `${this.A()} ${this.N()}`;
        return `in ${this.PLACE()}, ${this.the()} ${this.Vs()} ${this.the()} ${this.Adv()}, so plan for ${this.a(phrase)}.`;
      },
      () => `the ${this.N()} and the ${this.N()} are ${this.Ved()} together, which ${this.Vs()} ${this.the()}.`,
      () => `check ${this.ID()} first: it shows whether ${this.the()} was ${this.Ved()} or is still ${this.A()}.`,
      () => `after ${this.NUM()}, ${this.the()} ${this.Vs()} ${this.the()} and sends ${this.EV()}.`,
      () => `${this.rng.pick(OPENING_ADVERBS)}, ${this.the()} ${this.Vs()} ${this.theMany()} ${this.pp()}.`,
      () => `every ${this.N()} that you ${this.V()} is ${this.Ved()} to ${this.the()}, not to ${this.the()}.`,
      () => {
        const phrase = `${this.A()} ${this.N()}`;
        return `where ${this.theMany()} ${this.V()} ${this.the()}, the ${this.N()} ${this.Vs()} ${this.a(phrase)} instead.`;
      },
      () => `ask your ${this.N()} to ${this.V()} ${this.the()} if ${this.the()} returns ${this.ERR()}.`,
      () => `${this.Ns()} without ${this.a(this.N())} cannot ${this.V()} ${this.the()}.`,
      () =>
        `the ${this.A()} ${this.N()} costs ${this.PRICE()} per ${this.N()}, and ${this.Ns()} above ${this.NUM()} are ${this.Ved()} ${this.Adv()}.`,
      () =>
        `set ${this.ID()} to \`${this.rng.pick(['true', 'false', 'null', String(this.rng.int(1, 500))])}\` when ${this.the()} ${this.Vs()} more than ${this.NUM()}.`,
      () => `the answer lists ${this.theMany()} in ${this.Ved()} order, ${this.A()} ones first.`,
      () => `nothing ${this.Vs()} ${this.the()} until ${this.the()} is ${this.Ved()} and ${this.the()} is ${this.A()}.`,
      () =>
        `a ${this.code(this.rng.pick(this.topic.lexicon.statuses))} ${this.N()} can still ${this.V()} ${this.the()}, but it can no longer ${this.V()} ${this.the()}.`,
    ];
    const text = this.rng.pick(templates)();
    const transition = this.rng.chance(0.18)
      ? `${this.rng.pick(['However', 'In practice', 'As a rule', 'For example', 'By default', 'In that case', 'Meanwhile', 'Even so', 'As a result', 'Usually'])}, `
      : '';
    return capitalise(transition + text);
  }

  paragraph(sentences = this.rng.int(3, 6)): string {
    return Array.from({length: sentences}, () => this.sentence()).join(' ');
  }

  heading(): string {
    return capitalise(
      this.rng.pick([
        () => `${this.Ving()} ${this.rng.chance(0.4) ? `${this.A()} ` : ''}${this.Ns()}`,
        () => `how ${this.the()} ${this.Vs()} ${this.the()}`,
        () => `when to ${this.V()} ${this.a(this.N())}`,
        () => `${this.N()} and ${this.N()}`,
        () => `${this.A()} ${this.Ns()}`,
        () => `troubleshooting ${this.Ns()}`,
        () => `limits on ${this.Ns()}`,
        () => `${this.N()} reference`,
        () => `before you ${this.V()} ${this.the()}`,
        () => `example: ${this.Ving()} ${this.a(this.N())} for ${this.PLACE()}`,
        () => `${this.Ns()} in ${this.PLACE()}`,
        () => `what ${this.the()} ${this.Vs()}`,
      ])(),
    );
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Blocks: lists, tables, code, tabs, admonitions                                                    */
/* ------------------------------------------------------------------------------------------------ */

function bulletList(w: Writer): string {
  const numbered = w.rng.chance(0.4);
  return Array.from({length: w.rng.int(3, 6)}, (_, index) => {
    const item = w.rng.chance(0.4) ? `${w.ID()}: ${w.sentence().replace(/^./, (c) => c.toLowerCase())}` : w.sentence();
    return `${numbered ? `${index + 1}.` : '-'} ${item}`;
  }).join('\n');
}

/** A sentence without its final stop, for a table cell. */
const cell = (w: Writer) => w.sentence().replace(/\.$/, '');

function table(w: Writer): string {
  const {fields, statuses} = w.topic.lexicon;
  const kind = w.rng.int(0, 3);
  const rows = w.rng.int(3, 7);
  const lines: string[] = [];
  if (kind === 0) {
    lines.push('| Field | Type | Description |', '| --- | --- | --- |');
    for (const field of w.rng.shuffle(fields).slice(0, rows)) {
      const type = w.rng.pick(['string', 'integer', 'boolean', 'object', 'string[]', 'timestamp', 'number']);
      lines.push(`| \`${field}\` | ${type} | ${cell(w)} |`);
    }
  } else if (kind === 1) {
    lines.push('| Status | Meaning | What to do |', '| --- | --- | --- |');
    for (const status of statuses) lines.push(`| \`${status}\` | ${cell(w)} | ${cell(w)} |`);
  } else if (kind === 2) {
    lines.push('| Plan | Data | Validity | Price |', '| --- | --- | --- | --- |');
    for (let i = 0; i < rows; i += 1) {
      lines.push(
        `| ${w.PLACE()} ${w.A()} plan | ${w.rng.pick([1, 3, 5, 10, 20, 50])} GB | ${w.rng.pick([7, 15, 30, 90])} days | ${w.PRICE()} |`,
      );
    }
  } else {
    lines.push('| Limit | Value | Applies to |', '| --- | --- | --- |');
    for (let i = 0; i < rows; i += 1) {
      lines.push(`| ${capitalise(`${w.A()} ${w.Ns()}`)} | ${w.NUM()} | ${capitalise(w.theMany())} |`);
    }
  }
  return lines.join('\n');
}

function sampleValue(w: Writer, field: string): string {
  if (/(_id|_ref|_code)$/.test(field)) return JSON.stringify(`${field.slice(0, 3)}_${w.rng.int(1000, 99999)}`);
  if (/(count|limit|size|total|mb|gb|days|hours|minutes)$/.test(field)) return String(w.rng.int(1, 5000));
  if (/^(is|has|can|allow)_/.test(field) || w.rng.chance(0.15)) return w.rng.pick(['true', 'false']);
  if (w.rng.chance(0.3)) return JSON.stringify(w.rng.pick(w.topic.lexicon.statuses));
  return JSON.stringify(`${w.A()} ${w.N()}`);
}

function jsonBlock(w: Writer): string {
  const [first, ...rest] = w.rng.shuffle(w.topic.lexicon.fields);
  const nested = rest.slice(0, w.rng.int(2, 3));
  const top = rest.slice(3, 3 + w.rng.int(3, 6));
  const lines = ['{', `  "id": "${w.rng.pick(['ord', 'sim', 'top', 'evt', 'ref'])}_${w.rng.int(100000, 999999)}",`];
  for (const field of top) lines.push(`  "${field}": ${sampleValue(w, field)},`);
  lines.push(`  "${first ?? 'details'}": {`);
  nested.forEach((field, index) =>
    lines.push(`    "${field}": ${sampleValue(w, field)}${index < nested.length - 1 ? ',' : ''}`),
  );
  lines.push(
    '  },',
    `  "created_at": "2025-0${w.rng.int(1, 9)}-1${w.rng.int(0, 9)}T0${w.rng.int(0, 9)}:${w.rng.int(10, 59)}:00Z"`,
    '}',
  );
  return ['```json ' + NORUN, ...lines, '```'].join('\n');
}

function bashBlock(w: Writer): string {
  const resource = w.rng.pick(w.topic.lexicon.resources);
  const [a = 'reference', b = 'note'] = w.rng.shuffle(w.topic.lexicon.fields);
  const lines = [
    '```bash ' + NORUN,
    `curl -sS --fail-with-body -X POST https://sandbox.api.example.com/v1/${resource} \\`,
    '  -H "Authorization: Bearer $ACCESS_TOKEN" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '{"${a}": ${sampleValue(w, a)}, "${b}": ${sampleValue(w, b)}}' | jq '.${w.rng.pick(w.topic.lexicon.fields)}'`,
    '```',
  ];
  return lines.join('\n');
}

function jsBlock(w: Writer): string {
  const method = w.rng.pick(w.topic.lexicon.methods);
  const resource = w.rng.pick(w.topic.lexicon.resources);
  const field = w.rng.pick(w.topic.lexicon.fields);
  const error = w.rng.pick(w.topic.lexicon.errors);
  const lines = [
    '```js ' + NORUN,
    `async function ${method}(id) {`,
    `  const response = await fetch(\`https://sandbox.api.example.com/v1/${resource}/\${id}\`, {`,
    '    headers: {Authorization: `Bearer ${process.env.ACCESS_TOKEN}`},',
    '  });',
    '  const body = await response.json();',
    `  if (body.error?.code === '${error}') {`,
    `    return null; // ${w.sentence().replace(/`/g, '')}`,
    '  }',
    `  if (!response.ok) throw new Error(\`${method} failed: \${response.status}\`);`,
    `  return body.${field};`,
    '}',
    '```',
  ];
  return lines.join('\n');
}

function codeBlock(w: Writer): string {
  return w.rng.pick([jsonBlock, bashBlock, jsBlock])(w);
}

function tabs(w: Writer): string {
  return [
    '<Tabs groupId="language">',
    '<TabItem value="curl" label="cURL">',
    '',
    bashBlock(w),
    '',
    '</TabItem>',
    '<TabItem value="js" label="JavaScript">',
    '',
    jsBlock(w),
    '',
    '</TabItem>',
    '</Tabs>',
  ].join('\n');
}

function admonition(w: Writer): string {
  return [
    `:::${w.rng.pick(['tip', 'note', 'warning', 'info', 'caution', 'important'])}`,
    '',
    w.paragraph(2),
    '',
    ':::',
  ].join('\n');
}

/* ------------------------------------------------------------------------------------------------ */
/* Pages                                                                                             */
/* ------------------------------------------------------------------------------------------------ */

type Section = {level: 2 | 3; heading: string; blocks: string[]};

/** Words a reader reads: everything but code blocks, imports, JSX tags and Markdown syntax. */
export function textWords(markdown: string): string[] {
  return markdown
    .replace(/^---[\s\S]*?\n---\n/, '')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^import .*$/gm, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/[^A-Za-z0-9_.'+-]+/)
    .map((word) => word.replace(/^[.'+-]+|[.'+-]+$/g, ''))
    .filter((word) => /[A-Za-z0-9]/.test(word));
}

function titleFor(w: Writer, category: number): string {
  const noun = w.rng.pick(w.topic.domainNouns);
  const other = w.rng.pick(w.topic.nouns);
  const options =
    [
      [
        () => `${capitalise(gerund(w.rng.pick(w.topic.verbs)))} ${plural(noun)} for ${plural(other)}`,
        () => `${capitalise(gerund(w.rng.pick(w.topic.verbs)))} ${w.rng.pick(w.topic.adjectives)} ${plural(noun)}`,
        () => `${capitalise(noun)} ${other} integration`,
        () => `${capitalise(gerund(w.rng.pick(w.topic.verbs)))} ${plural(noun)} with ${w.rng.pick(w.topic.brands)}`,
      ],
      [
        () =>
          `${capitalise(noun)} ${w.rng.pick(['runbook', 'checklist', 'playbook', 'escalation', 'audit', 'review'])}`,
        () =>
          `${capitalise(w.rng.pick(w.topic.adjectives))} ${noun} ${w.rng.pick(['operations', 'monitoring', 'alerts', 'handover'])}`,
        () =>
          `${capitalise(other)} ${w.rng.pick(['incidents', 'thresholds', 'rotation', 'reports'])} for ${plural(noun)}`,
      ],
      [
        () =>
          `${capitalise(gerund(w.rng.pick(w.topic.verbs)))} ${noun} ${plural(other)} in ${w.rng.pick(w.topic.places)}`,
        () => `${capitalise(noun)} recipe: ${gerund(w.rng.pick(w.topic.verbs))} ${plural(other)}`,
        () => `${capitalise(gerund(w.rng.pick(w.topic.verbs)))} ${plural(other)} from ${w.rng.pick(w.topic.brands)}`,
      ],
    ][category] ?? [];
  return w.rng.pick(options)();
}

function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

/** One page's Markdown (MDX) source. `earlier` are generated pages it may link to. */
function pageSource(
  title: string,
  w: Writer,
  realPages: RealPage[],
  earlier: GeneratedPage[],
  position: number,
): string {
  const targetWords = w.rng.int(1500, 3000);
  const description = `How to ${w.V()} ${w.the()} ${w.pp()}: ${plural(w.rng.pick(w.topic.domainNouns))}, ${plural(w.rng.pick(w.topic.nouns))} and ${w.rng.pick(w.topic.lexicon.fields).replace(/_/g, ' ')} for ${title.toLowerCase()}.`;
  const keywords = [
    ...w.topic.domainNouns.slice(0, w.rng.int(1, 3)),
    ...w.rng.shuffle(w.topic.lexicon.errors).slice(0, w.rng.int(0, 2)),
    ...w.rng.shuffle(w.topic.lexicon.events).slice(0, w.rng.int(0, 2)),
    ...(w.rng.chance(0.5) ? [w.rng.pick(w.topic.brands)] : []),
  ];

  // Sections: 3–6 `##` (some with `###` below them), then Next steps: 6–10 headings in all.
  const headings = new Set<string>(['Next steps']);
  const heading = () => {
    for (;;) {
      const text = w.heading();
      if (!headings.has(text)) {
        headings.add(text);
        return text;
      }
    }
  };
  const totalHeadings = w.rng.int(6, 10) - 1;
  const topLevel = Math.min(totalHeadings, w.rng.int(3, 6));
  const sections: Section[] = [];
  for (let i = 0; i < topLevel; i += 1) sections.push({level: 2, heading: heading(), blocks: [w.paragraph()]});
  for (let i = topLevel; i < totalHeadings; i += 1) {
    const parent = w.rng.int(0, sections.length - 1);
    let at = parent + 1;
    while (sections[at]?.level === 3) at += 1;
    sections.splice(at, 0, {level: 3, heading: heading(), blocks: [w.paragraph()]});
  }

  // One or two tables, the tabs, 0–2 more code blocks (2–4 in all), lists, maybe an admonition.
  const extras = [table(w), tabs(w), bulletList(w)];
  if (w.rng.chance(0.5)) extras.push(table(w));
  for (let i = w.rng.int(0, 2); i > 0; i -= 1) extras.push(codeBlock(w));
  if (w.rng.chance(0.6)) extras.push(admonition(w));
  if (w.rng.chance(0.5)) extras.push(bulletList(w));
  for (const block of extras) {
    const section = w.rng.pick(sections);
    section.blocks.push(`${w.paragraph(w.rng.int(1, 2))}`, block);
  }

  const links = [
    ...w.rng.shuffle(realPages).slice(0, 2),
    ...w.rng.shuffle(earlier.slice(-30)).slice(0, w.rng.int(1, 2)),
  ];
  const nextSteps = links.map((link) => `- [${link.title}](${link.route}): ${w.sentence()}`).join('\n');

  const render = () =>
    [
      '---',
      `title: ${yamlString(title)}`,
      `description: ${yamlString(description)}`,
      `sidebar_position: ${position}`,
      'keywords:',
      ...keywords.map((keyword) => `  - ${yamlString(keyword)}`),
      '---',
      '',
      "import Tabs from '@theme/Tabs';",
      "import TabItem from '@theme/TabItem';",
      '',
      w.paragraph(w.rng.int(3, 5)),
      '',
      ...sections.flatMap((section) => [
        `${'#'.repeat(section.level)} ${section.heading}`,
        '',
        ...section.blocks.flatMap((block) => [block, '']),
      ]),
      '## Next steps',
      '',
      nextSteps,
      '',
    ].join('\n');

  // Then prose until the page reaches its length.
  let source = render();
  while (textWords(source).length < targetWords) {
    const section = w.rng.pick(sections);
    section.blocks.splice(w.rng.int(1, section.blocks.length), 0, w.paragraph());
    source = render();
  }
  return source;
}

/** The site's own pages (route and title from front matter), for Next steps links and title clashes. */
function realPages(docsDir: string): RealPage[] {
  const generated = new Set<string>(GENERATED_CATEGORIES.map((category) => category.dir));
  const pages: RealPage[] = [];
  for (const dir of readdirSync(docsDir, {withFileTypes: true})) {
    if (!dir.isDirectory() || generated.has(dir.name)) continue;
    for (const name of readdirSync(path.join(docsDir, dir.name))) {
      if (!/^[^_].*\.mdx?$/.test(name)) continue;
      const source = readFileSync(path.join(docsDir, dir.name, name), 'utf8');
      const front = /^---\n([\s\S]*?)\n---/.exec(source)?.[1] ?? '';
      const title = /^title:\s*(.+)$/m
        .exec(front)?.[1]
        ?.trim()
        .replace(/^["']|["']$/g, '');
      const slug = /^slug:\s*(.+)$/m
        .exec(front)?.[1]
        ?.trim()
        .replace(/^["']|["']$/g, '');
      if (!title) continue;
      pages.push({title, route: slug ?? `/${dir.name}/${name.replace(/\.mdx?$/, '')}`});
    }
  }
  return pages.sort((a, b) => a.route.localeCompare(b.route));
}

/** Writes `count` generated pages (and their categories) into `docsDir`. */
export function writeGeneratedPages(docsDir: string, count: number): GeneratedSet {
  const real = realPages(docsDir);
  const taken = new Set([
    ...real.map((page) => page.title.toLowerCase()),
    ...GENERATED_CATEGORIES.map((c) => c.label.toLowerCase()),
  ]);
  const slugs = new Set<string>();
  const pages: GeneratedPage[] = [];
  const distinct = new Set<string>();
  let words = 0;
  if (count > 0) {
    for (const category of GENERATED_CATEGORIES) {
      const dir = path.join(docsDir, category.dir);
      if (!existsSync(dir)) mkdirSync(dir);
      writeFileSync(
        path.join(dir, '_category_.json'),
        `${JSON.stringify({label: category.label, position: category.position, collapsible: false, link: null}, null, 2)}\n`,
      );
    }
  }
  for (let index = 0; index < count; index += 1) {
    const rng = new Rng(hashSeed(`search-scale page ${index}`));
    const w = new Writer(rng, makeTopic(rng));
    const categoryIndex = index % GENERATED_CATEGORIES.length;
    const category = GENERATED_CATEGORIES[categoryIndex]!;
    let title = titleFor(w, categoryIndex);
    for (let tries = 0; taken.has(title.toLowerCase()) || slugs.has(slugify(title)); tries += 1) {
      title = tries < 20 ? titleFor(w, categoryIndex) : `${titleFor(w, categoryIndex)} in ${w.PLACE()} ${index}`;
    }
    taken.add(title.toLowerCase());
    const slug = slugify(title);
    slugs.add(slug);
    const position = Math.floor(index / GENERATED_CATEGORIES.length) + 1;
    const source = pageSource(title, w, real, pages, position);
    const file = path.join(docsDir, category.dir, `${slug}.mdx`);
    writeFileSync(file, source);
    const text = textWords(source);
    words += text.length;
    for (const word of text) distinct.add(word.toLowerCase());
    pages.push({file, route: `/${category.dir}/${slug}`, title, words: text.length});
  }
  return {pages, words, distinctWords: distinct.size};
}

/* ------------------------------------------------------------------------------------------------ */
/* Vocabulary (functions, so the lists sit at the end of the file but are ready before use)         */
/* ------------------------------------------------------------------------------------------------ */

function GENERAL_NOUNS(): string {
  return `account, action, address, agreement, amount, analysis, answer, application, approach, area, argument,
  arrangement, article, aspect, assumption, attempt, attention, audience, author, average, background, basis,
  behaviour, benefit, boundary, branch, budget, buffer, button, calendar, campaign, capacity, category, cause,
  centre, chain, challenge, change, channel, chapter, character, choice, claim, class, column, comment, commitment,
  community, comparison, component, concept, concern, condition, conference, confidence, configuration, conflict,
  connection, consequence, constraint, consumer, contact, container, content, context, contract, contrast,
  contribution, control, convention, conversation, copy, corner, cost, count, counter, country, course, criterion,
  culture, cycle, damage, date, deadline, deal, debate, decision, default, definition, degree, delay, demand,
  department, dependency, depth, description, design, detail, development, difference, difficulty, dimension,
  direction, discussion, display, distance, distribution, document, draft, duration, duty, edge, edition, effect,
  effort, element, emphasis, employee, engine, entry, environment, equipment, error, estimate, evaluation, evidence,
  example, exception, exchange, exercise, expectation, experience, experiment, expert, explanation, expression,
  extension, extent, facility, factor, failure, feature, feedback, figure, file, flag, flow, focus, folder, format,
  foundation, fraction, frame, framework, frequency, function, gap, goal, group, growth, guarantee, guidance, guide,
  habit, handle, handler, heading, history, holder, hour, idea, image, impact, implementation, importance,
  improvement, incident, income, increase, index, indicator, individual, industry, influence, input, insight,
  instance, instruction, intent, interest, interface, interval, investment, issue, item, journey, judgement, key,
  knowledge, label, language, layer, layout, lead, leader, lesson, level, library, lifecycle, limit, line, link,
  list, load, location, lock, log, logic, loop, machine, maintenance, majority, manager, manner, map, margin, market,
  match, material, matter, meaning, measure, mechanism, meeting, memory, message, method, metric, minute, mistake,
  mode, model, module, moment, month, motion, name, nature, need, note, notice, number, object, objective,
  obligation, observation, occasion, offer, office, opinion, opportunity, option, outcome, output, overview, owner,
  page, pair, panel, paragraph, parameter, part, participant, party, pass, path, pattern, pause, peak, percentage,
  performance, period, person, perspective, phase, picture, piece, pipeline, place, platform, point, policy, pool,
  portion, position, possibility, practice, preference, premise, presence, pressure, principle, priority, problem,
  procedure, process, product, programme, progress, project, promise, proof, property, proportion, proposal,
  protection, provider, purpose, quality, quantity, question, range, rate, ratio, reader, reason, record, reference,
  relation, relationship, reliability, remainder, replacement, reply, request, requirement, research, reservation,
  resource, response, responsibility, result, review, revision, risk, room, root, route, row, rule, sample, scale,
  scenario, schedule, scheme, screen, section, sector, selection, sense, sequence, series, server, service, setting,
  shape, share, shift, side, sign, signal, site, situation, size, skill, slot, snapshot, solution, source, space,
  speed, spread, stage, standard, start, state, statement, step, storage, store, strategy, stream, strength,
  structure, study, style, subject, submission, success, suggestion, summary, supply, surface, survey, switch,
  symbol, system, table, tag, target, task, technique, template, term, test, text, theme, theory, thread, time,
  title, tool, topic, total, trace, track, trade, traffic, transaction, transfer, transition, trend, trial, trigger,
  trust, type, unit, update, upgrade, user, value, variable, variant, variation, vehicle, view, visibility, volume,
  warning, week, weight, window, word, workload, world, year, airport, luggage, passport, hotel, ticket, flight,
  holiday, weekend, morning, evening, battery, charger, phone, tablet, laptop, watch, camera, coffee, train,
  station, border, harbour, island, mountain, coast, village, city, street, museum, festival, conference venue,
  cruise, ferry, terminal, lounge, boarding pass, itinerary, booking, guest, visitor, family, student, colleague,
  employer, supplier, vendor, retailer, wholesaler, distributor, agency, franchise, branch office, headquarters,
  warehouse, shipment, parcel, courier, invoice line, spreadsheet, presentation, whiteboard, calendar invite,
  newsletter, announcement, survey form, questionnaire, brochure, flyer, banner, poster, keyboard, screen reader,
  accessibility, contrast ratio, font, colour, icon, illustration, diagram, chart, graph, dashboard widget,
  tooltip, dropdown, checkbox, toggle, slider, modal, drawer, breadcrumb, sidebar, footer, header bar, search box,
  filter chip, pagination bar, loading state, empty state, error state, skeleton, placeholder, animation,
  transition effect, gesture, swipe, tap, click, scroll, viewport, breakpoint, stylesheet, script, bundle size,
  compiler, runtime, interpreter, debugger, profiler, benchmark, regression, milestone, roadmap, backlog, sprint,
  retrospective, standup, stakeholder, sponsor, steering group, budget line, forecast, quarter, fiscal year,
  revenue, profit, loss, expense, overhead, headcount, salary, bonus, pension, insurance, warranty, lease, loan,
  mortgage, deposit, withdrawal, transfer fee, commission fee, exchange office, cash, coin, wallet, purse, bank,
  branch manager, teller, cashier, clerk, inspector, auditor, regulator, ministry, authority, embassy, consulate,
  visa, permit, licence, certificate of origin, customs, duty-free shop, souvenir, postcard, guidebook, phrasebook,
  translator, interpreter service, tour guide, excursion, hike, trail, beach, harbour town, old town, cathedral,
  temple, market hall, night market, street food, restaurant, cafe, bakery, pharmacy, clinic, hospital, emergency,
  ambulance, police station, lost property, weather, forecast model, storm, heatwave, snowfall, monsoon, season,
  peak season, off season, daylight, timezone difference, jet lag, layover, delay notice, gate change, queue`;
}

function DOMAIN_NOUNS(): string {
  return `eSIM, eSIM profile, SIM card, physical SIM, SIM tray, dual SIM, ICCID, EID, IMEI, IMSI, MSISDN, MCC, MNC,
  APN, PDP context, carrier, mobile operator, host network, home network, visited network, roaming partner, data
  roaming, roaming agreement, cell tower, signal strength, network slice, 4G network, 5G network, LTE band, VoLTE,
  hotspot, tethering, handset, device model, modem, router, gateway, SM-DP+ server, LPA, activation code,
  confirmation code, matching ID, QR code, install link, profile download, profile state, provisioning request,
  activation, deactivation, suspension, reactivation, data plan, data package, data pack, unlimited plan, regional
  plan, global plan, country plan, bundle, add-on, top-up, voucher, promo code, discount code, coupon, allowance,
  data allowance, fair-use policy, speed cap, throttling rule, usage record, usage report, usage threshold, quota,
  validity period, expiry date, renewal, auto-renewal, subscription, subscriber, traveller, customer, end user,
  merchant, reseller, partner, partner account, sub-account, tenant, workspace, storefront, checkout, checkout page,
  cart, catalogue, package list, SKU, price list, wholesale price, retail price, margin rule, commission, exchange
  rate, currency, tax rate, VAT number, balance, prepaid balance, credit line, credit limit, invoice, credit note,
  refund, partial refund, chargeback, dispute, receipt, ledger entry, settlement, settlement report, payout,
  reconciliation, statement, billing cycle, order, order line, order status, fulfilment, delivery, webhook, webhook
  endpoint, signing secret, signature header, HMAC digest, retry schedule, dead-letter queue, event log, event type,
  delivery attempt, access token, refresh token, client credential, client ID, client secret, API key, OAuth scope,
  permission set, role, team member, invitation, audit log, audit trail, rate limit, request quota, concurrency
  limit, request ID, trace ID, correlation ID, idempotency key, pagination cursor, page size, status code, error
  code, error message, response body, request body, query string, path parameter, header, JSON payload, schema,
  OpenAPI document, Postman collection, environment variable, SDK client, SDK method, iframe widget, widget
  session, embed code, postMessage event, allowed origin, Content-Security-Policy, sandbox, sandbox credential,
  production key, staging environment, test order, test card, base URL, endpoint, REST API, HTTP method, TLS
  certificate, IP allowlist, firewall rule, proxy, CDN, cache header, ETag, timeout, retry, backoff, exponential
  backoff, jitter, circuit breaker, health check, uptime, latency, throughput, incident, status page, maintenance
  window, outage, escalation, support ticket, help centre, knowledge base, SLA, compliance, KYC check, GDPR request,
  data retention, consent record, privacy notice, terms of service, changelog entry, deprecation notice, API
  version, migration guide, feature flag, release note, export file, CSV export, scheduled report, alert rule,
  notification, email template, SMS message, push notification, customer portal, support agent, onboarding
  checklist, go-live review, integration test, contract test, mock server, fixture, sample app, client library,
  CLI, shell script, cron job, background job, queue worker, batch job, import job, sync job, data warehouse,
  analytics event, conversion rate, churn, retention, cohort, funnel, attribution, campaign code, affiliate link,
  loyalty points, gift card, travel insurance, booking reference, flight number, arrival date, departure date,
  destination, coverage map, network coverage, country code, region code, zone, time zone, locale, translation key`;
}

function VERBS(): string {
  return `accept, access, activate, add, adjust, allow, analyse, answer, append, apply, approve, archive, arrange,
  assign, attach, attempt, authorise, avoid, back up, balance, block, book, browse, build, calculate, call, cancel,
  capture, change, charge, check, choose, claim, clean, clear, close, collect, combine, compare, compile, complete,
  compress, configure, confirm, connect, consider, contain, continue, convert, copy, correct, count, cover, create,
  deactivate, debug, decide, declare, decline, decode, decrease, define, delay, delete, deliver, deploy, describe,
  detect, determine, disable, discard, display, divide, document, download, drop, duplicate, edit, emit, enable,
  encode, encrypt, end, enforce, ensure, enter, estimate, evaluate, exclude, execute, expand, expect, expire,
  explain, export, expose, extend, extract, fail, fetch, filter, find, finish, fix, flag, follow, force, format,
  forward, generate, grant, group, handle, hide, highlight, hold, identify, ignore, import, improve, include,
  increase, index, indicate, inform, initialise, insert, inspect, install, integrate, introduce, invalidate, invite,
  issue, join, keep, label, launch, limit, link, list, load, locate, lock, log, maintain, manage, map, mark, match,
  measure, merge, migrate, mirror, modify, monitor, move, name, navigate, note, notify, observe, obtain, open,
  operate, order, organise, override, own, parse, pass, pause, perform, permit, pick, place, plan, poll, post,
  prefer, prepare, present, preserve, prevent, print, process, produce, promote, prompt, protect, provide,
  provision, publish, pull, purchase, push, query, queue, raise, reach, read, receive, recognise, record, recover,
  redirect, reduce, refer, refresh, refund, register, reject, release, reload, remove, rename, render, renew,
  reorder, repeat, replace, report, request, require, reserve, reset, resolve, respond, restart, restore, restrict,
  resume, retain, retry, return, reuse, review, revoke, rotate, route, run, save, scan, schedule, search, secure,
  select, send, separate, serve, set, settle, share, ship, show, sign, simplify, skip, sort, specify, split, start,
  store, stream, submit, subscribe, suggest, summarise, supply, support, suspend, switch, sync, tag, test, throttle,
  track, transfer, transform, translate, travel, trigger, trust, unlock, update, upgrade, upload, validate, verify,
  view, wait for, warn, watch, wrap, write, top up, roam, dial, buy, sell, bill, audit, batch, cache, checkpoint,
  decommission, escalate, forecast, geolocate, hand over, onboard, offboard, paginate, prioritise, quarantine,
  reconcile, rebuild, resend, retire, sanitise, shard, snooze, stage, tokenise, troubleshoot, verify again, whitelist`;
}

function ADJECTIVES(): string {
  return `accurate, active, additional, adequate, advanced, affected, available, average, basic, brief, broad,
  careful, central, certain, cheap, clean, clear, common, compact, compatible, complete, complex, concurrent,
  consistent, constant, correct, critical, current, custom, daily, dedicated, default, delayed, dependent, detailed,
  different, difficult, digital, direct, distinct, domestic, dormant, duplicate, dynamic, early, effective,
  efficient, empty, encrypted, entire, equal, essential, exact, excessive, existing, expensive, expired, explicit,
  external, extra, familiar, fast, final, financial, fixed, flexible, foreign, formal, frequent, fresh, full,
  functional, general, generous, global, gradual, granular, healthy, heavy, hidden, high, historical, hourly, idle,
  immediate, important, inactive, incoming, incomplete, independent, initial, inner, internal, international,
  invalid, large, late, latest, legacy, light, limited, linear, live, local, logical, long, low, main, major,
  manual, maximum, minimal, minimum, minor, missing, mobile, modern, monthly, multiple, narrow, native, natural,
  necessary, negative, nested, neutral, new, next, normal, notable, obvious, occasional, official, old, open,
  optional, ordinary, original, outgoing, overall, paid, parallel, partial, particular, past, pending, periodic,
  permanent, personal, physical, plain, popular, portable, positive, possible, practical, precise, predictable,
  preferred, prepaid, present, previous, primary, prior, private, proper, public, quick, quiet, random, rapid,
  rare, raw, readable, ready, real, recent, recurring, redundant, regional, regular, relative, relevant, reliable,
  remaining, remote, repeated, required, reserved, responsive, restricted, reusable, robust, rough, safe,
  scheduled, secondary, secure, selected, sensitive, separate, sequential, serious, several, shared, short,
  signed, significant, silent, similar, simple, single, slow, small, smooth, soft, sparse, special, specific,
  stable, stale, standard, static, steady, strict, strong, structured, subsequent, substantial, successful,
  sudden, sufficient, suitable, supported, synchronous, temporary, tight, total, traditional, transparent,
  trusted, typical, unique, universal, unknown, unusual, upcoming, urgent, useful, usual, valid, valuable,
  variable, various, verbose, visible, vital, weekly, whole, wide, wireless, wrong, unlocked, roaming-enabled,
  carrier-locked, eSIM-capable, offline, online, throttled, metered, unmetered, cross-border, multi-country,
  white-label, self-service, read-only, write-only, idempotent, retryable, paginated, signed-in, signed-out`;
}

function ADVERBS(): string {
  return `actually, again, almost, already, also, always, automatically, briefly, carefully, clearly, closely,
  completely, consistently, correctly, currently, daily, directly, easily, effectively, entirely, especially,
  eventually, exactly, explicitly, finally, frequently, fully, generally, gradually, immediately, independently,
  initially, instead, largely, later, locally, manually, mostly, naturally, nearly, normally, now, occasionally,
  often, only, originally, otherwise, partly, periodically, permanently, possibly, precisely, previously,
  primarily, probably, promptly, properly, quickly, quietly, rarely, rather, readily, recently, regularly,
  reliably, repeatedly, safely, seldom, separately, simply, slowly, sometimes, soon, specifically, still,
  strictly, successfully, suddenly, temporarily, then, typically, usually, overnight, upfront, in bulk, in order,
  on demand, in advance, at once, by hand, in place, on time, in parallel`;
}

function PLACES(): string {
  return `Japan, Thailand, Vietnam, Indonesia, Malaysia, Singapore, the Philippines, South Korea, Taiwan, Australia,
  New Zealand, Fiji, India, Nepal, Sri Lanka, the Maldives, the United Arab Emirates, Qatar, Oman, Jordan, Egypt,
  Morocco, Tunisia, Kenya, Tanzania, South Africa, Namibia, Ghana, Nigeria, Turkey, Greece, Cyprus, Malta, Italy,
  Spain, Portugal, France, Germany, Austria, Switzerland, the Netherlands, Belgium, Ireland, Iceland, Norway,
  Sweden, Finland, Denmark, Estonia, Latvia, Lithuania, Poland, Czechia, Slovakia, Hungary, Croatia, Slovenia,
  Serbia, Montenegro, Albania, Romania, Bulgaria, Georgia, Armenia, Kazakhstan, Uzbekistan, Mongolia, Canada,
  Mexico, Guatemala, Costa Rica, Panama, Colombia, Ecuador, Peru, Chile, Argentina, Uruguay, Brazil, Bolivia,
  Jamaica, Barbados, the Bahamas, Tokyo, Osaka, Bangkok, Hanoi, Bali, Seoul, Sydney, Auckland, Dubai, Cairo,
  Marrakesh, Nairobi, Cape Town, Istanbul, Athens, Rome, Barcelona, Lisbon, Paris, Berlin, Vienna, Zurich,
  Amsterdam, Dublin, Reykjavik, Oslo, Stockholm, Helsinki, Prague, Budapest, Warsaw, Tbilisi, Toronto, Vancouver,
  Cancun, Bogota, Lima, Santiago, Buenos Aires, Rio de Janeiro, the Caribbean, Southeast Asia, the Balkans,
  Scandinavia, the Gulf, Central America, the Andes, the Alps, Patagonia, the Schengen area`;
}

/** Parts of field names, methods, error codes and events: singular, lower case. */
function NAME_PARTS(): string {
  return `account, activation, address, alert, allowance, amount, apn, attempt, audit, balance, batch, billing,
  booking, bundle, cache, campaign, card, carrier, cart, catalogue, channel, charge, checkout, client, code, country,
  coverage, credit, currency, cursor, customer, cycle, data, delivery, destination, device, discount, dispute,
  download, eid, email, endpoint, esim, event, expiry, export, fee, filter, flag, gateway, grace, handset, iccid,
  imei, install, invoice, item, key, label, ledger, limit, line, link, locale, margin, merchant, message, network,
  note, notification, offer, order, origin, owner, package, page, partner, payload, payout, period, plan, policy,
  portal, price, profile, promo, provider, qr, quota, rate, reason, receipt, reference, refund, region, renewal,
  report, request, reseller, retry, role, roaming, route, rule, sandbox, scope, secret, session, settlement, signal,
  signature, sim, sku, slot, source, speed, state, status, storefront, subscriber, subscription, summary, support,
  tax, team, tenant, threshold, ticket, timeout, token, topup, trace, traveller, trigger, usage, user, validity,
  vendor, voucher, wallet, webhook, widget, window, zone, hotspot, tether, modem, cell, band, slice, tower, operator,
  mcc, mnc, msisdn, imsi, lpa, smdp, matching, confirmation, threshold, quiet, peak, cap, burst, fallback, primary,
  secondary, local, global, regional, daily, monthly, pending, active, expired, suspended, last, next, first, max,
  min, total, remaining, used, created, updated, deleted, external, internal, public, private`;
}

function BRAND_STARTS(): string {
  return 'Tel, Mob, Net, Sky, Roam, Aer, Link, Wav, Cel, Orb, Vox, Zen, Nov, Blu, Geo, Star, Terr, Nex, Volt, Luma, Kor, Sol, Vir, Axi, Ori, Pol, Mar, Tri, Quan, Ember';
}

function BRAND_ENDS(): string {
  return 'ara, ix, ona, ia, eon, ify, ly, net, com, tel, wave, go, lyn, vio, tra, mo, ica, os, ent, ux';
}
