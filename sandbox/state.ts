/**
 * What the local sandbox remembers, per credential, and the rules it enforces: the catalogue,
 * orders, eSIMs, top-ups, refunds, the balance and its transactions, webhook endpoints and the
 * signed deliveries it makes. The state rules come from src/constants/behaviour.ts, the same
 * source the pages render, so a sample the docs show can only pass if a real sandbox would let it.
 */
import {createHash, createHmac, randomInt} from 'node:crypto';

import {API_VERSION, BILLING, ENVIRONMENTS, LIFETIMES, LIMITS, SANDBOX, URLS} from '../src/constants/api';
import {
  ACTIONS,
  IDEMPOTENCY,
  REFUND_RULES,
  SIMULATE_ACTIONS,
  needsProfile,
  needsValidityClock,
  STATE_RULES,
  USAGE_THRESHOLDS,
  VALIDITY_RULES,
  WIDGET_CAPS,
  errorRule,
  type BalanceEntryType,
  type EsimStatus,
  type OrderStatus,
  type TopupStatus,
} from '../src/constants/behaviour';
import type {WebhookEventExample} from '../lib/contract/webhooks';
import {DESTINATIONS, PACKAGES, regionOf, type Package} from './catalogue';

export type Answer = {status: number; body?: unknown; headers?: Record<string, string>};

export type Call = {
  /** `METHOD /template` of the contract. */
  operation: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
  /** A body that is not JSON, as sent: compared as text, since it has no JSON value. */
  unparsedBody?: string;
  idempotencyKey: string | undefined;
  clientId: string;
  requestId: string;
  /**
   * A refusal decided before the operation (the contract's validation): answered instead of running
   * it, and stored under the key like any other answer the model stores.
   */
  refusedWith?: Refusal;
};

export type Delivery = {
  endpointId: string;
  url: string;
  event: WebhookEvent;
  headers: Record<string, string>;
  body: string;
  status: number | null;
};

export type WebhookEvent = {
  id: string;
  type: string;
  api_version: string;
  created_at: string;
  livemode: false;
  /** Only on an event sent by the test operation. */
  test?: true;
  data: {object: unknown; threshold?: number};
};

/** Sends one signed delivery; answers the endpoint's HTTP status, or null when it cannot be reached. */
export type WebhookTransport = (url: string, headers: Record<string, string>, body: string) => Promise<number | null>;

type Money = {amount: number; currency: string};
type Order = {
  id: string;
  status: OrderStatus;
  package_id: string;
  quantity: number;
  unit_price: Money;
  total: Money;
  esims: {iccid: string; status: EsimStatus}[];
  customer_reference: string | null;
  metadata: Record<string, string>;
  failure_code: string | null;
  created_at: string;
  completed_at: string | null;
  cancelled_at: string | null;
  refunded_total: Money;
};
type Esim = {
  iccid: string;
  status: EsimStatus;
  profile_state: 'available' | 'downloaded' | 'installed' | 'enabled' | 'disabled' | 'deleted';
  eid: string | null;
  order_id: string;
  package_id: string;
  label: string | null;
  metadata: Record<string, string>;
  activated_at: string | null;
  expires_at: string | null;
  // Not on the wire:
  dataTotalMb: number | null;
  dataUsedMb: number;
  thresholdsSent: number[];
  statusBeforeSuspend?: EsimStatus;
  /** Validity still to add when the clock starts (days), from the package and top-ups before activation. */
  pendingValidityDays: number;
};
/** A balance transaction as `GET /v1/balance/transactions` answers it (a debit's amount is negative). */
export type BalanceTransaction = {
  id: string;
  type: BalanceEntryType;
  amount: Money;
  source_id: string | null;
  created_at: string;
  balance_after: Money;
};
type Topup = {
  id: string;
  iccid: string;
  package_id: string;
  status: TopupStatus;
  price: Money;
  created_at: string;
  applied_at: string | null;
};
type Endpoint = {
  id: string;
  url: string;
  enabled_events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  created_at: string;
  secret: string;
  /** The secret before the last roll, still signing until previous_secret_expires_at. */
  previousSecret: string | null;
  previous_secret_expires_at: string | null;
};
type Account = {
  balance: number;
  lowBalanceThreshold: number;
  transactions: BalanceTransaction[];
  /** Orders answered `processing`, and how their next read ends them. */
  processing: Map<string, 'completed' | 'failed'>;
  orders: Map<string, Order>;
  esims: Map<string, Esim>;
  topups: Map<string, Topup>;
  refunds: Map<string, Record<string, unknown>>;
  endpoints: Map<string, Endpoint>;
  /** Every event sent (test deliveries aside), oldest first: what GET /v1/events lists. */
  events: WebhookEvent[];
  idempotency: Map<string, {fingerprint: string; answer?: Answer}>;
  usageCalls: Map<string, number>;
};

const CURRENCY = PACKAGES[0]!.wholesale_price.currency;
/** `1,000.00` → 100000 minor units. */
const minor = (decimalText: string) => Math.round(Number(decimalText.replace(/,/g, '')) * 100);
export const STARTING_BALANCE = minor(SANDBOX.startingBalance);
const DAY = 86_400_000;

/**
 * Why a simulate action is refused. A suspended eSIM is judged by the status it had before, so the
 * message names that one and the statuses the action needs, never `suspended` as if it were enough.
 */
export function simulateRefusal(
  action: string,
  iccid: string,
  status: EsimStatus,
  before: EsimStatus | null,
  from: readonly EsimStatus[],
): string {
  const needs = from.filter((candidate) => candidate !== 'suspended').join(', ');
  if (status === 'suspended') {
    return `Cannot simulate ${action} on eSIM ${iccid}: it is suspended and was ${before} before, and ${action} needs ${needs}${from.includes('suspended') ? ', or suspended from one of those' : ''}.`;
  }
  return `Cannot simulate ${action} on eSIM ${iccid}: it is ${status}, and ${action} needs ${needs}${from.includes('suspended') ? ' or suspended' : ''}.`;
}

/** The event catalogue: every webhook event type some action of the model sends. */
const EVENT_TYPES: readonly string[] = [
  ...new Set(ACTIONS.flatMap((action) => action.events.map((event) => event.replace(/ ×$/, '')))),
];
/** Sandbox-only packages that trigger a behaviour: never listed in the catalogue. */
const TRIGGER_PACKAGES: readonly string[] = [
  SANDBOX.failingPackageId,
  SANDBOX.unavailablePackageId,
  SANDBOX.slowPackageId,
  SANDBOX.slowFailingPackageId,
  SANDBOX.failingTopupPackageId,
  SANDBOX.pendingTopupPackageId,
  SANDBOX.pendingFailingTopupPackageId,
];
/** Listing order: local plans first, then regional, then global. */
const PACKAGE_TYPES: readonly Package['type'][] = ['local', 'regional', 'global'];

