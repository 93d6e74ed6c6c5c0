import {BILLING, LIFETIMES, LIMITS, SANDBOX} from './api';

// The API's behaviour model, stated once: each error's retry policy and storage under the
// Idempotency-Key, each action's trigger, events and balance movements, the validity rules, the
// widget session's caps and the states. The pages render their tables and rule sentences from
// here, the sandbox (sandbox/state.ts) enforces exactly this, and the SDK and the samples' helpers
// take their retry decision from the `retry` field this model puts in every error answer.

export type EsimStatus =
  'provisioning' | 'ready' | 'installed' | 'active' | 'depleted' | 'expired' | 'suspended' | 'cancelled';
export type OrderStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';
export type TopupStatus = 'pending' | 'applied' | 'failed';

export type StateRow<Status extends string> = {status: Status; meaning: string};

/** The `to` of a transition that returns to the status held before (resume after suspend). */
export const PREVIOUS_STATUS = 'previous' as const;

/** A change of state: what causes it, from which states, and the webhook it sends. */
export type Transition<Status extends string> = {
  from: readonly Status[];
  /** The new status, or PREVIOUS_STATUS: back to the status held before the `from` state. */
  to: Status | typeof PREVIOUS_STATUS;
  /** What causes it, in the reader's words; `code` spans are rendered as code. */
  by: string;
  event?: string;
};

/** What an operation refuses, and with which error, when the state does not allow it. */
export type StateRule<Status extends string> = {
  /** `METHOD /path` of the contract. */
  operation: string;
  allowedFrom: readonly Status[];
  /** The error code answered (HTTP 422) from any other state. */
  failure: string;
  /** Extra condition, in the reader's words. */
  also?: string;
  /** For an operation on an order: the statuses every eSIM of the order must have. */
  esimsFrom?: readonly EsimStatus[];
};

export const ORDER_STATES: readonly StateRow<OrderStatus>[] = [
  {status: 'pending', meaning: 'The total is reserved on your balance'},
  {status: 'processing', meaning: 'eSIM profiles are being allocated'},
  {status: 'completed', meaning: 'The eSIMs exist and the charge is captured'},
  {status: 'failed', meaning: 'Nothing was issued and nothing is charged; `failure_code` says why'},
  {status: 'cancelled', meaning: 'A completed order that was fully refunded'},
];

export const ORDER_TRANSITIONS: readonly Transition<OrderStatus>[] = [
  {from: ['pending'], to: 'processing', by: 'Profiles start allocating'},
  {from: ['pending', 'processing'], to: 'completed', by: 'Every eSIM is `ready`', event: 'order.completed'},
  {from: ['pending', 'processing'], to: 'failed', by: 'No profile could be allocated', event: 'order.failed'},
  {
    from: ['completed'],
    to: 'cancelled',
    by: '`POST /v1/orders/{order_id}/cancel`, or every eSIM of the order refunded',
  },
];

/** Whether a refund returns the applied top-ups of the eSIM with it (REFUND_RULES and the states' advice read it). */
const REFUND_INCLUDES_TOPUPS = false as boolean;

export const ESIM_STATES: readonly (StateRow<EsimStatus> & {youCan: string})[] = [
  {status: 'provisioning', meaning: 'Being allocated', youCan: 'Wait'},
  {
    status: 'ready',
    meaning: 'Can be downloaded; never installed',
    youCan: REFUND_INCLUDES_TOPUPS
      ? 'Send the activation, refund, suspend, top up'
      : 'Send the activation, refund, suspend; top up only once the traveller is about to travel, as a refund does not return an applied top-up',
  },
  {
    status: 'installed',
    meaning: 'On a device, no data used yet; the validity clock runs for `on_install` packages',
    youCan: 'Top up, suspend',
  },
  {
    status: 'active',
    meaning: 'First network attach happened; the validity clock runs (from now for `first_use` packages)',
    youCan: 'Top up, read usage, suspend',
  },
  {status: 'depleted', meaning: 'All data used', youCan: 'Top up to make it `active` again, suspend'},
  {status: 'expired', meaning: 'Validity ended', youCan: 'Sell a new eSIM'},
  {status: 'suspended', meaning: 'Paused by you', youCan: 'Resume'},
  {
    status: 'cancelled',
    meaning:
      'Refunded before install; its profile is revoked (`profile_state: deleted`), so its activation block no longer installs',
    youCan: 'Nothing',
  },
];

export const ESIM_TRANSITIONS: readonly Transition<EsimStatus>[] = [
  {from: ['provisioning'], to: 'ready', by: 'Its order completes'},
  {
    from: ['ready'],
    to: 'installed',
    by: 'The traveller installs the profile (sandbox: `installed`)',
    event: 'esim.installed',
  },
  {
    from: ['ready', 'installed'],
    to: 'active',
    by: 'First network attach (sandbox: `activated`); from `ready`, the profile is installed first and `esim.installed` is sent before',
    event: 'esim.activated',
  },
  {from: ['active'], to: 'depleted', by: 'All data used (sandbox: `consume_data`)', event: 'esim.usage_threshold'},
  {from: ['depleted'], to: 'active', by: 'A top-up is applied', event: 'topup.applied'},
  {
    from: ['installed', 'active', 'depleted', 'suspended'],
    to: 'expired',
    by: 'Validity ends (sandbox: `expire`); a `suspended` eSIM only if it was installed before its suspension, as a never-installed one has no validity running',
    event: 'esim.expired',
  },
  {from: ['ready', 'installed', 'active', 'depleted'], to: 'suspended', by: '`POST /v1/esims/{iccid}/suspend`'},
  {from: ['suspended'], to: PREVIOUS_STATUS, by: '`POST /v1/esims/{iccid}/resume`'},
  {from: ['ready'], to: 'cancelled', by: '`POST /v1/refunds` or the order is cancelled', event: 'refund.succeeded'},
];

export const TOPUP_STATES: readonly StateRow<TopupStatus>[] = [
  {status: 'pending', meaning: 'Created and charged; being applied'},
  {status: 'applied', meaning: 'The data was added to the eSIM and the top-up’s validity runs'},
  {status: 'failed', meaning: 'It could not be applied; the charge is returned to your balance'},
];

export const TOPUP_TRANSITIONS: readonly Transition<TopupStatus>[] = [
  {from: ['pending'], to: 'applied', by: 'The carrier added the data', event: 'topup.applied'},
  {from: ['pending'], to: 'failed', by: 'The carrier refused it', event: 'topup.failed'},
];

