import {LIMITS} from './api';

// The state rules of orders, eSIMs and top-ups: the pages render their tables from here and the
// local sandbox (sandbox/state.ts) enforces exactly these rules, so docs and sandbox cannot drift.

export type EsimStatus =
  'provisioning' | 'ready' | 'installed' | 'active' | 'depleted' | 'expired' | 'suspended' | 'cancelled';
export type OrderStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';
export type TopupStatus = 'pending' | 'applied' | 'failed';

export type StateRow<Status extends string> = {status: Status; meaning: string};

/** A change of state: what causes it, from which states, and the webhook it sends. */
export type Transition<Status extends string> = {
  from: readonly Status[];
  to: Status;
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

export const ESIM_STATES: readonly (StateRow<EsimStatus> & {youCan: string})[] = [
  {status: 'provisioning', meaning: 'Being allocated', youCan: 'Wait'},
  {
    status: 'ready',
    meaning: 'Can be downloaded; never installed',
    youCan: 'Send the activation, top up, refund, suspend',
  },
  {status: 'installed', meaning: 'On a device, no data used yet', youCan: 'Top up, suspend'},
  {
    status: 'active',
    meaning: 'First network attach happened; the validity clock runs',
    youCan: 'Top up, read usage, suspend',
  },
  {status: 'depleted', meaning: 'All data used', youCan: 'Top up to make it `active` again, suspend'},
  {status: 'expired', meaning: 'Validity ended', youCan: 'Sell a new eSIM'},
  {status: 'suspended', meaning: 'Paused by you', youCan: 'Resume'},
  {status: 'cancelled', meaning: 'Refunded before install', youCan: 'Nothing'},
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
    by: 'First network attach (sandbox: `activated`)',
    event: 'esim.activated',
  },
  {from: ['active'], to: 'depleted', by: 'All data used (sandbox: `consume_data`)', event: 'esim.usage_threshold'},
  {from: ['depleted'], to: 'active', by: 'A top-up is applied', event: 'topup.applied'},
  {
    from: ['installed', 'active', 'depleted', 'suspended'],
    to: 'expired',
    by: 'Validity ends (sandbox: `expire`)',
    event: 'esim.expired',
  },
  {from: ['ready', 'installed', 'active', 'depleted'], to: 'suspended', by: '`POST /v1/esims/{iccid}/suspend`'},
  {from: ['suspended'], to: 'active', by: '`POST /v1/esims/{iccid}/resume` (back to the status it had)'},
  {from: ['ready'], to: 'cancelled', by: '`POST /v1/refunds` or the order is cancelled', event: 'refund.succeeded'},
];

export const TOPUP_STATES: readonly StateRow<TopupStatus>[] = [
  {status: 'pending', meaning: 'Created and charged; being applied'},
  {status: 'applied', meaning: 'The data and validity were added to the eSIM'},
  {status: 'failed', meaning: 'It could not be applied; the charge is returned to your balance'},
];

export const TOPUP_TRANSITIONS: readonly Transition<TopupStatus>[] = [
  {from: ['pending'], to: 'applied', by: 'The carrier added the data', event: 'topup.applied'},
  {from: ['pending'], to: 'failed', by: 'The carrier refused it', event: 'topup.failed'},
];

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
    also: `never installed, within ${LIMITS.refundWindowDays} days of the order`,
  },
  {
    operation: 'POST /v1/orders/{order_id}/cancel',
    allowedFrom: ['completed'],
    failure: 'order_not_cancellable',
    also: `no eSIM of the order installed, within ${LIMITS.refundWindowDays} days of the order`,
  },
  {
    operation: 'POST /v1/esims/{iccid}/suspend',
    allowedFrom: ['ready', 'installed', 'active', 'depleted'],
    failure: 'invalid_state',
  },
  {operation: 'POST /v1/esims/{iccid}/resume', allowedFrom: ['suspended'], failure: 'invalid_state'},
];

/** The sandbox's `simulate` actions: which eSIM states each accepts (any other answers `422 invalid_state`). */
export const SIMULATE_ACTIONS = {
  installed: {from: ['ready'], to: 'installed'},
  activated: {from: ['ready', 'installed'], to: 'active'},
  consume_data: {from: ['active'], to: 'active'},
  expire: {from: ['installed', 'active', 'depleted', 'suspended'], to: 'expired'},
} as const satisfies Record<string, {from: readonly EsimStatus[]; to: EsimStatus}>;

/** The usage shares that send `esim.usage_threshold` (`data.threshold`), by default. */
export const USAGE_THRESHOLDS = [50, 80, 100] as const;