/** Crockford's base 32, in code-unit order: two IDs compare as strings as their sequences do. */
const ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ID_SEQUENCE_LENGTH = 8;
/** Started at the clock (in seconds) so a later run's IDs sort after an earlier run's, as ULIDs do. */
let idSequence = Math.floor(Date.now() / 1000);
/**
 * IDs sort in the order they were made: a newest-first list is ordered by ID, so a cursor can name
 * the last item it returned. A sequence, then two random characters.
 */
function newId(prefix: string): string {
  let sequence = '';
  for (let rest = idSequence++, index = 0; index < ID_SEQUENCE_LENGTH; index++, rest = Math.floor(rest / 32)) {
    sequence = ID_ALPHABET[rest % 32]! + sequence;
  }
  const random = Array.from({length: 2}, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');
  return `${prefix}_01${sequence}${random}`;
}

/** Code-unit order, the same in every locale. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * How a list is ordered, so that a page can start right after the item its cursor names: items made
 * during a walk then come before that item (newest first) or keep their place, and never repeat.
 */
type ListOrder<T, Key> = {
  /** What a cursor keeps of an item: enough to place any other item before or after it. */
  keyOf: (item: T) => Key;
  /** The key a decoded cursor holds, or null when it is not one of this list's. */
  parse: (decoded: unknown) => Key | null;
  /** Negative when `a` is listed before `b`. */
  compare: (a: Key, b: Key) => number;
};
type IdKey = {id: string};

const parseIdKey = (decoded: unknown): IdKey | null =>
  isRecord(decoded) && typeof decoded.id === 'string' && Object.keys(decoded).length === 1 ? {id: decoded.id} : null;

/** Orders, eSIMs, top-ups, transactions, events, endpoints: newest first, which is by ID (or ICCID), descending. */
function newestFirst<T>(idOf: (item: T) => string): ListOrder<T, IdKey> {
  return {keyOf: (item) => ({id: idOf(item)}), parse: parseIdKey, compare: (a, b) => byCodeUnits(b.id, a.id)};
}

/** A list whose order never changes (destinations, an eSIM's top-up packages): a cursor names one of its items. */
function fixedOrder<T>(all: readonly T[], idOf: (item: T) => string): ListOrder<T, IdKey> {
  const position = new Map(all.map((item, index) => [idOf(item), index]));
  return {
    keyOf: (item) => ({id: idOf(item)}),
    parse: (decoded) => {
      const key = parseIdKey(decoded);
      return key && position.has(key.id) ? key : null;
    },
    compare: (a, b) => position.get(a.id)! - position.get(b.id)!,
  };
}

type CatalogueKey = {type: Package['type']; country: string; data_mb: number | null; id: string};
/** The catalogue: local plans, then regional, then global; each by its first country, then data (unlimited last). */
const CATALOGUE_ORDER: ListOrder<Package, CatalogueKey> = {
  keyOf: (pkg) => ({type: pkg.type, country: pkg.countries[0]!, data_mb: pkg.data_mb, id: pkg.id}),
  parse: (decoded) =>
    isRecord(decoded) &&
    PACKAGE_TYPES.includes(decoded.type as Package['type']) &&
    typeof decoded.country === 'string' &&
    (decoded.data_mb === null || typeof decoded.data_mb === 'number') &&
    typeof decoded.id === 'string'
      ? {
          type: decoded.type as Package['type'],
          country: decoded.country,
          data_mb: decoded.data_mb as number | null,
          id: decoded.id,
        }
      : null,
  compare: (a, b) =>
    PACKAGE_TYPES.indexOf(a.type) - PACKAGE_TYPES.indexOf(b.type) ||
    byCodeUnits(a.country, b.country) ||
    (a.data_mb ?? Infinity) - (b.data_mb ?? Infinity) ||
    byCodeUnits(a.id, b.id),
};

const DESTINATION_ORDER = fixedOrder(DESTINATIONS, (destination) => destination.code);
const BY_ID = newestFirst((item: {id: string}) => item.id);
const BY_ICCID = newestFirst((esim: {iccid: string}) => esim.iccid);

function luhnCheckDigit(digits: string): number {
  let sum = 0;
  [...digits].reverse().forEach((char, index) => {
    let digit = Number(char);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  });
  return (10 - (sum % 10)) % 10;
}

/** A JSON value with its object keys sorted: the same text for the same value, whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const money = (amount: number): Money => ({amount, currency: CURRENCY});
const decimal = (minor: number) => `${(minor / 100).toFixed(2)} ${CURRENCY}`;

export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const notFound = {
  package: (id: string) => new Refusal(404, 'package_not_found', `No package has the ID ${id}.`),
  order: (id: string) => new Refusal(404, 'order_not_found', `No order ${id} in the sandbox for this credential.`),
  esim: (iccid: string) => new Refusal(404, 'esim_not_found', `No eSIM ${iccid} in the sandbox for this credential.`),
  endpoint: (id: string) => new Refusal(404, 'resource_not_found', `No webhook endpoint ${id} for this credential.`),
};

function ruleFor(operation: string) {
  const rule = STATE_RULES.find((candidate) => candidate.operation === operation);
  if (!rule) throw new Error(`No state rule for ${operation} in src/constants/behaviour.ts`);
  return rule;
}

export class SandboxState {
  private accounts = new Map<string, Account>();
  private iccidCounter = 0;
  readonly deliveries: Delivery[] = [];
  private pendingDeliveries = new Set<Promise<unknown>>();

  constructor(
    private readonly transport: WebhookTransport,
    private readonly now: () => number = Date.now,
    /** The contract's example event of each type (`webhookEventExamples`): what a test event carries. */
    private readonly eventExamples: readonly WebhookEventExample[] = [],
  ) {}

  /** Every operation this state answers; others fall back to the contract's examples. */
  private static readonly HANDLERS = SandboxState.handlers();
  static readonly OPERATIONS: readonly string[] = Object.keys(SandboxState.HANDLERS);

  handles(operation: string): boolean {
    return SandboxState.OPERATIONS.includes(operation);
  }

  /** The balance's movements, oldest first (what a reconciliation must add up). */
  transactions(clientId: string): readonly BalanceTransaction[] {
    return this.account(clientId).transactions;
  }

  /** Whether an answer is stored under this Idempotency-Key (a replay would answer it). */
  storedUnderKey(clientId: string, key: string): boolean {
    return this.account(clientId).idempotency.get(key)?.answer !== undefined;
  }

  balance(clientId: string): number {
    return this.account(clientId).balance;
  }

  /** Resolves once every delivery started so far has finished. */
  async settled(): Promise<void> {
    while (this.pendingDeliveries.size > 0) {
      await Promise.all([...this.pendingDeliveries]);
    }
  }

  private account(clientId: string): Account {
    let account = this.accounts.get(clientId);
    if (!account) {
      account = {
        balance: STARTING_BALANCE,
        lowBalanceThreshold: minor(BILLING.lowBalanceThresholdDefault),
        transactions: [],
        processing: new Map(),
        orders: new Map(),
        esims: new Map(),
        topups: new Map(),
        refunds: new Map(),
        endpoints: new Map(),
        events: [],
        idempotency: new Map(),
        usageCalls: new Map(),
      };
      this.accounts.set(clientId, account);
    }
    return account;
  }

  private iso(offsetMs = 0) {
    return new Date(this.now() + offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private later(timestamp: string, offsetMs: number) {
    return new Date(Date.parse(timestamp) + offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  async answer(call: Call): Promise<Answer> {
    const account = this.account(call.clientId);
    const isPost = call.operation.startsWith('POST ');
    // IDEMPOTENCY.sameRequestSentence: the method, the path and the body as a JSON value, no body being `{}`.
    const body =
      call.body === undefined ||
      call.body === null ||
      (typeof call.body === 'object' && Object.keys(call.body).length === 0)
        ? {}
        : call.body;
    const fingerprint = createHash('sha256')
      .update(`${call.operation}\n${canonicalJson(call.params)}\n${call.unparsedBody ?? canonicalJson(body)}`)
      .digest('hex');
    const stored = isPost && call.idempotencyKey ? account.idempotency.get(call.idempotencyKey) : undefined;
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        return this.refusal(
          call,
          new Refusal(
            409,
            'idempotency_key_reused',
            'This Idempotency-Key was used with another request (another body, method or path); use a new key for a new request.',
            'Idempotency-Key',
          ),
        );
      }
      if (!stored.answer) {
        return this.refusal(
          call,
          new Refusal(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still running.'),
        );
      }
      return {...stored.answer, headers: {...stored.answer.headers, 'Idempotent-Replayed': 'true'}};
    }
    const entry: {fingerprint: string; answer?: Answer} | undefined =
      isPost && call.idempotencyKey ? {fingerprint} : undefined;
    if (entry) account.idempotency.set(call.idempotencyKey!, entry);
    let answer: Answer;
    try {
      if (call.refusedWith) throw call.refusedWith;
      answer = await this.dispatch(call, account);
    } catch (error) {
      if (!(error instanceof Refusal)) {
        if (entry) account.idempotency.delete(call.idempotencyKey!);
        throw error;
      }
      answer = this.refusal(call, error);
    }
    if (entry) {
      // The model says which answers are stored: a 4xx error is, and is replayed like a success.
      const errorCode = (answer.body as {error?: {code?: string}} | undefined)?.error?.code;
      if (IDEMPOTENCY.isStored(answer.status, errorCode)) entry.answer = answer;
      else account.idempotency.delete(call.idempotencyKey!);
    }
    return answer;
  }

  private refusal(call: Call, refusal: Refusal): Answer {
    // The model states each code's status and retry policy; a refusal that disagrees is a sandbox bug.
    const rule = errorRule(refusal.code);
    if (rule.status !== refusal.status) {
      throw new Error(`${refusal.code} is ${rule.status} in the behaviour model, not ${refusal.status}`);
    }
    return {
      status: refusal.status,
      headers: refusal.headers,
      body: {
        error: {
          code: refusal.code,
          message: refusal.message,
          param: refusal.param,
          request_id: call.requestId,
          doc_url: `${URLS.errorsDocBase}#${refusal.code}`,
          retry: rule.retry,
        },
      },
    };
  }

  /** The answer of each operation the state knows, by `METHOD /template`. */
  private static handlers(): Record<
    string,
    (state: SandboxState, call: Call, account: Account) => Answer | Promise<Answer>
  > {
    const ok = (value: unknown, status = 200): Answer => ({status, body: value});
    return {
      'GET /v1/destinations': (state, call, _account) => ok(state.page(DESTINATIONS, call.query, DESTINATION_ORDER)),
      'GET /v1/packages': (state, call, _account) =>
        ok(state.page(state.packages(call.query), call.query, CATALOGUE_ORDER)),
      'GET /v1/packages/{package_id}': (state, call, _account) => ok(state.pkg(call.params.package_id!)),
      'POST /v1/orders': (state, call, account) => state.createOrder(account, call.body!),
      'GET /v1/orders': (state, call, account) => ok(state.page(state.orders(account, call.query), call.query, BY_ID)),
      'GET /v1/orders/{order_id}': (state, call, account) => ok(state.readOrder(account, call.params.order_id!)),
      'POST /v1/orders/{order_id}/cancel': (state, call, account) =>
        ok(state.cancelOrder(account, call.params.order_id!)),
      'GET /v1/esims': (state, call, account) => ok(state.page(state.esims(account, call.query), call.query, BY_ICCID)),
      'GET /v1/esims/{iccid}': (state, call, account) => ok(state.view(state.esim(account, call.params.iccid!))),
      'PATCH /v1/esims/{iccid}': (state, call, account) =>
        ok(state.updateEsim(account, call.params.iccid!, call.body!)),
      'POST /v1/esims/{iccid}/suspend': (state, call, account) => ok(state.suspend(account, call.params.iccid!)),
      'POST /v1/esims/{iccid}/resume': (state, call, account) => ok(state.resume(account, call.params.iccid!)),
      'GET /v1/esims/{iccid}/usage': (state, call, account) => ok(state.usage(account, call.params.iccid!)),
      'GET /v1/esims/{iccid}/topup-packages': (state, call, account) => {
        const packages = state.topupPackages(state.esim(account, call.params.iccid!));
        const listOrder = fixedOrder(packages, (pkg) => pkg.id);
        return ok(state.page(packages, call.query, listOrder));
      },
      'GET /v1/esims/{iccid}/topups': (state, call, account) =>
        ok(state.page(state.topups(account, call.params.iccid!, call.query), call.query, BY_ID)),
      'POST /v1/esims/{iccid}/topups': (state, call, account) =>
        ok(state.createTopup(account, call.params.iccid!, call.body!), 201),
      'POST /v1/refunds': (state, call, account) => ok(state.createRefund(account, call.body!), 201),
      'GET /v1/balance': (state, _call, account) => ok(state.balanceView(account)),
      'GET /v1/balance/transactions': (state, call, account) => {
        const within = state.createdWithin(call.query);
        return ok(state.page(account.transactions.filter(within), call.query, BY_ID));
      },
      'POST /v1/sandbox/balance': (state, call, account) => ok(state.setBalance(account, call.body!)),
      'GET /v1/webhook-endpoints': (state, call, account) =>
        ok(state.page([...account.endpoints.values()].map(state.endpointView), call.query, BY_ID)),
      'POST /v1/webhook-endpoints': (state, call, account) => ok(state.createEndpoint(account, call.body!), 201),
      'POST /v1/webhook-endpoints/{id}/test': (state, call, account) =>
        state.testEndpoint(account, call.params.id!, call.body ?? {}),
      'POST /v1/webhook-endpoints/{id}/roll-secret': (state, call, account) =>
        ok(state.rollSecret(account, call.params.id!, call.body ?? {})),
      'POST /v1/webhook-endpoints/{id}/enable': (state, call, account) =>
        ok(state.setEndpointStatus(account, call.params.id!, 'enabled')),
      'POST /v1/sandbox/webhook-endpoints/{id}/disable': (state, call, account) =>
        ok(state.setEndpointStatus(account, call.params.id!, 'disabled')),
      'GET /v1/events': (state, call, account) => ok(state.page(state.events(account, call.query), call.query, BY_ID)),
      'DELETE /v1/webhook-endpoints/{id}': (state, call, account) => {
        if (!account.endpoints.delete(call.params.id!)) throw notFound.endpoint(call.params.id!);
        return {status: 204};
      },
      'POST /v1/widget-sessions': (state, call, account) => ok(state.widgetSession(account, call.body!), 201),
      'POST /v1/sandbox/esims/{iccid}/simulate': (state, call, account) =>
        ok(state.simulate(account, call.params.iccid!, call.body!)),
    };
  }

  private dispatch(call: Call, account: Account): Answer | Promise<Answer> {
    const handler = SandboxState.HANDLERS[call.operation];
    if (!handler) throw new Error(`The sandbox state has no handler for ${call.operation}`);
    return handler(this, call, account);
  }

  // Lists: cursor pagination (PAGINATION.cursorSentence), each list in its ListOrder.

  /**
   * One page of `items` in `order`: the `limit` items right after the one the cursor names. The
   * cursor is that item's key (`c_` + base64url JSON), not a count, so an item made or filtered
   * out since the last page moves no other item onto it or off it.
   */
  private page<T, Key>(items: readonly T[], query: URLSearchParams, order: ListOrder<T, Key>) {
    const limit = Number(query.get('limit') ?? LIMITS.pageSizeDefault);
    const cursor = query.get('cursor');
    const after = cursor === null ? null : this.cursorKey(cursor, order);
    if (query.has('page')) {
      // Retired at its Sunset (2025-10-31): the request is refused rather than answered from the start.
      throw new Refusal(400, 'validation_failed', 'page was retired on 2025-10-31; use cursor.', 'page');
    }
    const listed = [...items].sort((a, b) => order.compare(order.keyOf(a), order.keyOf(b)));
    const rest = after === null ? listed : listed.filter((item) => order.compare(order.keyOf(item), after) > 0);
    const data = rest.slice(0, limit);
    const hasMore = rest.length > limit;
    return {
      data,
      has_more: hasMore,
      next_cursor: hasMore ? `c_${Buffer.from(JSON.stringify(order.keyOf(data.at(-1)!))).toString('base64url')}` : null,
    };
  }

  private cursorKey<T, Key>(cursor: string, order: ListOrder<T, Key>): Key {
    let decoded: unknown;
    try {
      decoded = cursor.startsWith('c_') ? JSON.parse(Buffer.from(cursor.slice(2), 'base64url').toString()) : null;
    } catch {
      decoded = null;
    }
    const key = order.parse(decoded);
    if (key === null) {
      throw new Refusal(400, 'validation_failed', 'cursor is not a next_cursor this list returned.', 'cursor');
    }
    return key;
  }

  private packages(query: URLSearchParams): Package[] {
    const country = query.get('country')?.toUpperCase();
    const region = query.get('region')?.toUpperCase();
    const type = query.get('type');
    const minData = query.has('min_data_mb') ? Number(query.get('min_data_mb')) : undefined;
    return PACKAGES.filter(
      (pkg) =>
        !TRIGGER_PACKAGES.includes(pkg.id) &&
        (!country || pkg.countries.includes(country)) &&
        (!region || regionOf(pkg) === region) &&
        (!type || pkg.type === type) &&
        (minData === undefined || pkg.unlimited || (pkg.data_mb ?? 0) >= minData),
    );
  }

  private pkg(id: string): Package {
    const found = PACKAGES.find((candidate) => candidate.id === id);
    if (!found) throw notFound.package(id);
    return found;
  }

  // Money.

  /** Records one balance transaction: `amount` is negative for a debit. */
  private record(account: Account, type: BalanceEntryType, amount: number, sourceId: string | null) {
    account.balance += amount;
    account.transactions.push({
      id: newId('btx'),
      type,
      amount: money(amount),
      source_id: sourceId,
      created_at: this.iso(),
      balance_after: money(account.balance),
    });
  }

  /** A spend (order, top-up): the one kind of debit that can send `balance.low`. */
  private charge(account: Account, amount: number, type: BalanceEntryType, sourceId: string) {
    const before = account.balance;
    this.record(account, type, -amount, sourceId);
    if (before >= account.lowBalanceThreshold && account.balance < account.lowBalanceThreshold) {
      this.emit(account, 'balance.low', this.balanceView(account));
    }
  }

  private credit(account: Account, amount: number, type: BalanceEntryType, sourceId: string | null) {
    this.record(account, type, amount, sourceId);
  }

  /** `POST /v1/sandbox/balance`: sets the available balance; the difference is a deposit or an adjustment. */
  private setBalance(account: Account, body: Record<string, unknown>) {
    const amount = Number(body.amount);
    const difference = amount - account.balance;
    if (difference > 0) this.credit(account, difference, 'deposit', null);
    if (difference < 0) this.record(account, 'adjustment', difference, null);
    return this.balanceView(account);
  }

  private ensureFunds(account: Account, amount: number, what: string) {
    if (amount > account.balance) {
      throw new Refusal(
        402,
        'insufficient_balance',
        `Balance ${decimal(account.balance)} is below ${what} ${decimal(amount)}.`,
      );
    }
  }

  private balanceView(account: Account) {
    return {
      available: money(account.balance),
      credit_limit: null,
      low_balance_threshold: money(account.lowBalanceThreshold),
      auto_recharge: false,
      updated_at: this.iso(),
    };
  }

  // Orders.

  private createOrder(account: Account, body: Record<string, unknown>): Answer {
    const pkg = this.pkg(String(body.package_id));
    const quantity = Number(body.quantity ?? 1);
    const total = pkg.wholesale_price.amount * quantity;
    const order: Order = {
      id: newId('ord'),
      status: 'pending',
      package_id: pkg.id,
      quantity,
      unit_price: money(pkg.wholesale_price.amount),
      total: money(total),
      esims: [],
      customer_reference: (body.customer_reference as string | undefined) ?? null,
      metadata: (body.metadata as Record<string, string> | undefined) ?? {},
      failure_code: null,
      created_at: this.iso(),
      completed_at: null,
      cancelled_at: null,
      refunded_total: money(0),
    };
    if (pkg.id === SANDBOX.unavailablePackageId) {
      throw new Refusal(422, 'package_unavailable', `${pkg.id} cannot be sold right now. Nothing was charged.`);
    }
    if (pkg.id === SANDBOX.failingPackageId) {
      // Failed in the request: no order exists, so nothing is listed, sent or charged.
      throw new Refusal(
        422,
        SANDBOX.failingPackageError,
        `No eSIM profile could be allocated for ${pkg.id}. No order was created and nothing was charged.`,
      );
    }
    this.ensureFunds(account, total, 'order total');
    account.orders.set(order.id, order);
    // The total is reserved when the order is placed, whatever happens next.
    this.charge(account, total, 'order', order.id);
    if (pkg.id === SANDBOX.slowPackageId || pkg.id === SANDBOX.slowFailingPackageId) {
      order.status = 'processing';
      account.processing.set(order.id, pkg.id === SANDBOX.slowPackageId ? 'completed' : 'failed');
      return {status: 201, body: this.orderView(account, order)};
    }
    this.complete(account, order, pkg);
    return {status: 201, body: this.orderView(account, order)};
  }

  /** Issues the order's eSIMs; the order is `completed`. */
  private complete(account: Account, order: Order, pkg: Package) {
    for (let index = 0; index < order.quantity; index++) {
      const esim = this.newEsim(order, pkg);
      account.esims.set(esim.iccid, esim);
      order.esims.push({iccid: esim.iccid, status: esim.status});
    }
    order.status = 'completed';
    order.completed_at = this.iso();
    this.emit(account, 'order.completed', this.orderView(account, order));
  }

  /** `GET /v1/orders/{order_id}`: a `processing` sandbox order ends at its next read. */
  private readOrder(account: Account, id: string): Order {
    this.settle(account, id);
    return this.order(account, id);
  }

  /** A `processing` sandbox order ends when it is read, on its own or in a list of orders. */
  private settle(account: Account, id: string): void {
    const order = account.orders.get(id);
    const outcome = account.processing.get(id);
    if (order && outcome) {
      account.processing.delete(id);
      if (outcome === 'completed') {
        this.complete(account, order, this.pkg(order.package_id));
      } else {
        order.status = 'failed';
        order.failure_code = SANDBOX.failingPackageError;
        this.credit(account, order.total.amount, 'order_failed', order.id);
        this.emit(account, 'order.failed', this.orderView(account, order));
      }
    }
  }

  private newEsim(order: Order, pkg: Package): Esim {
    const body = `${SANDBOX.iccidPrefix}${String(++this.iccidCounter).padStart(11, '0')}`;
    return {
      iccid: `${body}${luhnCheckDigit(body)}`,
      status: 'ready',
      profile_state: 'available',
      eid: null,
      order_id: order.id,
      package_id: pkg.id,
      label: null,
      metadata: {},
      activated_at: null,
      expires_at: null,
      dataTotalMb: pkg.data_mb,
      dataUsedMb: 0,
      thresholdsSent: [],
      pendingValidityDays: pkg.validity_days,
    };
  }

  /** The `created_gte` and `created_lt` filters of a list, as a test of an item's `created_at`. */
  private createdWithin(query: URLSearchParams): (item: {created_at: string}) => boolean {
    const bound = (name: string, otherwise: number) => {
      const value = query.get(name);
      if (value === null) return otherwise;
      const time = Date.parse(value);
      if (Number.isNaN(time))
        throw new Refusal(400, 'validation_failed', `${name} must be an RFC 3339 timestamp.`, name);
      return time;
    };
    const gte = bound('created_gte', -Infinity);
    const lt = bound('created_lt', Infinity);
    return (item) => Date.parse(item.created_at) >= gte && Date.parse(item.created_at) < lt;
  }

  private orders(account: Account, query: URLSearchParams): Order[] {
    const status = query.get('status');
    const reference = query.get('customer_reference');
    const within = this.createdWithin(query);
    for (const id of [...account.processing.keys()]) this.settle(account, id);
    return [...account.orders.values()]
      .map((order) => this.orderView(account, order))
      .filter(
        (order) =>
          (!status || order.status === status) &&
          (!reference || order.customer_reference === reference) &&
          within(order),
      );
  }

  private orderView(account: Account, order: Order): Order {
    return {...order, esims: order.esims.map(({iccid}) => ({iccid, status: account.esims.get(iccid)!.status}))};
  }

  private order(account: Account, id: string): Order {
    const order = account.orders.get(id);
    if (!order) throw notFound.order(id);
    return this.orderView(account, order);
  }

  private withinRefundWindow(order: Order) {
    return this.now() - Date.parse(order.created_at) <= LIMITS.refundWindowDays * DAY;
  }

  private cancelOrder(account: Account, id: string): Order {
    const order = account.orders.get(id);
    if (!order) throw notFound.order(id);
    const rule = ruleFor('POST /v1/orders/{order_id}/cancel');
    const esims = order.esims.map(({iccid}) => account.esims.get(iccid)!);
    const blocking = esims.find((esim) => !(rule.esimsFrom ?? []).includes(esim.status));
    if (!rule.allowedFrom.includes(order.status) || blocking || !this.withinRefundWindow(order)) {
      const why = !rule.allowedFrom.includes(order.status)
        ? `it is ${order.status}`
        : blocking
          ? `eSIM ${blocking.iccid} is ${blocking.status}`
          : `it is older than ${LIMITS.refundWindowDays} days`;
      throw new Refusal(422, rule.failure, `Order ${id} cannot be cancelled: ${why}.`);
    }
    this.refuseWhileTopupPending(account, esims, `Order ${id} cannot be cancelled yet`);
    // One refund per eSIM, exactly as if each were refunded on its own.
    for (const esim of esims) this.refund(account, esim, order, null);
    return this.orderView(account, order);
  }

  // eSIMs.

  private esims(account: Account, query: URLSearchParams) {
    const status = query.get('status');
    const orderId = query.get('order_id');
    return [...account.esims.values()]
      .filter((esim) => (!status || esim.status === status) && (!orderId || esim.order_id === orderId))
      .map((esim) => this.view(esim));
  }

  private esim(account: Account, iccid: string): Esim {
    const esim = account.esims.get(iccid);
    if (!esim) throw notFound.esim(iccid);
    return esim;
  }

  private view(esim: Esim) {
    const smdp = SANDBOX.smdpAddress;
    const matchingId = `SBX1-${esim.iccid.slice(-12, -8)}-${esim.iccid.slice(-8, -4)}-${esim.iccid.slice(-4)}`;
    const lpa = `LPA:1$${smdp}$${matchingId}`;
    const signature = createHash('sha256').update(`${esim.iccid}${this.now()}`).digest('hex').slice(0, 6);
    return {
      iccid: esim.iccid,
      status: esim.status,
      profile_state: esim.profile_state,
      eid: esim.eid,
      order_id: esim.order_id,
      package_id: esim.package_id,
      label: esim.label,
      activation: {
        lpa_string: lpa,
        smdp_address: smdp,
        matching_id: matchingId,
        confirmation_code: null,
        qr_code_url: `${ENVIRONMENTS.sandbox.apiBase}/esims/${esim.iccid}/qr.png?sig=${signature}`,
        ios_install_url: `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(lpa)}`,
      },
      apn: {mode: 'automatic', value: null},
      data_roaming_required: true,
      metadata: esim.metadata,
      activated_at: esim.activated_at,
      expires_at: esim.expires_at,
    };
  }

  private updateEsim(account: Account, iccid: string, body: Record<string, unknown>) {
    const esim = this.esim(account, iccid);
    if ('label' in body) esim.label = body.label as string | null;
    if ('metadata' in body) esim.metadata = body.metadata as Record<string, string>;
    return this.view(esim);
  }

  private requireState(operation: string, esim: Esim) {
    const rule = ruleFor(operation);
    if (!rule.allowedFrom.includes(esim.status)) {
      throw new Refusal(
        422,
        rule.failure,
        `eSIM ${esim.iccid} is ${esim.status}; this needs ${rule.allowedFrom.join(', ')}.`,
      );
    }
  }

  private suspend(account: Account, iccid: string) {
    const esim = this.esim(account, iccid);
    this.requireState('POST /v1/esims/{iccid}/suspend', esim);
    esim.statusBeforeSuspend = esim.status;
    esim.status = 'suspended';
    return this.view(esim);
  }

  private resume(account: Account, iccid: string) {
    const esim = this.esim(account, iccid);
    this.requireState('POST /v1/esims/{iccid}/resume', esim);
    esim.status = esim.statusBeforeSuspend ?? 'active';
    delete esim.statusBeforeSuspend;
    return this.view(esim);
  }

  private usage(account: Account, iccid: string) {
    const esim = this.esim(account, iccid);
    const last = account.usageCalls.get(iccid);
    const windowMs = 60_000 / LIMITS.usageCallsPerMinutePerIccid;
    if (last !== undefined && this.now() - last < windowMs) {
      const retryAfter = Math.ceil((windowMs - (this.now() - last)) / 1000);
      throw new Refusal(
        429,
        'rate_limited',
        `Usage of ${iccid} can be read ${LIMITS.usageCallsPerMinutePerIccid} time per minute; retry in ${retryAfter} s.`,
        null,
        // The per-ICCID bucket's own figures, not the credential's.
        {
          'Retry-After': String(retryAfter),
          'X-RateLimit-Limit': String(LIMITS.usageCallsPerMinutePerIccid),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(retryAfter),
        },
      );
    }
    account.usageCalls.set(iccid, this.now());
    return {
      iccid,
      status: esim.status,
      data_total_mb: esim.dataTotalMb,
      data_used_mb: esim.dataUsedMb,
      data_remaining_mb: esim.dataTotalMb === null ? null : Math.max(0, esim.dataTotalMb - esim.dataUsedMb),
      unlimited: esim.dataTotalMb === null,
      activated_at: esim.activated_at,
      expires_at: esim.expires_at,
      updated_at: this.iso(),
    };
  }

  /**
   * The packages that fit the eSIM's own, then the sandbox's pending and failing top-ups; none for an
   * eSIM whose package takes no top-ups (`topup_available: false`), trigger packages included.
   */
  private topupPackages(esim: Esim): Package[] {
    const base = this.pkg(esim.package_id);
    if (!base.topup_available) return [];
    const key = base.countries.join();
    return [
      ...PACKAGES.filter(
        (pkg) => pkg.countries.join() === key && pkg.topup_available && !TRIGGER_PACKAGES.includes(pkg.id),
      ),
      this.pkg(SANDBOX.pendingTopupPackageId),
      this.pkg(SANDBOX.pendingFailingTopupPackageId),
      this.pkg(SANDBOX.failingTopupPackageId),
    ];
  }

  private createTopup(account: Account, iccid: string, body: Record<string, unknown>) {
    const esim = this.esim(account, iccid);
    const operation = 'POST /v1/esims/{iccid}/topups';
    this.requireState(operation, esim);
    const pkg = this.pkg(String(body.package_id));
    if (!this.topupPackages(esim).some((candidate) => candidate.id === pkg.id)) {
      throw new Refusal(
        422,
        ruleFor(operation).failure,
        `${pkg.id} cannot top up ${iccid}; GET /v1/esims/${iccid}/topup-packages lists those that can.`,
        'package_id',
      );
    }
    this.ensureFunds(account, pkg.wholesale_price.amount, 'top-up price');
    const topup: Topup = {
      id: newId('top'),
      iccid,
      package_id: pkg.id,
      status: 'pending',
      price: money(pkg.wholesale_price.amount),
      created_at: this.iso(),
      applied_at: null,
    };
    // Charged when created; a failed top-up gets its price back.
    this.charge(account, pkg.wholesale_price.amount, 'topup', topup.id);
    account.topups.set(topup.id, topup);
    if (pkg.id === SANDBOX.failingTopupPackageId) {
      this.failTopup(account, topup);
    } else if (pkg.id !== SANDBOX.pendingTopupPackageId && pkg.id !== SANDBOX.pendingFailingTopupPackageId) {
      this.applyTopup(account, esim, topup);
    }
    return topup;
  }

  /** A failed top-up added nothing, so its price goes back. */
  private failTopup(account: Account, topup: Topup) {
    topup.status = 'failed';
    this.credit(account, topup.price.amount, 'topup_failed', topup.id);
    this.emit(account, 'topup.failed', topup);
  }

  /** Adds a pending top-up's data and validity to its eSIM. */
  private applyTopup(account: Account, esim: Esim, topup: Topup) {
    const pkg = this.pkg(topup.package_id);
    topup.status = 'applied';
    topup.applied_at = this.iso();
    if (VALIDITY_RULES.topupAddsData && esim.dataTotalMb !== null) esim.dataTotalMb += pkg.data_mb ?? 0;
    // VALIDITY_RULES.topupSentence: the top-up's days run from when it is applied when the clock
    // runs, else from when the clock starts; either way the validity only ever gets longer.
    if (esim.expires_at) {
      const topupEnds = this.later(topup.applied_at, pkg.validity_days * DAY);
      if (Date.parse(topupEnds) > Date.parse(esim.expires_at)) esim.expires_at = topupEnds;
    } else {
      esim.pendingValidityDays = Math.max(esim.pendingValidityDays, pkg.validity_days);
    }
    if (esim.status === 'depleted') esim.status = 'active';
    esim.thresholdsSent = esim.thresholdsSent.filter((threshold) => this.usedShare(esim) >= threshold);
    this.emit(account, 'topup.applied', topup);
  }

  /** `GET /v1/esims/{iccid}/topups`, newest first: a sandbox top-up left `pending` is applied (or failed) at this read. */
  private topups(account: Account, iccid: string, query: URLSearchParams): Topup[] {
    const esim = this.esim(account, iccid);
    const ofEsim = [...account.topups.values()].filter((topup) => topup.iccid === iccid);
    for (const topup of ofEsim) {
      if (topup.status !== 'pending') continue;
      if (topup.package_id === SANDBOX.pendingFailingTopupPackageId) this.failTopup(account, topup);
      else this.applyTopup(account, esim, topup);
    }
    const status = query.get('status');
    return ofEsim.filter((topup) => !status || topup.status === status);
  }

  /** REFUND_RULES.refusedWhileTopupPending: a pending top-up's outcome decides what a refund returns. */
  private refuseWhileTopupPending(account: Account, esims: readonly Esim[], what: string) {
    const pending = [...account.topups.values()].find(
      (topup) => topup.status === 'pending' && esims.some((esim) => esim.iccid === topup.iccid),
    );
    if (pending) {
      throw new Refusal(
        409,
        REFUND_RULES.refusedWhileTopupPending,
        `${what}: top-up ${pending.id} of eSIM ${pending.iccid} is still pending. Send the request again with a new Idempotency-Key once it is applied or failed (topup.applied, topup.failed, or GET /v1/esims/${pending.iccid}/topups).`,
      );
    }
  }

  private createRefund(account: Account, body: Record<string, unknown>) {
    const iccid = String(body.iccid);
    const esim = this.esim(account, iccid);
    const operation = 'POST /v1/refunds';
    this.requireState(operation, esim);
    const order = account.orders.get(esim.order_id)!;
    if (!this.withinRefundWindow(order)) {
      throw new Refusal(
        422,
        ruleFor(operation).failure,
        `eSIM ${iccid} was ordered more than ${LIMITS.refundWindowDays} days ago.`,
      );
    }
    this.refuseWhileTopupPending(account, [esim], `eSIM ${iccid} cannot be refunded yet`);
    return this.refund(account, esim, order, (body.reason as string | undefined) ?? null);
  }

  /** Refunds one eSIM its unit price and, as REFUND_RULES says, the top-ups on it, in one refund. */
  private refund(account: Account, esim: Esim, order: Order, reason: string | null) {
    const topups = REFUND_RULES.includesTopups
      ? [...account.topups.values()].filter((topup) => topup.iccid === esim.iccid && topup.status === 'applied')
      : [];
    const topupsTotal = topups.reduce((sum, topup) => sum + topup.price.amount, 0);
    const refund = {
      id: newId('rfd'),
      iccid: esim.iccid,
      order_id: order.id,
      amount: money(order.unit_price.amount + topupsTotal),
      reason,
      status: 'succeeded',
      created_at: this.iso(),
    };
    esim.status = 'cancelled';
    // Its profile is revoked at the SM-DP+: it can never be installed.
    esim.profile_state = 'deleted';
    order.refunded_total = money(order.refunded_total.amount + refund.amount.amount);
    if (order.esims.every(({iccid: other}) => account.esims.get(other)!.status === 'cancelled')) {
      order.status = 'cancelled';
      order.cancelled_at = this.iso();
    }
    this.credit(account, refund.amount.amount, 'refund', refund.id);
    account.refunds.set(refund.id, refund);
    this.emit(account, 'refund.succeeded', refund);
    return refund;
  }

  // The sandbox lifecycle.

  private usedShare(esim: Esim) {
    return esim.dataTotalMb ? (esim.dataUsedMb / esim.dataTotalMb) * 100 : 0;
  }

  private simulate(account: Account, iccid: string, body: Record<string, unknown>) {
    const esim = this.esim(account, iccid);
    const action = String(body.action) as keyof typeof SIMULATE_ACTIONS;
    const rule = SIMULATE_ACTIONS[action];
    const from = rule.from as readonly EsimStatus[];
    // A suspended eSIM is still what it was before: a `ready` one never installed, so it cannot expire.
    const allowed =
      from.includes(esim.status) && (esim.status !== 'suspended' || from.includes(esim.statusBeforeSuspend!));
    if (!allowed) {
      throw new Refusal(
        422,
        'invalid_state',
        simulateRefusal(action, iccid, esim.status, esim.statusBeforeSuspend ?? null, from),
        'action',
      );
    }
    if (needsProfile(action) && esim.profile_state === 'deleted') {
      throw new Refusal(
        422,
        'invalid_state',
        `eSIM ${iccid}'s profile was deleted from the device, so it cannot take ${action}: a profile installs once, support reissues it.`,
        'action',
      );
    }
    if (needsValidityClock(action) && !esim.expires_at) {
      throw new Refusal(
        422,
        'invalid_state',
        `eSIM ${iccid} has no validity clock running yet (its package starts it at first attach), so it cannot take ${action}.`,
        'action',
      );
    }
    if (action === 'installed' || (action === 'activated' && esim.status === 'ready')) {
      // Installed from the QR code or link, the profile is enabled on the phone: the event carries it as the API answers it.
      esim.status = 'installed';
      esim.profile_state = 'enabled';
      esim.eid = `890490320000010000000${esim.iccid.slice(-11)}`;
      if (this.pkg(esim.package_id).activation_policy === 'on_install') this.startClock(esim, this.iso());
      this.emit(account, 'esim.installed', this.view(esim));
    }
    if (action === 'activated') {
      esim.status = 'active';
      esim.profile_state = 'enabled';
      esim.activated_at = this.iso();
      this.startClock(esim, esim.activated_at);
      this.emit(account, 'esim.activated', this.view(esim));
    } else if (action === 'consume_data') {
      const mb = Number(body.mb ?? 0);
      if (!mb) throw new Refusal(400, 'validation_failed', 'consume_data needs mb (1 or more).', 'mb');
      esim.dataUsedMb =
        esim.dataTotalMb === null ? esim.dataUsedMb + mb : Math.min(esim.dataTotalMb, esim.dataUsedMb + mb);
      // Depleted before the events are sent: each carries the eSIM as the API answers it from now on.
      if (esim.dataTotalMb !== null && esim.dataUsedMb >= esim.dataTotalMb) esim.status = 'depleted';
      for (const threshold of USAGE_THRESHOLDS) {
        if (this.usedShare(esim) >= threshold && !esim.thresholdsSent.includes(threshold)) {
          esim.thresholdsSent.push(threshold);
          this.emit(account, 'esim.usage_threshold', this.view(esim), threshold);
        }
      }
    } else if (action === 'expiring_soon') {
      esim.expires_at = this.iso(LIFETIMES.expiringSoonHours * 3_600_000);
      this.emit(account, 'esim.expiring_soon', this.view(esim));
    } else if (action === 'expire') {
      // Suspended or not: suspension pauses the service, not the clock.
      esim.status = 'expired';
      esim.expires_at = this.iso();
      delete esim.statusBeforeSuspend;
      this.emit(account, 'esim.expired', this.view(esim));
    } else if (action === 'profile_deleted') {
      // The traveller removed it from the device: it cannot be installed again, and no event says so.
      esim.profile_state = 'deleted';
    }
    return this.view(esim);
  }

  /** Starts the validity clock once (at install or first attach, by the package's policy) with the days waiting. */
  private startClock(esim: Esim, at: string) {
    if (esim.expires_at) return;
    esim.expires_at = this.later(at, esim.pendingValidityDays * DAY);
    esim.pendingValidityDays = 0;
  }

  private widgetSession(account: Account, body: Record<string, unknown>) {
    if (typeof body.iccid === 'string') {
      const esim = this.esim(account, body.iccid);
      if (body.mode !== 'store') this.requireState('POST /v1/widget-sessions', esim);
    }
    for (const id of (body.package_ids as string[] | undefined) ?? []) this.pkg(id);
    if (body.mode !== 'store' && typeof body.iccid !== 'string') {
      throw new Refusal(400, 'validation_failed', `Mode ${String(body.mode)} needs the iccid of the eSIM.`, 'iccid');
    }
    const id = newId('wss');
    const maxOrders = (body.max_orders as number | undefined) ?? WIDGET_CAPS.maxOrders.default;
    const maxTopups = (body.max_topups as number | undefined) ?? WIDGET_CAPS.maxTopups.default;
    const used = this.madeFor(
      account,
      body[WIDGET_CAPS.countsAgainst.orders] as string,
      (body[WIDGET_CAPS.countsAgainst.topups] as string | undefined) ?? null,
    );
    return {
      id,
      url: `${ENVIRONMENTS.sandbox.widgetOrigin}/${API_VERSION}/?session=${id}`,
      expires_at: this.iso(LIMITS.widgetSessionMinutes * 60_000),
      remaining_orders: Math.max(0, maxOrders - used.orders),
      remaining_topups: Math.max(0, maxTopups - used.topups),
    };
  }

  /** What the widget caps count, in any session or the API: the orders for a booking, the top-ups of an eSIM. */
  private madeFor(account: Account, reference: string, iccid: string | null) {
    const orders = [...account.orders.values()].filter(
      (order) => order.customer_reference === reference && WIDGET_CAPS.counted.orders.includes(order.status),
    );
    const topups = [...account.topups.values()].filter(
      (topup) => topup.iccid === iccid && WIDGET_CAPS.counted.topups.includes(topup.status),
    );
    return {orders: orders.length, topups: topups.length};
  }

  // Webhooks.

  private endpointView = (endpoint: Endpoint) => {
    const {secret: _secret, previousSecret: _previous, ...view} = endpoint;
    return view;
  };

  private newSecret() {
    return `whsec_test_${createHash('sha256').update(`${Math.random()}`).digest('hex').slice(0, 32)}`;
  }

  private endpoint(account: Account, id: string) {
    const endpoint = account.endpoints.get(id);
    if (!endpoint) throw notFound.endpoint(id);
    return endpoint;
  }

  /** The secrets that sign a delivery now: the current one, then the previous one until it expires. */
  private signingSecrets(endpoint: Endpoint) {
    const previousValid =
      endpoint.previousSecret !== null &&
      endpoint.previous_secret_expires_at !== null &&
      this.now() < Date.parse(endpoint.previous_secret_expires_at);
    return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
  }

  private rollSecret(account: Account, id: string, body: Record<string, unknown>) {
    const endpoint = this.endpoint(account, id);
    const hours = body.expire_previous_after_hours ?? 24;
    if (typeof hours !== 'number' || ![0, 1, 24, 168].includes(hours)) {
      throw new Refusal(
        400,
        'validation_failed',
        'expire_previous_after_hours must be 0, 1, 24 or 168.',
        'expire_previous_after_hours',
      );
    }
    endpoint.previousSecret = hours === 0 ? null : endpoint.secret;
    endpoint.previous_secret_expires_at = hours === 0 ? null : this.iso(hours * 3_600_000);
    endpoint.secret = this.newSecret();
    return {...this.endpointView(endpoint), secret: endpoint.secret};
  }

  private setEndpointStatus(account: Account, id: string, status: Endpoint['status']) {
    const endpoint = this.endpoint(account, id);
    if (endpoint.status === status) {
      throw new Refusal(422, 'invalid_state', `Webhook endpoint ${id} is already ${status}.`);
    }
    endpoint.status = status;
    return this.endpointView(endpoint);
  }

  /** Events of the last 30 days, newest first, exactly as delivered. */
  private events(account: Account, query: URLSearchParams) {
    const type = query.get('type');
    const gte = query.get('created_gte');
    if (gte !== null && Number.isNaN(Date.parse(gte))) {
      throw new Refusal(400, 'validation_failed', 'created_gte must be an ISO 8601 timestamp.', 'created_gte');
    }
    const since = Math.max(this.now() - 30 * DAY, gte === null ? -Infinity : Date.parse(gte));
    return account.events.filter(
      (event) => Date.parse(event.created_at) >= since && (type === null || event.type === type),
    );
  }

  private createEndpoint(account: Account, body: Record<string, unknown>) {
    const endpoint: Endpoint = {
      id: newId('we'),
      url: String(body.url),
      enabled_events: body.enabled_events as string[],
      description: (body.description as string | undefined) ?? null,
      status: 'enabled',
      created_at: this.iso(),
      secret: this.newSecret(),
      previousSecret: null,
      previous_secret_expires_at: null,
    };
    account.endpoints.set(endpoint.id, endpoint);
    return {...this.endpointView(endpoint), secret: endpoint.secret};
  }

  /** Sends a test event of the body's `type` (one of the model's event types), else of the endpoint's first. */
  private async testEndpoint(account: Account, id: string, body: Record<string, unknown>): Promise<Answer> {
    const endpoint = account.endpoints.get(id);
    if (!endpoint) throw notFound.endpoint(id);
    if (body.type !== undefined && !EVENT_TYPES.includes(body.type as string)) {
      throw new Refusal(
        400,
        'validation_failed',
        `type must be one of the event types: ${EVENT_TYPES.join(', ')}.`,
        'type',
      );
    }
    const type = (body.type as string | undefined) ?? endpoint.enabled_events[0]!;
    // The catalogue's example of that type, so a handler gets the resource it expects (ids that exist nowhere).
    const example = this.eventExamples.find((each) => each.type === type)?.payload.data as
      {object: unknown; threshold?: number} | undefined;
    if (!example) throw new Error(`The sandbox has no example event of type ${type} (webhookEventExamples)`);
    const event: WebhookEvent = {...this.event(type, structuredClone(example.object), example.threshold), test: true};
    // Listed by GET /v1/events as delivered, like every other event.
    account.events.push(event);
    const status = await this.deliver(endpoint, event);
    return {
      status: 200,
      body: {
        event_id: event.id,
        type,
        delivered: status !== null && status >= 200 && status < 300,
        response_status: status,
      },
    };
  }

  private event(type: string, object: unknown, threshold?: number): WebhookEvent {
    return {
      id: newId('evt'),
      type,
      api_version: API_VERSION,
      created_at: this.iso(),
      livemode: false,
      data: {object, ...(threshold !== undefined && {threshold})},
    };
  }

  private emit(account: Account, type: string, object: unknown, threshold?: number) {
    const event = this.event(type, structuredClone(object), threshold);
    account.events.push(event);
    for (const endpoint of account.endpoints.values()) {
      if (endpoint.status === 'enabled' && endpoint.enabled_events.includes(type)) {
        const delivery = this.deliver(endpoint, event);
        this.pendingDeliveries.add(delivery);
        void delivery.finally(() => this.pendingDeliveries.delete(delivery));
      }
    }
  }

  private async deliver(endpoint: Endpoint, event: WebhookEvent): Promise<number | null> {
    const body = JSON.stringify(event);
    const timestamp = String(Math.floor(this.now() / 1000));
    const headers = {
      'Content-Type': 'application/json',
      'X-Webhook-Id': event.id,
      'X-Webhook-Timestamp': timestamp,
      'X-Webhook-Signature': this.signingSecrets(endpoint)
        .map((secret) => `v1=${signWebhook(secret, timestamp, body)}`)
        .join(' '),
    };
    const delivery: Delivery = {endpointId: endpoint.id, url: endpoint.url, event, headers, body, status: null};
    this.deliveries.push(delivery);
    delivery.status = await this.transport(endpoint.url, headers, body).catch(() => null);
    return delivery.status;
  }
}

/** `X-Webhook-Signature`'s `v1` value: HMAC-SHA256 of `<timestamp>.<raw body>`, lowercase hex. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