// An order is cancelled only while each of its eSIMs could still be refunded on its own.
const CANCEL_ESIMS_FROM: readonly EsimStatus[] = ['ready'];

/** What each state-dependent operation refuses, and how. */
export const STATE_RULES: readonly StateRule<EsimStatus | OrderStatus>[] = [
  {
    operation: 'POST /v1/esims/{iccid}/topups',
    allowedFrom: ['ready', 'installed', 'active', 'depleted'],
    failure: 'topup_not_allowed',
    also: 'the package is one of the eSIM’s `GET /v1/esims/{iccid}/topup-packages`',
  },
  {
    operation: 'POST /v1/refunds',
    allowedFrom: ['ready'],
    failure: 'esim_not_refundable',
    also: `never installed, within ${LIMITS.refundWindowDays} days of the order; no top-up of it \`pending\` (else \`409 topup_pending\`)`,
  },
  {
    operation: 'POST /v1/orders/{order_id}/cancel',
    allowedFrom: ['completed'],
    failure: 'order_not_cancellable',
    esimsFrom: CANCEL_ESIMS_FROM,
    also: `every eSIM of the order still ${CANCEL_ESIMS_FROM.map((s) => `\`${s}\``).join(' or ')} (none installed, suspended or refunded), within ${LIMITS.refundWindowDays} days of the order; no top-up of them \`pending\` (else \`409 topup_pending\`)`,
  },
  {
    operation: 'POST /v1/esims/{iccid}/suspend',
    allowedFrom: ['ready', 'installed', 'active', 'depleted'],
    failure: 'invalid_state',
  },
  {operation: 'POST /v1/esims/{iccid}/resume', allowedFrom: ['suspended'], failure: 'invalid_state'},
  {
    operation: 'POST /v1/widget-sessions',
    allowedFrom: ['provisioning', 'ready', 'installed', 'active', 'depleted', 'suspended'],
    failure: 'invalid_state',
    also: 'the eSIM in `iccid` of an `activate` or `manage` session: a refunded (`cancelled`) or `expired` one has nothing left to install or top up',
  },
];

/**
 * The sandbox's `simulate` actions: which eSIM states each accepts (any other answers
 * `422 invalid_state`), and the status it leaves (null: the status does not change). A `suspended`
 * eSIM is accepted only if the status it had before the suspension is accepted too: a suspended
 * eSIM that was never installed cannot expire, nor lose a profile it never had. `needsValidityClock`:
 * the eSIM's validity must be running too (`expires_at` set), which an `installed` eSIM has only if
 * its package starts the clock on install. `needsProfile`: the eSIM's profile must not be `deleted`.
 */
export const SIMULATE_ACTIONS = {
  installed: {from: ['ready'], to: 'installed', needsProfile: true},
  activated: {from: ['ready', 'installed'], to: 'active', needsProfile: true},
  consume_data: {from: ['active'], to: 'active'},
  expiring_soon: {from: ['installed', 'active', 'depleted', 'suspended'], to: null, needsValidityClock: true},
  expire: {from: ['installed', 'active', 'depleted', 'suspended'], to: 'expired'},
  profile_deleted: {from: ['installed', 'active', 'depleted', 'suspended', 'expired'], to: null},
} as const satisfies Record<
  (typeof SANDBOX.simulateActions)[number],
  {from: readonly EsimStatus[]; to: EsimStatus | null; needsValidityClock?: true; needsProfile?: true}
>;

/** Whether a simulate action installs or enables the profile, which a `deleted` profile can never be again. */
export const needsProfile = (action: keyof typeof SIMULATE_ACTIONS): boolean =>
  'needsProfile' in SIMULATE_ACTIONS[action];

/** Whether a simulate action needs the eSIM's validity clock running, as well as an accepted status. */
export const needsValidityClock = (action: keyof typeof SIMULATE_ACTIONS): boolean =>
  'needsValidityClock' in SIMULATE_ACTIONS[action];

/** The usage shares that send `esim.usage_threshold` (`data.threshold`), by default. */
export const USAGE_THRESHOLDS = [50, 80, 100] as const;

// Errors and retries ------------------------------------------------------------------------

/**
 * What a client does after an error, by what would have to change for the same request to succeed:
 * - `same_key`: nothing but time: retry the same request with the same Idempotency-Key, with backoff (automatic);
 * - `after_fix`: something outside the request (your balance, a credential, the resource's state):
 *   fix it or wait for it as `fix` says, then send the request again with a new key (AFTER_FIX_NEW_KEY says why);
 * - `new_token`: get a new access token, then retry once (with the same key: a 401 is not stored);
 * - `never`: the request itself: as sent it does not fit what it names, and a changed request is a new request.
 */
export type RetryPolicy = 'same_key' | 'after_fix' | 'new_token' | 'never';

/** Failures that carry no `retry` field, which a client treats as `same_key`. */
export const IMPLICIT_SAME_KEY =
  'timeouts, network errors, a 5xx answer without a `retry` field (a gateway’s error page) and a 429 without one (the token endpoint’s, in the OAuth format)';

/**
 * Why `after_fix` takes a new key, as the tables, the SDK page and the contract say it: most of its errors are stored
 * under their key (IDEMPOTENCY.isStored), a 403 is not, and a new key is right after any fix.
 */
export const AFTER_FIX_NEW_KEY =
  'the old key would replay the error if it was stored, as a 402, 409 or 422 is (a 403 is not, and a new key is right there too)';

export const RETRY_POLICIES: Record<RetryPolicy, {label: string; automatic: boolean; meaning: string}> = {
  same_key: {
    label: 'Yes: same request, same key, with backoff',
    automatic: true,
    meaning: `Retry by yourself: the same request with the same \`Idempotency-Key\`, after \`Retry-After\` seconds or an exponential backoff, a bounded number of times. Treat ${IMPLICIT_SAME_KEY} the same way.`,
  },
  after_fix: {
    label: 'After fixing the cause, with a new key',
    automatic: false,
    meaning: `Stop: the request is right, but something outside it is not yet (your balance, a credential, or the state of the order or eSIM it names). Fix it or wait for it as the code’s fix says (where the fix says the cause cannot go away, do not send the request again), then send the request again with a new \`Idempotency-Key\`: ${AFTER_FIX_NEW_KEY}.`,
  },
  new_token: {
    label: 'Once, with a new token',
    automatic: false,
    meaning: 'Get a new access token, then send the request once more, with the same key: a 401 is not stored.',
  },
  never: {
    label: 'No: change the request',
    automatic: false,
    meaning:
      'Stop: the request itself does not fit what it names (its body, an ID, the credential’s environment, an action the state does not call for), so sending it again never helps. A changed request is a new request, with a new key.',
  },
};

