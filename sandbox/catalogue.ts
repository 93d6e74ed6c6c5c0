// The sandbox catalogue: a small slice of the live one, same IDs and prices. The contract's
// package example is its first entry (sandbox.test.ts checks they agree).
import {SAMPLE_PACKAGE, SAMPLES, SANDBOX} from '../src/constants/api';

export type Package = {
  id: string;
  name: string;
  type: 'local' | 'regional' | 'global';
  countries: string[];
  data_mb: number | null;
  unlimited: boolean;
  validity_days: number;
  network_types: string[];
  activation_policy: 'first_use' | 'on_install';
  topup_available: boolean;
  wholesale_price: {amount: number; currency: string};
  suggested_retail_price: {amount: number; currency: string};
};

export type Destination = {code: string; name: string; type: 'country' | 'region'; countries: string[]};

const EU = ['AT', 'BE', 'DE', 'ES', 'FR', 'IT', 'NL', 'PT'];
const ASIA = ['JP', 'KR', 'SG', 'TH'];

const usd = (amount: number) => ({amount, currency: SAMPLE_PACKAGE.currency});

function plan(
  id: string,
  name: string,
  type: Package['type'],
  countries: string[],
  dataMb: number | null,
  days: number,
  wholesale: number,
  extra: Partial<Package> = {},
): Package {
  return {
    id,
    name,
    type,
    countries,
    data_mb: dataMb,
    unlimited: dataMb === null,
    validity_days: days,
    network_types: ['4G', '5G'],
    activation_policy: 'first_use',
    topup_available: true,
    wholesale_price: usd(wholesale),
    suggested_retail_price: usd(wholesale * 2),
    ...extra,
  };
}

export const PACKAGES: readonly Package[] = [
  plan(
    SAMPLE_PACKAGE.id,
    SAMPLE_PACKAGE.name,
    'local',
    ['JP'],
    SAMPLE_PACKAGE.dataMb,
    30,
    SAMPLE_PACKAGE.wholesaleMinor,
  ),
  plan(SAMPLES.topupPackageId, 'Japan 3 GB · 15 days', 'local', ['JP'], 3072, 15, 450),
  plan('jp-10gb-30d', 'Japan 10 GB · 30 days', 'local', ['JP'], 10240, 30, 1100),
  // Its validity clock starts at install, not at the first network attach.
  plan('kr-5gb-15d', 'South Korea 5 GB · 15 days', 'local', ['KR'], 5120, 15, 800, {activation_policy: 'on_install'}),
  plan('us-5gb-30d', 'United States 5 GB · 30 days', 'local', ['US'], 5120, 30, 700),
  plan('us-unl-7d', 'United States Unlimited · 7 days', 'local', ['US'], null, 7, 1500, {topup_available: false}),
  plan('eu-10gb-30d', 'Europe 10 GB · 30 days', 'regional', EU, 10240, 30, 1200),
  plan('asia-5gb-15d', 'Asia 5 GB · 15 days', 'regional', ASIA, 5120, 15, 900),
  plan('gl-3gb-15d', 'Global 3 GB · 15 days', 'global', [...new Set([...EU, ...ASIA, 'US'])].sort(), 3072, 15, 1500),
  // The sandbox's trigger packages (SANDBOX in src/constants/api.ts): orderable, never listed.
  plan(SANDBOX.failingPackageId, 'Sandbox failure 1 GB · 7 days', 'local', ['JP'], 1024, 7, 100, {
    topup_available: false,
  }),
  plan(SANDBOX.unavailablePackageId, 'Sandbox unavailable 1 GB · 7 days', 'local', ['JP'], 1024, 7, 100, {
    topup_available: false,
  }),
  plan(SANDBOX.slowPackageId, 'Sandbox slow 1 GB · 7 days', 'local', ['JP'], 1024, 7, 100),
  plan(SANDBOX.slowFailingPackageId, 'Sandbox slow failure 1 GB · 7 days', 'local', ['JP'], 1024, 7, 100),
  plan(SANDBOX.pendingTopupPackageId, 'Sandbox pending top-up 1 GB · 7 days', 'local', ['JP'], 1024, 7, 100),
  plan(
    SANDBOX.pendingFailingTopupPackageId,
    'Sandbox pending failing top-up 1 GB · 7 days',
    'local',
    ['JP'],
    1024,
    7,
    100,
  ),
  plan(SANDBOX.failingTopupPackageId, 'Sandbox failing top-up 1 GB · 7 days', 'local', ['JP'], 1024, 7, 100),
];

const COUNTRY_NAMES: Record<string, string> = {
  AT: 'Austria',
  BE: 'Belgium',
  DE: 'Germany',
  ES: 'Spain',
  FR: 'France',
  IT: 'Italy',
  JP: 'Japan',
  KR: 'South Korea',
  NL: 'Netherlands',
  PT: 'Portugal',
  SG: 'Singapore',
  TH: 'Thailand',
  US: 'United States',
};

export const DESTINATIONS: readonly Destination[] = [
  ...Object.entries(COUNTRY_NAMES).map(([code, name]) => ({code, name, type: 'country' as const, countries: [code]})),
  {code: 'EU', name: 'Europe', type: 'region', countries: EU},
  {code: 'ASIA', name: 'Asia', type: 'region', countries: ASIA},
  {code: 'GLOBAL', name: 'Global', type: 'region', countries: Object.keys(COUNTRY_NAMES)},
];

/** The region code a regional or global package is sold under. */
export function regionOf(pkg: Package): string | undefined {
  if (pkg.type === 'global') {
    return 'GLOBAL';
  }
  return pkg.type === 'regional' ? (pkg.countries.every((c) => EU.includes(c)) ? 'EU' : 'ASIA') : undefined;
}
