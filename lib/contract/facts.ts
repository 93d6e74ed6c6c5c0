// One object, so a test can build the artifacts for another brand and see them change.
import {BRAND} from '../../src/constants/site';
import {API_VERSION, ENVIRONMENTS, LIFETIMES, LIMITS, SAMPLES, SANDBOX, URLS} from '../../src/constants/api';
import {IDEMPOTENCY, PAGINATION, REFUND_RULES, RETRY_POLICIES, WIDGET_CAPS} from '../../src/constants/behaviour';

type Environment = (typeof ENVIRONMENTS)[keyof typeof ENVIRONMENTS];

export type EnvironmentKey = keyof typeof ENVIRONMENTS;

export type ApiFacts = {
  BRAND: string;
  API_VERSION: string;
  /** Each environment plus its API `origin` (the OpenAPI server: paths start with `/v1` or `/oauth`). */
  ENVIRONMENTS: Record<EnvironmentKey, Environment & {origin: string}>;
  LIMITS: typeof LIMITS;
  /** How long things last, for the deprecation notice. */
  LIFETIMES: typeof LIFETIMES;
  SAMPLES: typeof SAMPLES;
  /** The sandbox's trigger packages, for the operations they change. */
  SANDBOX: typeof SANDBOX;
  URLS: typeof URLS;
  /** The refund rule's sentence, for the refund and cancel operations' descriptions. */
  REFUND_RULES: typeof REFUND_RULES;
  /** What is stored under an Idempotency-Key and what a replay is, for the key's descriptions. */
  IDEMPOTENCY: typeof IDEMPOTENCY;
  /** What each retry policy asks of a client, for the retry policy's description. */
  RETRY_POLICIES: typeof RETRY_POLICIES;
  /** How a cursor walks a list, for the pagination descriptions. */
  PAGINATION: typeof PAGINATION;
  /** The widget caps' sentence and defaults, for the widget session's fields. */
  WIDGET_CAPS: typeof WIDGET_CAPS;
};

/** Same rule as NPM_SCOPE. */
export function brandSlug(brand: string): string {
  return brand
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function apiFacts(brand: string = BRAND): ApiFacts {
  const withOrigin = (environment: Environment) => ({...environment, origin: new URL(environment.apiBase).origin});
  return {
    BRAND: brand,
    API_VERSION,
    ENVIRONMENTS: {sandbox: withOrigin(ENVIRONMENTS.sandbox), live: withOrigin(ENVIRONMENTS.live)},
    LIMITS,
    LIFETIMES,
    SAMPLES,
    SANDBOX,
    URLS,
    REFUND_RULES,
    IDEMPOTENCY,
    RETRY_POLICIES,
    PAGINATION,
    WIDGET_CAPS,
  };
}

export function postmanNames(facts: ApiFacts) {
  const slug = brandSlug(facts.BRAND);
  return {
    collectionName: `${facts.BRAND} API ${facts.API_VERSION}`,
    environmentNames: {
      sandbox: `${facts.BRAND} – ${facts.ENVIRONMENTS.sandbox.label}`,
      live: `${facts.BRAND} – ${facts.ENVIRONMENTS.live.label}`,
    },
    paths: {
      collection: `/postman/${slug}-api-${facts.API_VERSION}.postman_collection.json`,
      environments: {
        sandbox: `/postman/${slug}-sandbox.postman_environment.json`,
        live: `/postman/${slug}-live.postman_environment.json`,
      },
    },
  };
}