/** The key's own refusals. */
const KEY_REFUSAL_CODES = ['idempotency_key_reused', 'idempotency_in_progress'] as const;

/**
 * The answers never stored under a key. The key is checked after authentication and authorization,
 * so a 401 or 403 has no stored request to answer (a 401 has no account to scope the key to); a 429
 * or 5xx did nothing and is retried with the same key; the key's own refusals answer for the request
 * that holds it.
 */
const UNSTORED_ANSWERS = {statuses: [401, 403, 429], fromStatus: 500, codes: KEY_REFUSAL_CODES} as const;

/**
 * Idempotency: which answers are stored under an `Idempotency-Key`, and for how long. Every answer
 * of the operation is stored, a 4xx as well as a 2xx (the provider's rule: only 5xx and 429 are
 * not), so the same key replays a `402 insufficient_balance` even after the balance was topped up:
 * after an error is fixed, the request goes again with a new key.
 */
export const IDEMPOTENCY = {
  requiredOn: ['POST /v1/orders', 'POST /v1/esims/{iccid}/topups', 'POST /v1/refunds'],
  retentionHours: LIMITS.idempotencyRetentionHours,
  /** Where a key is remembered: one account in one environment, so every credential of the account shares it. */
  rememberedFor: 'your account in one environment, shared by all its credentials there',
  /** Whether an answer with this status (and error code, if any) is stored under its key. */
  isStored: (status: number, code?: string | null): boolean =>
    !(UNSTORED_ANSWERS.statuses as readonly number[]).includes(status) &&
    status < UNSTORED_ANSWERS.fromStatus &&
    !(UNSTORED_ANSWERS.codes as readonly string[]).includes(code ?? ''),
  /** The same rule as data, for scripts that cannot import the model (Postman's). */
  unstored: UNSTORED_ANSWERS,
  /** The header a replayed answer carries. */
  replayHeader: 'Idempotent-Replayed',
  /** What any request that sends a key can be refused with: the key was used for another request, or its first one still runs. */
  refusalCodes: KEY_REFUSAL_CODES,
  /**
   * What "the same request" is, the one test a key's replay and its 409 both depend on. The body is
   * compared as a JSON value so that a client that rebuilds its JSON for a retry replays instead of
   * being told to use a new key (and buying twice); a default is not filled in first, because only
   * what was sent is known when the key is checked.
   */
  sameRequestSentence:
    'A request is the same when it has the same method and path and the same JSON body, compared as a value: the order of its keys and the spacing do not matter, and no body is the same as an empty object `{}`, but leaving a field out is not the same as sending its default (`"quantity": 1`). The key with any other request, another body or another endpoint, answers `409 idempotency_key_reused` and does nothing.',
  /** What is stored and why; the contract's key descriptions and the Idempotency section render it. */
  storedSentence: `Every answer is stored under its key, an error as well as a success: the same request with the same key within ${LIMITS.idempotencyRetentionHours} hours replays a \`402 insufficient_balance\` or a \`422\` just as it replays a \`201\`, even after you fixed the cause. So after fixing an error, send the request again with a new key. Not stored: a 429 and any 5xx (retry them with the same key), a 401 or 403 (the key is checked after authentication and authorization), and the key’s own \`409\` refusals (\`idempotency_key_reused\`, \`idempotency_in_progress\`).`,
  /** What a replay is, and how to see the state now. */
  replaySentence:
    'A replay is the first answer as it was sent then, not the resource as it is now: an order first answered `processing`, with no eSIMs yet, is replayed `processing` with no eSIMs even after it completed. After a replay, read the current state: `GET /v1/orders/{order_id}` for an order (its eSIMs, `status`, `refunded_total`), `GET /v1/esims/{iccid}/topups` for a top-up, `GET /v1/esims/{iccid}` for a refunded eSIM.',
} as const;

/**
 * How a cursor walks a list; the Pagination section and the contract render it, and the sandbox's
 * lists are built on it. A cursor that counted items would move when an item is added before it
 * (every list but the catalogue is newest first), and the next page would repeat one.
 */
export const PAGINATION = {
  cursorSentence:
    'A `next_cursor` names the last item of its page, not a position: the next page starts right after that item, so no item is listed twice and none is skipped. On the lists that are newest first, an item created during a walk comes before every item listed so far, so it appears only on a new walk, not as a duplicate. A cursor names an item, not your filters: send the same filters with every page of a walk (with others, the page lists the items after that item that match them).',
} as const;

/**
 * The operations (`METHOD /path`, as the contract's) that can answer an error code: `every` operation of the API
 * (not the token endpoint), those that take any `input` (a parameter or a body), a JSON `body`, an
 * Idempotency-`key`, those `scoped` (their token needs a scope), or these.
 */
export type AnsweredBy = 'every' | 'input' | 'body' | 'key' | 'scoped' | readonly string[];

/** What an operation's own description says about it, enough to read `AnsweredBy`. */
export type OperationFacts = {
  operation: string;
  takesInput: boolean;
  takesBody: boolean;
  takesKey: boolean;
  needsScope: boolean;
};

/** The operations whose state rule refuses with this code. */
const stateFailureOperations = (code: string): string[] =>
  STATE_RULES.filter((rule) => rule.failure === code).map((rule) => rule.operation);

/** The operations that charge the balance. */
const MONEY_OPERATIONS = ['POST /v1/orders', 'POST /v1/esims/{iccid}/topups'];

/** The operations on one eSIM, named by its ICCID in the path. */
const ESIM_OPERATIONS = [
  'GET /v1/esims/{iccid}',
  'PATCH /v1/esims/{iccid}',
  'POST /v1/esims/{iccid}/suspend',
  'POST /v1/esims/{iccid}/resume',
  'GET /v1/esims/{iccid}/usage',
  'GET /v1/esims/{iccid}/topup-packages',
  'GET /v1/esims/{iccid}/topups',
  'POST /v1/esims/{iccid}/topups',
  'POST /v1/sandbox/esims/{iccid}/simulate',
];

