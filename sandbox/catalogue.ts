// The sandbox catalogue: the live one's destinations, and a slice of its packages with the same IDs and
// prices (the global package covers every destination). The contract's package example is its first
// entry (sandbox.test.ts checks they agree).
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

/** Every country and territory sold (ISO 3166-1 alpha-2): the catalogue's 190+ destinations. */
const COUNTRIES = `AD AE AF AG AL AM AO AR AT AU AZ BA BB BD BE BF BG BH BI BJ BN BO BR BS BT BW BY BZ CA CD CF CG CH
CI CL CM CN CO CR CU CV CY CZ DE DJ DK DM DO DZ EC EE EG ER ES ET FI FJ FM FR GA GB GD GE GH GM GN GQ GR GT GU GW
GY HK HN HR HT HU ID IE IL IN IQ IR IS IT JM JO JP KE KG KH KI KM KN KR KW KZ LA LB LC LI LK LR LS LT LU LV LY MA
MC MD ME MG MH MK ML MM MN MO MR MT MU MV MW MX MY MZ NA NE NG NI NL NO NP NR NZ OM PA PE PG PH PK PL PR PS PT PW
PY QA RO RS RU RW SA SB SC SD SE SG SI SK SL SM SN SO SR SS ST SV SY SZ TD TG TH TJ TL TM TN TO TR TT TV TW TZ UA
UG US UY UZ VA VC VE VN VU WS YE ZA ZM ZW`
  .split(/\s+/)
  .sort();

const REGION_NAMES = new Intl.DisplayNames(['en'], {type: 'region'});
/** The name a traveller looks for, where ICU's is a longer official one. */
const SHORT_NAMES: Record<string, string> = {HK: 'Hong Kong', MO: 'Macao'};
const countryName = (code: string) => SHORT_NAMES[code] ?? REGION_NAMES.of(code) ?? code;

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
  plan('gl-3gb-15d', 'Global 3 GB · 15 days', 'global', COUNTRIES, 3072, 15, 1500),
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

export const DESTINATIONS: readonly Destination[] = [
  ...COUNTRIES.map((code) => ({code, name: countryName(code), type: 'country' as const, countries: [code]})),
  {code: 'EU', name: 'Europe', type: 'region', countries: EU},
  {code: 'ASIA', name: 'Asia', type: 'region', countries: ASIA},
  {code: 'GLOBAL', name: 'Global', type: 'region', countries: COUNTRIES},
];

/** The region code a regional or global package is sold under. */
export function regionOf(pkg: Package): string | undefined {
  if (pkg.type === 'global') {
    return 'GLOBAL';
  }
  return pkg.type === 'regional' ? (pkg.countries.every((c) => EU.includes(c)) ? 'EU' : 'ASIA') : undefined;
}
