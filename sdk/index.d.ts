/**
 * `@acme-connect/sdk`: the Node SDK for the Acme Connect partner API (API v1).
 *
 * The one declaration of the SDK's public surface: the docs' SDK page renders its method table
 * from it (lib/sdk-surface.ts) and the docs' TypeScript samples are type-checked against it.
 * Everything is camelCase here and snake_case on the wire; `metadata` keys are passed through as
 * they are. Field names and types follow the schemas of api/openapi.yaml.
 */

// ---------------------------------------------------------------------------------------------
// Client

export type Environment = 'sandbox' | 'live';

export interface ClientOptions {
  /** `ci_test_…` (sandbox) or `ci_live_…` (live). */
  clientId: string;
  /** `cs_test_…` or `cs_live_…`. Server-side only. */
  clientSecret: string;
  /** Selects the API host and token URL; must match the credential. */
  environment: Environment;
  /** Per-request timeout in milliseconds. Default 30000. */
  timeoutMs?: number;
  /**
   * Automatic retries, with the same Idempotency-Key, of errors whose answer says `retry: 'same_key'`
   * and of timeouts and network errors (backoff 0.5 s, 1 s, … with jitter; honours `Retry-After`). Default 2.
   */
  maxRetries?: number;
}

export interface RequestOptions {
  /** Sent as `Idempotency-Key`. When omitted, one is generated per call and reused for its retries. */
  idempotencyKey?: string;
}

export declare class AcmeConnect {
  constructor(options: ClientOptions);
  readonly packages: Packages;
  readonly orders: Orders;
  readonly esims: Esims;
  readonly topups: Topups;
  readonly refunds: Refunds;
  readonly webhooks: Webhooks;
}

// ---------------------------------------------------------------------------------------------
// Resources

export interface Packages {
  /**
   * List packages, following `next_cursor` page by page (async-iterable auto-pagination).
   * @endpoint GET /v1/packages
   */
  list(params?: PackageListParams): AsyncIterable<Package>;

  /**
   * Get a package.
   * @endpoint GET /v1/packages/{package_id}
   */
  retrieve(id: string): Promise<Package>;
}

export interface Orders {
  /**
   * Create an order of 1–50 eSIMs of one package.
   * @endpoint POST /v1/orders
   */
  create(params: OrderCreateParams, options?: RequestOptions): Promise<Order>;

  /**
   * Get an order with its eSIMs.
   * @endpoint GET /v1/orders/{order_id}
   */
  retrieve(orderId: string): Promise<Order>;
}

export interface Esims {
  /**
   * Get an eSIM with its activation block.
   * @endpoint GET /v1/esims/{iccid}
   */
  retrieve(iccid: string): Promise<Esim>;

  /**
   * Get an eSIM's data balance and validity.
   * @endpoint GET /v1/esims/{iccid}/usage
   */
  getUsage(iccid: string): Promise<Usage>;
}

export interface Topups {
  /**
   * Add a top-up to an eSIM.
   * @endpoint POST /v1/esims/{iccid}/topups
   */
  create(iccid: string, params: TopupCreateParams, options?: RequestOptions): Promise<Topup>;
}

export interface Refunds {
  /**
   * Refund a never-installed eSIM to the balance.
   * @endpoint POST /v1/refunds
   */
  create(params: RefundCreateParams, options?: RequestOptions): Promise<Refund>;
}

export interface Webhooks {
  /**
   * Verifies a webhook delivery and returns a typed event.
   *
   * Checks `X-Webhook-Signature` (`v1=<hex>`, several space-separated values possible) against
   * HMAC-SHA256(secret, `<X-Webhook-Timestamp>.<rawBody>`) and rejects timestamps more than 300 s
   * from the local clock (or `options.now`). Pass the body exactly as received (not parsed JSON). The returned event
   * is camelCased like every other result, `data.object` included.
   * @throws {SignatureVerificationError} when a header is missing, no signature matches or the timestamp is stale.
   */
  constructEvent(
    rawBody: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string,
    options?: ConstructEventOptions,
  ): WebhookEvent;
}