/** The operations on one webhook endpoint, named by its ID in the path. */
const ENDPOINT_OPERATIONS = [
  'DELETE /v1/webhook-endpoints/{id}',
  'POST /v1/webhook-endpoints/{id}/test',
  'POST /v1/webhook-endpoints/{id}/roll-secret',
  'POST /v1/webhook-endpoints/{id}/enable',
  'POST /v1/sandbox/webhook-endpoints/{id}/disable',
];

export type ErrorRule = {
  code: string;
  status: number;
  /** The operations that can answer it. */
  answeredBy: AnsweredBy;
  sdkClass: string;
  summary: string;
  retry: RetryPolicy;
  /** What to change before sending again (after_fix, never), or how to wait (same_key, new_token). */
  fix: string;
  /** How to make the sandbox answer it, or null when only Live can. */
  sandboxTrigger: string | null;
  /** A client forgets its cached token after this error (as after every `new_token` one). */
  dropsCachedToken?: boolean;
};

export const ERROR_CODES = [
  {
    code: 'invalid_request',
    status: 400,
    answeredBy: 'body',
    sdkClass: 'InvalidRequestError',
    summary: 'The body is not JSON',
    retry: 'never',
    fix: 'Fix the request',
    sandboxTrigger: 'Send a body that is not JSON',
  },
  {
    code: 'validation_failed',
    status: 400,
    answeredBy: 'input',
    sdkClass: 'InvalidRequestError',
    summary: 'A field failed validation; `param` names it',
    retry: 'never',
    fix: 'Fix the field `param` names',
    sandboxTrigger: '`quantity: 0` on `POST /v1/orders`',
  },
  {
    code: 'missing_token',
    status: 401,
    answeredBy: 'every',
    sdkClass: 'AuthenticationError',
    summary: 'No bearer token was sent',
    retry: 'new_token',
    fix: 'Send `Authorization: Bearer <token>`',
    sandboxTrigger: 'Omit the `Authorization` header',
  },
  {
    code: 'invalid_token',
    status: 401,
    answeredBy: 'every',
    sdkClass: 'AuthenticationError',
    summary: 'The token is unknown or revoked',
    retry: 'new_token',
    fix: 'Get a new token',
    sandboxTrigger: 'Send any made-up token',
  },
  {
    code: 'token_expired',
    status: 401,
    answeredBy: 'every',
    sdkClass: 'AuthenticationError',
    summary: 'The token is older than one hour',
    retry: 'new_token',
    fix: 'Get a new token (the SDK does this)',
    sandboxTrigger: 'Header `X-Sandbox-Error: token_expired`',
  },
  {
    code: 'insufficient_balance',
    status: 402,
    answeredBy: MONEY_OPERATIONS,
    sdkClass: 'InsufficientBalanceError',
    summary: 'The balance does not cover the total',
    retry: 'after_fix',
    fix: 'Top up your balance',
    sandboxTrigger: 'Lower the balance with `POST /v1/sandbox/balance`, then order',
  },
  {
    code: 'credit_limit_reached',
    status: 402,
    answeredBy: MONEY_OPERATIONS,
    sdkClass: 'InsufficientBalanceError',
    summary: 'The credit line is used up',
    retry: 'after_fix',
    fix: 'Pay the open invoice or raise the credit line',
    sandboxTrigger: 'Header `X-Sandbox-Error: credit_limit_reached`',
  },
  {
    code: 'insufficient_scope',
    status: 403,
    answeredBy: 'scoped',
    sdkClass: 'PermissionError',
    summary: 'The token lacks the scope this call needs',
    retry: 'after_fix',
    fix: 'Add the scope to the credential, then get a new token',
    sandboxTrigger:
      'A token requested with `scope=catalog:read`, then a call that needs another scope: `GET /v1/balance`',
    // A token keeps the scopes it was issued with: a cached one would keep failing after the fix.
    dropsCachedToken: true,
  },
  {
    code: 'environment_mismatch',
    status: 403,
    answeredBy: 'every',
    sdkClass: 'PermissionError',
    summary: 'Sandbox credential on Live, or the reverse',
    retry: 'never',
    fix: 'Use the credential of that environment',
    sandboxTrigger: 'A `ci_live_` client ID at the sandbox token URL',
  },
  {
    code: 'ip_not_allowed',
    status: 403,
    answeredBy: 'every',
    sdkClass: 'PermissionError',
    summary: 'The caller is outside the credential’s IP allowlist',
    retry: 'after_fix',
    fix: 'Call from an allowlisted address, or widen the allowlist',
    sandboxTrigger: 'Header `X-Sandbox-Error: ip_not_allowed`',
  },
  {
    code: 'account_suspended',
    status: 403,
    answeredBy: 'every',
    sdkClass: 'PermissionError',
    summary: 'The partner account is suspended',
    retry: 'after_fix',
    fix: 'Contact support',
    sandboxTrigger: 'Header `X-Sandbox-Error: account_suspended`',
  },
  {
    code: 'package_not_found',
    status: 404,
    answeredBy: [
      'GET /v1/packages/{package_id}',
      'POST /v1/orders',
      'POST /v1/esims/{iccid}/topups',
      'POST /v1/widget-sessions',
    ],
    sdkClass: 'NotFoundError',
    summary: 'No package has this ID',
    retry: 'never',
    fix: 'Pick a package from `GET /v1/packages`',
    sandboxTrigger: 'Order `package_id: "xx-1gb-1d"`',
  },
  {
    code: 'order_not_found',
    status: 404,
    answeredBy: ['GET /v1/orders/{order_id}', 'POST /v1/orders/{order_id}/cancel'],
    sdkClass: 'NotFoundError',
    summary: 'No order has this ID in this environment',
    retry: 'never',
    fix: 'Check the ID and the environment',
    sandboxTrigger: '`GET /v1/orders/ord_unknown`',
  },
  {
    code: 'esim_not_found',
    status: 404,
    answeredBy: [...ESIM_OPERATIONS, 'POST /v1/refunds', 'POST /v1/widget-sessions'],
    sdkClass: 'NotFoundError',
    summary: 'No eSIM has this ICCID in this environment',
    retry: 'never',
    fix: 'Check the ICCID and the environment',
    sandboxTrigger: 'An ICCID you did not order',
  },
  {
    code: 'resource_not_found',
    status: 404,
    answeredBy: ENDPOINT_OPERATIONS,
    sdkClass: 'NotFoundError',
    summary: 'No operation has this method and path, or no webhook endpoint has this ID',
    retry: 'never',
    fix: 'Check the method and path against the API reference',
    sandboxTrigger: '`GET /v1/nothing-here`',
  },
  {
    code: 'idempotency_key_reused',
    status: 409,
    answeredBy: 'key',
    sdkClass: 'ConflictError',
    summary: 'The key was used with another request: another body, method or path',
    retry: 'never',
    fix: 'Send a new key for a new request',
    sandboxTrigger: 'Reuse an order’s key with another `quantity`',
  },
  {
    code: 'idempotency_in_progress',
    status: 409,
    answeredBy: 'key',
    sdkClass: 'ConflictError',
    summary: 'A request with this key is still running',
    retry: 'same_key',
    fix: 'Retry with the same key after a short backoff (no `Retry-After` is sent); the retry answers the first request’s result',
    sandboxTrigger: 'Header `X-Sandbox-Error: idempotency_in_progress`',
  },
  {
    code: 'topup_pending',
    status: 409,
    answeredBy: ['POST /v1/refunds', 'POST /v1/orders/{order_id}/cancel'],
    sdkClass: 'ConflictError',
    summary:
      'A top-up of the eSIM is still `pending`; applied after a refund, it would be charged for an eSIM that can no longer be used',
    retry: 'after_fix',
    fix: 'Wait for the top-up’s `topup.applied` or `topup.failed` event (or list the eSIM’s top-ups), then send the request again with a new key',
    sandboxTrigger: `Top up with \`package_id: "${SANDBOX.pendingTopupPackageId}"\`, then refund the eSIM or cancel its order`,
  },
  {
    code: 'package_unavailable',
    status: 422,
    answeredBy: ['POST /v1/orders'],
    sdkClass: 'InvalidRequestError',
    summary: 'The package cannot be sold right now',
    retry: 'after_fix',
    fix: 'Try later, or pick another package',
    sandboxTrigger: `Order \`package_id: "${SANDBOX.unavailablePackageId}"\``,
  },
  {
    code: 'topup_not_allowed',
    status: 422,
    answeredBy: stateFailureOperations('topup_not_allowed'),
    sdkClass: 'InvalidRequestError',
    summary: 'The eSIM or package does not allow this top-up',
    retry: 'after_fix',
    fix: 'Pick a package from the eSIM’s `topup-packages`. A `suspended` eSIM takes a top-up again once resumed (send it with a new key); an `expired` or `refunded` one never does',
    sandboxTrigger: 'Top up an `expired` eSIM',
  },
  {
    code: 'esim_not_refundable',
    status: 422,
    answeredBy: stateFailureOperations('esim_not_refundable'),
    sdkClass: 'InvalidRequestError',
    summary: 'The eSIM is not `ready` (installed, suspended or already refunded) or is past the refund window',
    retry: 'after_fix',
    fix: 'A `suspended` eSIM that was never installed: resume it, then refund it with a new key. One that was installed or refunded, or is past the refund window, is never refundable: do not send the refund again',
    sandboxTrigger: 'Refund an eSIM after `simulate` `installed`',
  },
  {
    code: 'order_not_cancellable',
    status: 422,
    answeredBy: stateFailureOperations('order_not_cancellable'),
    sdkClass: 'InvalidRequestError',
    summary:
      'The order is not `completed` (still `pending` or `processing`, or `failed` or `cancelled`), an eSIM of it is no longer `ready` (installed, suspended or refunded), or it is past the refund window',
    retry: 'after_fix',
    fix: 'While the order is `pending` or `processing`, wait for `order.completed`, then cancel with a new key (after `order.failed` its total is back in your balance: nothing to cancel); resume a `suspended` eSIM that was never installed first. Once an eSIM was installed or refunded, or the refund window passed, the order is never cancellable: refund the eSIMs still `ready` one by one. If the order is `cancelled`, an earlier cancel went through',
    sandboxTrigger: 'Cancel an order after `simulate` `installed` on one of its eSIMs',
  },
  {
    code: 'invalid_state',
    status: 422,
    answeredBy: [
      ...stateFailureOperations('invalid_state'),
      'POST /v1/sandbox/esims/{iccid}/simulate',
      'POST /v1/webhook-endpoints/{id}/enable',
      'POST /v1/sandbox/webhook-endpoints/{id}/disable',
    ],
    sdkClass: 'InvalidRequestError',
    summary:
      'The resource’s status does not allow this action (an eSIM’s: suspend, resume, a widget session for it, a sandbox simulation; a webhook endpoint’s: enable, the sandbox’s disable)',
    retry: 'never',
    fix: 'Read the resource and act on its state',
    sandboxTrigger: 'Resume an eSIM that is not `suspended`',
  },
  {
    code: 'provisioning_failed',
    status: 422,
    answeredBy: ['POST /v1/orders'],
    sdkClass: 'InvalidRequestError',
    summary: 'No profile could be allocated; no order was created and nothing was charged',
    retry: 'after_fix',
    fix: 'Try later, or offer another package',
    sandboxTrigger: `Order \`package_id: "${SANDBOX.failingPackageId}"\``,
  },
  {
    code: 'rate_limited',
    status: 429,
    answeredBy: 'every',
    sdkClass: 'RateLimitError',
    summary: 'Too many requests; wait `Retry-After` seconds',
    retry: 'same_key',
    fix: 'Wait `Retry-After` seconds',
    sandboxTrigger: 'Header `X-Sandbox-Error: rate_limited`',
  },
  {
    code: 'internal_error',
    status: 500,
    answeredBy: 'every',
    sdkClass: 'APIError',
    summary: 'Unexpected error on our side',
    retry: 'same_key',
    fix: 'Back off exponentially; contact support with the `request_id` if it persists',
    sandboxTrigger: 'Header `X-Sandbox-Error: internal_error`',
  },
  {
    code: 'upstream_unavailable',
    status: 502,
    answeredBy: 'every',
    sdkClass: 'APIError',
    summary: 'A carrier or the SM-DP+ did not answer',
    retry: 'same_key',
    fix: 'Back off exponentially; see the status page',
    sandboxTrigger: 'Header `X-Sandbox-Error: upstream_unavailable`',
  },
  {
    code: 'maintenance',
    status: 503,
    answeredBy: 'every',
    sdkClass: 'APIError',
    summary: 'Planned maintenance; see the status page',
    retry: 'same_key',
    fix: 'Wait `Retry-After` seconds',
    sandboxTrigger: 'Header `X-Sandbox-Error: maintenance`',
  },
] as const satisfies readonly ErrorRule[];

