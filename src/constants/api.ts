// The one source of API facts the pages quote: MDX imports them, so a change here changes every page.
import {BRAND, NPM_SCOPE, SDK_CLASS, SITE} from './site';

export const API_VERSION = 'v1';

export const ENVIRONMENTS = {
  sandbox: {
    label: 'Sandbox',
    apiBase: `https://sandbox.api.example.com/${API_VERSION}`,
    tokenUrl: 'https://sandbox.api.example.com/oauth/token',
    widgetOrigin: 'https://sandbox.widget.example.com',
    clientIdPrefix: 'ci_test_',
    clientSecretPrefix: 'cs_test_',
  },
  live: {
    label: 'Live',
    apiBase: `https://api.example.com/${API_VERSION}`,
    tokenUrl: 'https://api.example.com/oauth/token',
    widgetOrigin: 'https://widget.example.com',
    clientIdPrefix: 'ci_live_',
    clientSecretPrefix: 'cs_live_',
  },
} as const;

export const URLS = {
  dashboard: 'https://dashboard.example.com',
  helpCenter: 'https://help.example.com',
  status: 'https://status.example.com',
  /** The errors reference; each error code is an anchor on it (`doc_url` in every error). */
  errorsDocBase: `${SITE.url}/getting-started/main-concepts`,
  supportEmail: 'support@example.com',
  securityEmail: 'security@example.com',
} as const;

export const SDK = {
  className: SDK_CLASS,
  packageName: `${NPM_SCOPE}/sdk`,
  /** The release these pages describe; the Changelog lists what each release added. */
  version: '1.1.0',
  nodeVersion: '18',
  pythonPackage: NPM_SCOPE.slice(1),
} as const;

export const LIMITS = {
  tokenLifetimeSeconds: 3600,
  tokenRefreshLeadSeconds: 60,
  tokenRequestsPerMinute: 10,
  sustainedRequestsPerSecond: 20,
  burstRequests: 40,
  orderRequestsPerSecond: 5,
  usageCallsPerMinutePerIccid: 1,
  usageRefreshMinutes: 15,
  sandboxRequestsPerMinute: 60,
  sandboxRetentionDays: 90,
  orderQuantityMax: 50,
  idempotencyKeyMaxLength: 255,
  idempotencyRetentionHours: 24,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  credentialsPerEnvironment: 5,
  widgetSessionMinutes: 30,
  webhookToleranceSeconds: 300,
  webhookResponseSeconds: 10,
  refundWindowDays: 30,
  minimumTopUp: '100.00',
} as const;

export const POSTMAN = {
  collectionName: `${BRAND} API ${API_VERSION}`,
  sandboxEnvironmentName: `${BRAND} – Sandbox`,
  liveEnvironmentName: `${BRAND} – Live`,
} as const;

export const SAMPLES = {
  clientId: 'ci_test_7Hq2LmV9',
  // Secrets in samples say they are made up (tests/placeholders.spec.ts): never a real-looking value.
  clientSecret: 'cs_test_EXAMPLE_ONLY_not_a_real_secret',
  accessToken: 'at_test_EXAMPLE_ONLY_not_a_real_token',
  webhookSecret: 'whsec_test_EXAMPLE_ONLY_not_a_real_secret',
  packageId: 'jp-5gb-30d',
  topupPackageId: 'jp-3gb-15d',
  orderId: 'ord_01JB7Z3KQ8',
  iccid: '8944000000123456783',
  sandboxIccid: '8900000000000000011',
  webhookEndpointId: 'we_01JD2F8RKA',
  widgetSessionId: 'wss_9fQ2mT7xLp',
  requestId: 'req_8sK2pQ4vNw',
  /**
   * A delivery to check a webhook verifier against: the contract's example of `event`, minified, sent
   * at `timestamp` and signed with `webhookSecret` (a test recomputes `signature`).
   */
  webhookTestVector: {
    event: 'balance.low',
    timestamp: '1741944602',
    signature: 'a8390b29e97a333e9d3017c1ffe425ac2a9bb01788dfa31e945212277f4f6529',
  },
} as const;

