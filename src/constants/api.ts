/**
 * The one source of API facts the documentation quotes: hosts, versions,
 * limits and sample identifiers. MDX pages import these instead of retyping
 * them, so a change here changes every page.
 */
import {BRAND, NPM_SCOPE, SDK_CLASS} from './site';

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
  errorsDocBase: 'https://docs.example.com/errors',
  supportEmail: 'support@example.com',
  securityEmail: 'security@example.com',
} as const;

export const SDK = {
  className: SDK_CLASS,
  packageName: `${NPM_SCOPE}/sdk`,
  version: '1.0.0',
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

/** Sample values used consistently across pages. */
export const SAMPLES = {
  clientId: 'ci_test_7Hq2LmV9',
  packageId: 'jp-5gb-30d',
  topupPackageId: 'jp-3gb-15d',
  orderId: 'ord_01JB7Z3KQ8',
  iccid: '8944000000123456783',
  sandboxIccid: '8900000000000000011',
} as const;

/** Download paths of the generated API artifacts (plugins/api-artifacts writes them; pages link to them). */
const ARTIFACT_SLUG = NPM_SCOPE.slice(1);
export const ARTIFACTS = {
  openapi: '/openapi.yaml',
  postmanCollection: `/postman/${ARTIFACT_SLUG}-api-${API_VERSION}.postman_collection.json`,
  postmanSandboxEnvironment: `/postman/${ARTIFACT_SLUG}-sandbox.postman_environment.json`,
  postmanLiveEnvironment: `/postman/${ARTIFACT_SLUG}-live.postman_environment.json`,
} as const;