export type ErrorCode = (typeof ERROR_CODES)[number]['code'];

/** The error rule of a code; throws on an unknown code, so a typo cannot pass silently. */
export function errorRule(code: string): ErrorRule {
  const rule = ERROR_CODES.find((candidate) => candidate.code === code);
  if (!rule) throw new Error(`No error code "${code}" in the behaviour model`);
  return rule;
}

/** Whether the operation can answer the code (the sandbox refuses to force one it cannot). */
export function answers(rule: ErrorRule, facts: OperationFacts): boolean {
  const {answeredBy} = rule;
  // The token endpoint answers in the OAuth format, with codes of its own.
  if (!facts.operation.includes(' /v1/')) return false;
  if (answeredBy === 'every') return true;
  if (answeredBy === 'input') return facts.takesInput;
  if (answeredBy === 'body') return facts.takesBody;
  if (answeredBy === 'key') return facts.takesKey;
  if (answeredBy === 'scoped') return facts.needsScope;
  return answeredBy.includes(facts.operation);
}

/** The error rules of the codes an operation can answer, in the model's order. */
export function errorCodesOf(facts: OperationFacts): ErrorRule[] {
  return (ERROR_CODES as readonly ErrorRule[]).filter((rule) => answers(rule, facts));
}

/** The codes after which a client forgets its cached token: every `new_token` one, and those that say so. */
export const TOKEN_DROPPING_CODES: readonly string[] = (ERROR_CODES as readonly ErrorRule[])
  .filter((rule) => rule.retry === 'new_token' || rule.dropsCachedToken === true)
  .map((rule) => rule.code);