export const PRODUCT = {
  destinationCount: '190+',
  /** Minimum iOS version for the one-tap install link. */
  iosInstallMinVersion: '17.4',
  smdpAddress: 'smdp.example.com',
} as const;

export const SANDBOX = {
  startingBalance: '1,000.00',
  testCardNumber: '4242 4242 4242 4242',
  iccidPrefix: '8900000',
  smdpAddress: 'smdp.sandbox.example.com',
  failingPackageId: 'sandbox-fail-1gb-7d',
  failingPackageError: 'provisioning_failed',
  /** Answers 422 package_unavailable. */
  unavailablePackageId: 'sandbox-unavailable-1gb-7d',
  /** Answers 201 `processing`; the next read of the order (its GET, or a list of orders) completes it. */
  slowPackageId: 'sandbox-slow-1gb-7d',
  /** Answers 201 `processing`; the next read of the order (its GET, or a list of orders) fails it (`order.failed`, total credited back). */
  slowFailingPackageId: 'sandbox-slow-fail-1gb-7d',
  /** Listed last in every sandbox eSIM's topup-packages; a top-up with it fails (`topup.failed`). */
  failingTopupPackageId: 'sandbox-topup-fail-1gb-7d',
  /** Listed before the failing one; a top-up with it answers 201 `pending`, and the next list of the eSIM's top-ups applies it. */
  pendingTopupPackageId: 'sandbox-topup-slow-1gb-7d',
  /** Listed after the pending one; a top-up with it answers 201 `pending`, and the next list of the eSIM's top-ups fails it (`topup.failed`, price credited back). */
  pendingFailingTopupPackageId: 'sandbox-topup-slow-fail-1gb-7d',
  /** Request header that makes the sandbox answer that error code (any code of the behaviour model). */
  errorHeader: 'X-Sandbox-Error',
  simulateActions: ['installed', 'activated', 'consume_data', 'expiring_soon', 'expire', 'profile_deleted'],
} as const;

export const BILLING = {
  currencies: ['USD', 'EUR', 'GBP'],
  lowBalanceThresholdDefault: '100.00',
  bankTransferBusinessDays: '1–3',
  invoicePaymentTermsDays: 30,
} as const;

/** The delays before each retry of a failed webhook delivery. */
const WEBHOOK_RETRY_SCHEDULE = ['1 min', '5 min', '30 min', '2 h', '6 h', '12 h', '24 h'] as const;

export const LIFETIMES = {
  qrCodeUrlHours: 24,
  expiringSoonHours: 24,
  webhookReplayDays: 30,
  webhookDisableAfterDays: 3,
  /** The first delivery, then one per retry. */
  webhookAttempts: WEBHOOK_RETRY_SCHEDULE.length + 1,
  webhookRetryWindowHours: 45,
  webhookRetrySchedule: WEBHOOK_RETRY_SCHEDULE,
  secretRollGracePeriods: ['immediately', '1 hour', '24 hours (default)', '7 days'],
  previousMajorSupportMonths: 12,
  deprecationNoticeMonths: 6,
  customerReferenceMaxLength: 64,
  metadataMaxKeys: 20,
  accessTokenMaxLength: 2048,
} as const;

/** Prices in minor units, as on the wire. */
export const SAMPLE_PACKAGE = {
  id: SAMPLES.packageId,
  name: 'Japan 5 GB · 30 days',
  dataMb: 5120,
  validityDays: 30,
  currency: 'USD',
  wholesaleMinor: 650,
  wholesale: '6.50',
  suggestedRetailMinor: 1300,
  suggestedRetail: '13.00',
} as const;

const ARTIFACT_SLUG = NPM_SCOPE.slice(1);
export const ARTIFACTS = {
  openapi: '/openapi.yaml',
  postmanCollection: `/postman/${ARTIFACT_SLUG}-api-${API_VERSION}.postman_collection.json`,
  postmanSandboxEnvironment: `/postman/${ARTIFACT_SLUG}-sandbox.postman_environment.json`,
  postmanLiveEnvironment: `/postman/${ARTIFACT_SLUG}-live.postman_environment.json`,
} as const;