export interface ConstructEventOptions {
  /**
   * The clock the timestamp is checked against; the local clock when omitted. Set it to a recorded
   * delivery's time to verify it later, such as the docs' test vector at its `X-Webhook-Timestamp`.
   */
  now?: Date;
}

/** A `Headers` instance or a plain object with any header-name case (e.g. Node's `req.headers`). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

// ---------------------------------------------------------------------------------------------
// Parameters

export type PackageType = 'local' | 'regional' | 'global';

export interface PackageListParams {
  /** ISO 3166-1 alpha-2 country the package covers. */
  country?: string;
  region?: 'EU' | 'ASIA' | 'GLOBAL';
  type?: PackageType;
  /** Only packages with at least this much data (unlimited packages always match). */
  minDataMb?: number;
  /** Page size for each request (1–100, default 20); iteration still covers every page. */
  limit?: number;
}

export interface OrderCreateParams {
  packageId: string;
  /** 1–50, default 1. */
  quantity?: number;
  /** Your own id, ≤64 characters. */
  customerReference?: string;
  /** Sends the branded install email. */
  deliverToEmail?: string;
  metadata?: Metadata;
}

export interface TopupCreateParams {
  /** One of the eSIM's top-up packages. */
  packageId: string;
}

export type RefundReason = 'customer_cancelled' | 'duplicate' | 'ordered_by_mistake' | 'other';

export interface RefundCreateParams {
  iccid: Iccid;
  reason?: RefundReason;
}

// ---------------------------------------------------------------------------------------------
// API objects

/** 19–20 digits starting `89`. Always a string: a JS number corrupts it. */
export type Iccid = string;

/** RFC 3339 timestamp, UTC. */
export type Timestamp = string;

/** Up to 20 string keys with string values; keys are never case-converted. */
export type Metadata = Record<string, string>;

/** An amount in minor units (450 = 4.50) and its ISO 4217 currency. */
export interface Money {
  amount: number;
  currency: string;
}

export interface Package {
  /** Readable `{scope}-{data}-{days}`, e.g. `jp-5gb-30d`. */
  id: string;
  name: string;
  type: PackageType;
  countries: string[];
  /** Null if unlimited. */
  dataMb: number | null;
  unlimited: boolean;
  validityDays: number;
  networkTypes: string[];
  activationPolicy: 'first_use' | 'on_install';
  topupAvailable: boolean;
  wholesalePrice: Money;
  suggestedRetailPrice: Money;
}

export type OrderStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

export interface Order {
  id: string;
  status: OrderStatus;
  packageId: string;
  quantity: number;
  unitPrice: Money;
  total: Money;
  esims: {iccid: Iccid; status: EsimStatus}[];
  customerReference?: string | null;
  metadata?: Metadata;
  failureCode: string | null;
  createdAt: Timestamp;
  completedAt?: Timestamp | null;
  /** When the order became `cancelled` (cancelled, or its last eSIM refunded); null otherwise. */
  cancelledAt: Timestamp | null;
  /** What the order's refunds credited to the balance so far (each refunded eSIM's unit price; applied top-ups are not refunded). Never more than `total`. */
  refundedTotal: Money;
}

export type EsimStatus =
  'provisioning' | 'ready' | 'installed' | 'active' | 'depleted' | 'expired' | 'suspended' | 'cancelled';

export type ProfileState = 'available' | 'downloaded' | 'installed' | 'enabled' | 'disabled' | 'deleted';

export interface EsimActivation {
  /** `LPA:1$<SM-DP+ address>$<matching ID>`, exactly what the QR encodes. */
  lpaString: string;
  smdpAddress: string;
  matchingId: string;
  confirmationCode: string | null;
  /** Signed PNG, valid 24 h. */
  qrCodeUrl: string;
  /** One-tap install; iOS 17.4+, open on the iPhone. */
  iosInstallUrl: string;
}