/** The codes a client retries by itself (with backoff and the same key), from the model. */
export const AUTOMATIC_RETRY_CODES = ERROR_CODES.filter((rule) => RETRY_POLICIES[rule.retry].automatic).map(
  (rule) => rule.code,
);

// Refunds ---------------------------------------------------------------------------------------

/**
 * What a refund returns. Billing's rule: a never-installed eSIM is refunded in full, and an applied
 * top-up is never refunded, even on an eSIM that is refunded (a top-up's price is spent when it is applied).
 */
const REFUND_SCOPE = 'refunds:write';

export const REFUND_RULES = {
  /** The applied top-ups of the eSIM are refunded with it (false: only the order's `unit_price`). */
  includesTopups: REFUND_INCLUDES_TOPUPS,
  /**
   * While a top-up of the eSIM is `pending` its outcome is unknown: if it were applied after the
   * refund, you would pay for a top-up on an eSIM that can no longer be used, and an applied top-up
   * is not refunded. So a refund, or a cancel of its order, is refused with this error until every
   * top-up of the eSIM is `applied` or `failed`.
   */
  refusedWhileTopupPending: 'topup_pending',
  /**
   * The scope that moves refund money. A cancel refunds every eSIM of the order, so it needs this
   * scope as well as `orders:write`: a credential that may only buy cannot move money back by cancelling.
   */
  scope: REFUND_SCOPE,
  scopeSentence: `A cancel refunds the order’s eSIMs, so it needs the \`${REFUND_SCOPE}\` scope as well as \`orders:write\`: a token that may only place orders cannot cancel them.`,
  pendingTopupSentence: `While a top-up of the eSIM is \`pending\`, a refund of that eSIM and a cancel of its order answer \`409 topup_pending\` and change nothing, because a top-up applied after the refund would be charged for an eSIM that can no longer be used${REFUND_INCLUDES_TOPUPS ? '' : ' (and an applied top-up is not refunded)'}: wait for the top-up’s \`topup.applied\` or \`topup.failed\` event (or list the eSIM’s top-ups with \`GET /v1/esims/{iccid}/topups\`), then send the request again with a new \`Idempotency-Key\` (the \`409\` is stored under the first one, which would replay it).`,
  /** What one eSIM's refund credits, as the balance tables say it. */
  amount: REFUND_INCLUDES_TOPUPS ? 'the eSIM’s unit price plus the top-ups on it' : 'the eSIM’s unit price',
  /** The same, for a cancel's one refund per eSIM. */
  amountPerEsim: REFUND_INCLUDES_TOPUPS ? 'each eSIM’s unit price plus the top-ups on it' : 'each eSIM’s unit price',
  /** What is never refunded, top-ups first: the page's list renders it. */
  notRefunded: REFUND_INCLUDES_TOPUPS
    ? [
        'eSIMs that have been installed or used, and the top-ups on them.',
        'A top-up on its own: it is refunded only with its never-installed eSIM.',
      ]
    : [
        'eSIMs that have been installed or used.',
        'Top-ups once applied, on any eSIM: a refund of a never-installed eSIM returns its `unit_price` only, so top up an eSIM when the traveller is about to use it, not when you sell it.',
      ],
  sentence: REFUND_INCLUDES_TOPUPS
    ? 'A refund returns everything bought for the eSIM: the order’s `unit_price` plus the price of every top-up on it (a failed top-up’s price came back already), since a never-installed eSIM used none of it. It is one refund and one `refund` balance transaction for that total; the order’s `refunded_total` grows by the same amount. A top-up is never refunded on its own, and neither is anything on an eSIM that was installed.'
    : 'A refund returns the order’s `unit_price` for the eSIM, and nothing else: top-ups applied to the eSIM are not refunded, even though it was never installed, so a refund does not give back what you paid for them (a failed top-up’s price came back already when it failed). It is one refund and one `refund` balance transaction for that amount; the order’s `refunded_total` grows by the same amount, so it never exceeds the order’s `total`. A top-up is never refunded on its own, and nothing on an eSIM that was installed is refunded.',
} as const;

// Actions: who triggers them, the events they send, the money they move -------------------------

export type Actor = 'you' | 'traveller' | 'acme';
export type BalanceEntryType =
  'order' | 'order_failed' | 'topup' | 'topup_failed' | 'refund' | 'deposit' | 'adjustment';

/** One balance transaction an action makes: its type, its sign and the amount it moves. */
export type BalanceMovement = {
  type: BalanceEntryType;
  direction: 'debit' | 'credit';
  amount: string;
  /** One such transaction per eSIM of the order. */
  perEsim?: boolean;
};

export type Action = {
  id: string;
  /** What happens, in the reader's words. */
  name: string;
  by: Actor;
  /** The API operation that triggers it, when `by` is `you`. */
  operation?: string;
  /** How the sandbox triggers it when `by` is not `you`: a simulate action, a package, a header. */
  sandboxTrigger?: string;
  /** Webhook event types it sends, in order; `×` marks one per eSIM. */
  events: readonly string[];
  balance: readonly BalanceMovement[];
  note?: string;
};

export const ACTIONS = [
  {
    id: 'order.create',
    name: 'Create an order that completes in the request',
    by: 'you',
    operation: 'POST /v1/orders',
    events: ['order.completed'],
    balance: [{type: 'order', direction: 'debit', amount: 'the order total'}],
    note: 'The answer is `201` with status `completed`.',
  },
  {
    id: 'order.processing',
    name: 'Create an order that keeps processing',
    by: 'you',
    operation: 'POST /v1/orders',
    sandboxTrigger: `package \`${SANDBOX.slowPackageId}\``,
    events: [],
    balance: [{type: 'order', direction: 'debit', amount: 'the order total (reserved)'}],
    note: 'The answer is `201` with status `processing`; poll the order or wait for its event.',
  },
  {
    id: 'order.complete',
    name: 'A processing order completes',
    by: 'acme',
    sandboxTrigger: `the next read of a \`${SANDBOX.slowPackageId}\` order (its \`GET\`, or a list of orders)`,
    events: ['order.completed'],
    balance: [],
  },
  {
    id: 'order.fail',
    name: 'A processing order fails',
    by: 'acme',
    sandboxTrigger: `the next read of a \`${SANDBOX.slowFailingPackageId}\` order (its \`GET\`, or a list of orders)`,
    events: ['order.failed'],
    balance: [{type: 'order_failed', direction: 'credit', amount: 'the order total'}],
  },
  {
    id: 'order.reject',
    name: 'An order fails in the request (`422 provisioning_failed`)',
    by: 'you',
    operation: 'POST /v1/orders',
    sandboxTrigger: `package \`${SANDBOX.failingPackageId}\``,
    events: [],
    balance: [],
    note: 'No order is created: nothing to list, no event, no charge.',
  },
  {
    id: 'order.cancel',
    name: 'Cancel an order',
    by: 'you',
    operation: 'POST /v1/orders/{order_id}/cancel',
    events: ['refund.succeeded ×'],
    balance: [{type: 'refund', direction: 'credit', amount: REFUND_RULES.amountPerEsim, perEsim: true}],
    note: 'One refund per eSIM, as when each is refunded on its own; the order gets `cancelled_at` and `refunded_total`.',
  },
  {
    id: 'refund.create',
    name: 'Refund an eSIM',
    by: 'you',
    operation: 'POST /v1/refunds',
    events: ['refund.succeeded'],
    balance: [{type: 'refund', direction: 'credit', amount: REFUND_RULES.amount}],
    note: 'The refund’s `amount` is that, and the order’s `refunded_total` grows by it.',
  },
  {
    id: 'esim.install',
    name: 'The traveller installs the profile',
    by: 'traveller',
    sandboxTrigger: 'simulate `installed`',
    events: ['esim.installed'],
    balance: [],
  },
  {
    id: 'esim.activate',
    name: 'First network attach',
    by: 'traveller',
    sandboxTrigger: 'simulate `activated`',
    events: ['esim.activated'],
    balance: [],
  },
  {
    id: 'esim.activate_ready',
    name: 'First network attach of an eSIM still `ready`',
    by: 'traveller',
    sandboxTrigger: 'simulate `activated` on a `ready` eSIM',
    events: ['esim.installed', 'esim.activated'],
    balance: [],
    note: 'A profile is installed before it can attach, so the eSIM passes through `installed`: both events, in this order.',
  },
  {
    id: 'esim.use',
    name: 'Data is used past a threshold',
    by: 'traveller',
    sandboxTrigger: 'simulate `consume_data`',
    events: ['esim.usage_threshold'],
    balance: [],
    note: 'At 100 % the eSIM becomes `depleted`.',
  },
  {
    id: 'esim.delete_profile',
    name: 'The traveller deletes the profile from the device',
    by: 'traveller',
    sandboxTrigger: 'simulate `profile_deleted`',
    events: [],
    balance: [],
    note: '`profile_state` becomes `deleted`; a profile installs once, so support reissues it.',
  },
  {
    id: 'esim.suspend',
    name: 'Suspend an eSIM',
    by: 'you',
    operation: 'POST /v1/esims/{iccid}/suspend',
    events: [],
    balance: [],
  },
  {
    id: 'esim.resume',
    name: 'Resume an eSIM',
    by: 'you',
    operation: 'POST /v1/esims/{iccid}/resume',
    events: [],
    balance: [],
    note: 'Back to the status it had before the suspension.',
  },
  {
    id: 'esim.expiring_soon',
    name: `Validity ends within ${LIFETIMES.expiringSoonHours} hours`,
    by: 'acme',
    sandboxTrigger: 'simulate `expiring_soon`',
    events: ['esim.expiring_soon'],
    balance: [],
  },
  {
    id: 'esim.expire',
    name: 'Validity ends',
    by: 'acme',
    sandboxTrigger: 'simulate `expire`',
    events: ['esim.expired'],
    balance: [],
  },
  {
    id: 'topup.create',
    name: 'Add a top-up that is applied',
    by: 'you',
    operation: 'POST /v1/esims/{iccid}/topups',
    events: ['topup.applied'],
    balance: [{type: 'topup', direction: 'debit', amount: 'the top-up price'}],
  },
  {
    id: 'topup.pending',
    name: 'Add a top-up that stays pending',
    by: 'you',
    operation: 'POST /v1/esims/{iccid}/topups',
    sandboxTrigger: `package \`${SANDBOX.pendingTopupPackageId}\``,
    events: [],
    balance: [{type: 'topup', direction: 'debit', amount: 'the top-up price'}],
    note: 'The answer is `201` with status `pending`; until it is applied or fails, the eSIM cannot be refunded nor its order cancelled (`409 topup_pending`).',
  },
  {
    id: 'topup.apply',
    name: 'A pending top-up is applied',
    by: 'acme',
    sandboxTrigger: `the next \`GET /v1/esims/{iccid}/topups\` of the eSIM of a \`${SANDBOX.pendingTopupPackageId}\` top-up`,
    events: ['topup.applied'],
    balance: [],
  },
  {
    id: 'topup.fail_pending',
    name: 'A pending top-up fails',
    by: 'acme',
    sandboxTrigger: `the next \`GET /v1/esims/{iccid}/topups\` of the eSIM of a \`${SANDBOX.pendingFailingTopupPackageId}\` top-up`,
    events: ['topup.failed'],
    balance: [{type: 'topup_failed', direction: 'credit', amount: 'the top-up price'}],
    note: 'The price was debited when the top-up was created; this credits it back.',
  },
  {
    id: 'topup.fail',
    name: 'Add a top-up that fails',
    by: 'you',
    operation: 'POST /v1/esims/{iccid}/topups',
    sandboxTrigger: `package \`${SANDBOX.failingTopupPackageId}\``,
    events: ['topup.failed'],
    balance: [
      {type: 'topup', direction: 'debit', amount: 'the top-up price'},
      {type: 'topup_failed', direction: 'credit', amount: 'the top-up price'},
    ],
  },
  {
    id: 'balance.low',
    name: 'A debit takes the balance below the low-balance threshold',
    by: 'acme',
    sandboxTrigger: `\`POST /v1/sandbox/balance\` to just above ${BILLING.lowBalanceThresholdDefault}, then order`,
    events: ['balance.low'],
    balance: [],
    note: 'Sent when a spend crosses the threshold, once: further spends below it send no other until the balance has been above it again.',
  },
  {
    id: 'balance.deposit',
    name: 'Money added to the balance (card, bank transfer; sandbox: set the balance)',
    by: 'you',
    operation: 'POST /v1/sandbox/balance',
    events: [],
    balance: [{type: 'deposit', direction: 'credit', amount: 'the amount added'}],
  },
  {
    id: 'balance.adjust',
    name: 'Money taken from the balance as a correction (sandbox: set the balance lower)',
    by: 'acme',
    sandboxTrigger: '`POST /v1/sandbox/balance` with a lower amount',
    events: [],
    balance: [{type: 'adjustment', direction: 'debit', amount: 'the amount taken'}],
    note: 'A correction is not a spend: it sends no `balance.low`.',
  },
] as const satisfies readonly Action[];