export interface Esim {
  iccid: Iccid;
  status: EsimStatus;
  profileState: ProfileState;
  /** 32 digits; null before install. */
  eid: string | null;
  orderId: string;
  packageId: string;
  label: string | null;
  activation: EsimActivation;
  apn: {mode: 'automatic' | 'manual'; value: string | null};
  dataRoamingRequired: boolean;
  metadata?: Metadata;
  activatedAt: Timestamp | null;
  expiresAt: Timestamp | null;
}

export interface Usage {
  iccid: Iccid;
  status: EsimStatus;
  dataTotalMb: number | null;
  dataUsedMb: number;
  dataRemainingMb: number | null;
  unlimited: boolean;
  activatedAt: Timestamp | null;
  expiresAt: Timestamp | null;
  updatedAt: Timestamp;
}

export interface Topup {
  id: string;
  iccid: Iccid;
  packageId: string;
  status: 'pending' | 'applied' | 'failed';
  price: Money;
  createdAt: Timestamp;
  appliedAt: Timestamp | null;
}

export interface Refund {
  id: string;
  iccid: Iccid;
  orderId: string;
  amount: Money;
  reason?: string | null;
  status: 'succeeded';
  createdAt: Timestamp;
}

export interface Balance {
  available: Money;
  /** Credit line of invoiced partners; null on prepaid balances. */
  creditLimit: Money | null;
  lowBalanceThreshold: Money;
  autoRecharge: boolean;
  updatedAt: Timestamp;
}

// ---------------------------------------------------------------------------------------------
// Webhook events

/** The resource in `data.object` for each event type. */
export interface WebhookEventObjects {
  'order.completed': Order;
  'order.failed': Order;
  'esim.installed': Esim;
  'esim.activated': Esim;
  'esim.usage_threshold': Esim;
  'esim.expiring_soon': Esim;
  'esim.expired': Esim;
  'topup.applied': Topup;
  'topup.failed': Topup;
  'refund.succeeded': Refund;
  'balance.low': Balance;
}

export type WebhookEventType = keyof WebhookEventObjects;

export interface WebhookEventOf<T extends WebhookEventType> {
  /** `evt_…`; deliveries are at least once, so deduplicate on it. */
  id: string;
  type: T;
  apiVersion: string;
  createdAt: Timestamp;
  livemode: boolean;
  /** Only on an event sent by `POST /v1/webhook-endpoints/{id}/test`: its ids exist nowhere; act on nothing. */
  test?: true;
  data: T extends 'esim.usage_threshold'
    ? {object: WebhookEventObjects[T]; /** 50, 80 or 100 by default (configurable). */ threshold: number}
    : {object: WebhookEventObjects[T]};
}

/** A verified event, discriminated on `type`. */
export type WebhookEvent = {[T in WebhookEventType]: WebhookEventOf<T>}[WebhookEventType];

// ---------------------------------------------------------------------------------------------
// Errors

export type ErrorCode =
  | 'invalid_request'
  | 'validation_failed'
  | 'missing_token'
  | 'invalid_token'
  | 'token_expired'
  | 'insufficient_balance'
  | 'credit_limit_reached'
  | 'insufficient_scope'
  | 'environment_mismatch'
  | 'ip_not_allowed'
  | 'account_suspended'
  | 'package_not_found'
  | 'order_not_found'
  | 'esim_not_found'
  | 'resource_not_found'
  | 'idempotency_key_reused'
  | 'idempotency_in_progress'
  | 'topup_pending'
  | 'package_unavailable'
  | 'topup_not_allowed'
  | 'esim_not_refundable'
  | 'order_not_cancellable'
  | 'invalid_state'
  | 'provisioning_failed'
  | 'rate_limited'
  | 'internal_error'
  | 'upstream_unavailable'
  | 'maintenance';

/**
 * What to do after an error, from the answer's `retry` field: `same_key` (the SDK retries it with
 * the same Idempotency-Key), `new_token` (the SDK retries once with a new token), `after_fix` (send
 * it again once the cause is fixed or over, as the code's fix says, with a new idempotencyKey: the old
 * key would replay the error if it was stored, as a 402, 409 or 422 is) or `never` (the call itself
 * must change).
 */
export type RetryPolicy = 'same_key' | 'after_fix' | 'new_token' | 'never';

/**
 * Errors of the token endpoint (RFC 6749), in `code` when a token request fails; besides the RFC's
 * codes, `rate_limited` and `environment_mismatch` (a client ID of the other environment), which are `ErrorCode`s.
 */
export type TokenErrorCode = 'invalid_client' | 'invalid_request' | 'invalid_scope' | 'unsupported_grant_type';

export interface ErrorInit {
  status?: number | null;
  code?: string | null;
  requestId?: string | null;
  retry?: RetryPolicy | null;
}

/** Base class of every error the SDK throws. */
export declare class AcmeConnectError extends Error {
  constructor(message: string, init?: ErrorInit);
  /** HTTP status; null for connection and signature errors. */
  readonly status: number | null;
  /** The API's error code (token errors: the OAuth `error`); null when there was no response. New codes may appear. */
  readonly code: ErrorCode | TokenErrorCode | (string & {}) | null;
  /** The response's `X-Request-Id`; quote it to support. */
  readonly requestId: string | null;
  /**
   * The answer's retry policy; `same_key` for timeouts and network errors; null when the answer
   * named none (the token endpoint's own codes, such as `invalid_client`; the API's codes it answers,
   * `rate_limited` and `environment_mismatch`, take the API's policy). By the time an error is thrown,
   * the SDK has done the retries it allows.
   */
  readonly retry: RetryPolicy | null;
  /**
   * The `Idempotency-Key` a failed POST sent: yours, or the one the SDK made when you passed none. When `retry` is
   * `same_key` (a timeout, a lost answer, `idempotency_in_progress`), send the same purchase again with it as
   * `idempotencyKey`; after an `after_fix` error, fix the cause and send it with a new key, since this one would
   * replay the stored error. Null otherwise.
   */
  readonly idempotencyKey: string | null;
}

/** 401: `missing_token`, `invalid_token`, `token_expired`, or `invalid_client` (a wrong client ID or secret). */
export declare class AuthenticationError extends AcmeConnectError {}
/**
 * 403: `insufficient_scope`, `environment_mismatch`, `ip_not_allowed`, `account_suspended`. After a
 * missing scope the client drops its cached token: once the scope is added to the credential, the
 * next call fetches a token that has it.
 */
export declare class PermissionError extends AcmeConnectError {}
/**
 * 400 and 422: `invalid_request`, `validation_failed`, `package_unavailable`, `topup_not_allowed`,
 * `esim_not_refundable`, `order_not_cancellable`, `invalid_state`, `provisioning_failed`.
 */
export declare class InvalidRequestError extends AcmeConnectError {}
/** 404: `package_not_found`, `order_not_found`, `esim_not_found`, `resource_not_found`. */
export declare class NotFoundError extends AcmeConnectError {}
/** 409: `idempotency_key_reused`, `topup_pending`, or `idempotency_in_progress` after the SDK's own retries. */
export declare class ConflictError extends AcmeConnectError {}
/** 402: `insufficient_balance`, `credit_limit_reached`. */
export declare class InsufficientBalanceError extends AcmeConnectError {}
/** 429: `rate_limited`, after the SDK's own retries. */
export declare class RateLimitError extends AcmeConnectError {
  constructor(message: string, init?: ErrorInit & {retryAfter?: number | null});
  /** Seconds to wait (`Retry-After`), or null when the API sent none. */
  readonly retryAfter: number | null;
}
/** 5xx (and any other unexpected status): `internal_error`, `upstream_unavailable`, `maintenance`. */
export declare class APIError extends AcmeConnectError {}
/** Timeout or network failure, after the SDK's own retries. */
export declare class ConnectionError extends AcmeConnectError {}
/** A webhook delivery failed verification in `webhooks.constructEvent`. */
export declare class SignatureVerificationError extends AcmeConnectError {}