export type ActionId = (typeof ACTIONS)[number]['id'];

export function action(id: ActionId): Action {
  return ACTIONS.find((candidate) => candidate.id === id)!;
}

// Validity and data -------------------------------------------------------------------------

/** When the validity clock starts, by the package's `activation_policy`. */
export const CLOCK_STARTS = {
  first_use: 'at the first network attach (`active`)',
  on_install: 'when the profile is installed (`installed`)',
} as const;

/** A top-up's data joins what remains; its `validity_days` run from one moment, never added to `expires_at`. */
const TOPUP_VALIDITY_SENTENCE =
  'A top-up adds its data to the data remaining, and its `validity_days` run from when it is applied, or from when the clock starts if it has not started yet (first use for `first_use` packages): `expires_at` becomes that moment plus the top-up’s days if that is later than the validity the eSIM already has, and never moves earlier.';

export const VALIDITY_RULES = {
  /** A top-up adds its data to what remains. */
  topupAddsData: true,
  /** A never-installed eSIM waits: its clock has not started, so it does not expire. */
  readyExpires: false,
  /** Suspension pauses the service, not the clock: a suspended eSIM can expire. */
  suspensionPausesClock: false,
  /**
   * A top-up's `validity_days` run from when it is applied, or from when the clock starts if it has
   * not (they are not added to `expires_at`); the page's list and the contract's top-up description carry it.
   */
  topupSentence: TOPUP_VALIDITY_SENTENCE,
  sentences: [
    `The validity clock starts once per eSIM, and \`expires_at\` is set then: for \`first_use\` packages ${CLOCK_STARTS.first_use}, for \`on_install\` packages ${CLOCK_STARTS.on_install}, even if the first network attach comes days later.`,
    TOPUP_VALIDITY_SENTENCE,
    'A `ready` eSIM never expires: its clock has not started. It stays refundable for the refund window only.',
    'Suspending an eSIM stops its data, not its clock: a suspended eSIM expires on its `expires_at`.',
  ],
} as const;

// The widget session's caps ---------------------------------------------------------------------

/** `a`, `b` or `c`, in code. */
function listWords(words: readonly string[]): string {
  const coded = words.map((word) => `\`${word}\``);
  return coded.length < 2 ? coded.join('') : `${coded.slice(0, -1).join(', ')} or ${coded.at(-1)}`;
}

/** The statuses of the orders and top-ups that count against the widget's caps. */
const WIDGET_COUNTED: {orders: readonly OrderStatus[]; topups: readonly TopupStatus[]} = {
  orders: ['pending', 'processing', 'completed', 'cancelled'],
  topups: ['pending', 'applied'],
};

export const WIDGET_CAPS = {
  maxOrders: {default: 1},
  /** A session adds no top-up unless it says how many: an uncapped default would let a traveller buy without end. */
  maxTopups: {default: 0},
  /**
   * What each cap counts, whoever bought it: orders per booking (`customer_reference`, required, so the order cap
   * always holds) and top-ups per eSIM (the session's `iccid`, which a top-up always names).
   */
  countsAgainst: {orders: 'customer_reference', topups: 'iccid'},
  /**
   * Which orders and top-ups a cap counts, by status: every one that was placed, except a `failed` one,
   * which issued and charged nothing. A `cancelled` order counts: it was bought, and a refund is your
   * decision, not a new allowance for the traveller (raise `max_orders` in the next session to allow one).
   */
  counted: WIDGET_COUNTED,
  countedSentence: `An order counts against \`max_orders\` when it is ${listWords(WIDGET_COUNTED.orders)}, so a cancelled (refunded) order still counts; a \`failed\` one, which issued and charged nothing, does not. A top-up counts against \`max_topups\` when it is ${listWords(WIDGET_COUNTED.topups)}, not when \`failed\`.`,
  /**
   * Only the widget refuses a purchase past a cap. `POST /v1/orders` and `POST /v1/esims/{iccid}/topups`
   * never do: a backend that retries keeps its Idempotency-Key, and that is what stops its duplicates.
   */
  enforcedByApi: false,
  sentence:
    '`max_orders` caps the orders the widget may place for the session’s `customer_reference` (each widget order is for one eSIM, as the widget never orders a `quantity` above 1; an order your backend places for the reference counts as one order, whatever its `quantity`), and `max_topups` the top-ups of the session’s eSIM (`iccid`): the widget counts every order for that reference and every top-up of that eSIM, made in any widget session or by your backend, not per session, so a traveller who reloads the page gets a new session with what remains (`remaining_orders`, `remaining_topups`). Only the widget enforces them: the API never refuses an order or top-up because of a cap, so your backend prevents its own duplicates by resending with the same `Idempotency-Key`.',
} as const;
