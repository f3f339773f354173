import { missing } from '@crm/domain';
/**
 * Deterministic, realistic-looking record contents: people with names from several
 * languages, company or personal email addresses, phone numbers in a few national formats,
 * and a company name. A few rare names and companies give the `q` search something to find
 * in a handful of rows only.
 */

/** A small fast PRNG (mulberry32), so every run seeds the same kind of data. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Comma-separated words, kept compact so the lists stay readable. */
function list(text: string): string[] {
  return text.split(',');
}

const FIRST_NAMES = list(
  'James,Mary,John,Patricia,Robert,Jennifer,Michael,Linda,William,Elizabeth,David,Barbara,' +
    'Richard,Susan,Joseph,Jessica,Thomas,Sarah,Charles,Karen,Christopher,Nancy,Daniel,Lisa,' +
    'Matthew,Betty,Anthony,Margaret,Mark,Sandra,Donald,Ashley,Steven,Kimberly,Paul,Emily,' +
    'Andrew,Donna,Joshua,Michelle,Kenneth,Carol,Kevin,Amanda,Brian,Melissa,George,Deborah,' +
    'Timothy,Stephanie,María,José,Lucía,Javier,Carmen,Alejandro,Sofía,Mateo,Valentina,Diego,' +
    'Léa,Louis,Chloé,Hugo,Manon,Lucas,Camille,Jules,Zoë,Étienne,Lukas,Anna,Jonas,Lena,Felix,' +
    'Marie,Maximilian,Laura,Paul,Hannah,Wei,Mei,Hiroshi,Yuki,Min-jun,Seo-yeon,Arjun,Priya,' +
    'Rahul,Ananya,Oluwaseun,Chiamaka,Kwame,Amara,Tariq,Fatima,Omar,Leila,Łukasz,Agnieszka,Ivan,' +
    'Olga,Mikael,Ingrid,Sven,Astrid,Niamh,Siobhan,Mateus,Beatriz',
);

const LAST_NAMES = list(
  'Smith,Johnson,Williams,Brown,Jones,Garcia,Miller,Davis,Rodriguez,Martinez,Hernandez,Lopez,' +
    'Gonzalez,Wilson,Anderson,Thomas,Taylor,Moore,Jackson,Martin,Lee,Perez,Thompson,White,' +
    'Harris,Sanchez,Clark,Ramirez,Lewis,Robinson,Walker,Young,Allen,King,Wright,Scott,Torres,' +
    'Nguyen,Hill,Flores,Green,Adams,Nelson,Baker,Hall,Rivera,Campbell,Mitchell,Carter,Roberts,' +
    'Müller,Schmidt,Schneider,Fischer,Weber,Meyer,Wagner,Becker,Hoffmann,Schulz,Dubois,Moreau,' +
    'Laurent,Lefèvre,Girard,Bonnet,Fontaine,Rousseau,Mercier,Blanc,Rossi,Russo,Ferrari,' +
    'Esposito,Bianchi,Romano,Colombo,Ricci,Marino,Greco,Wang,Li,Zhang,Liu,Chen,Yang,Huang,Zhao,' +
    'Wu,Zhou,Sato,Suzuki,Takahashi,Tanaka,Watanabe,Kim,Park,Choi,Jung,Kang,Patel,Sharma,Singh,' +
    'Kumar,Gupta,Okafor,Adeyemi,Mensah,Haddad,Khalil,Kowalski,Nowak,Wiśniewski,Ivanov,Petrov,' +
    "Johansson,Andersson,Nilsson,Murphy,O'Brien,Kelly,Walsh,Silva,Santos,Oliveira,Costa," +
    'Pereira,Almeida,Fernandes',
);

/** Names that occur in about one row in several thousand. */
export const RARE_LAST_NAMES = [
  'Przybylski',
  'Vandersloot',
  'Zylberstein',
  'Okonkwo-Baptiste',
  'Thorvaldsen',
];
/** Companies that occur in about one row in twenty thousand. */
export const RARE_COMPANIES = ['Quillfeather Robotics', 'Xanthous Labs', 'Brackenridge Cartography'];

const COMPANY_HEADS = list(
  'Acme,Northwind,Globex,Initech,Umbrella,Stark,Wayne,Wonka,Tyrell,Cyberdyne,Blue Harbor,' +
    'Silver Peak,Redwood,Evergreen,Summit,Pinnacle,Bright Path,Ironclad,Cedar,Granite,Atlas,' +
    'Orion,Nimbus,Vertex,Horizon,Keystone,Lighthouse,Meridian,Oakridge,Polar,Quantum,Riverbend,' +
    'Sterling,Trident,Unity,Vanguard,Willow,Zenith,Falcon,Harbor,Maple,Nova,Pioneer,Sequoia,' +
    'Beacon,Copper,Delta',
);

const COMPANY_TAILS = list(
  'Logistics,Technologies,Tech,Systems,Consulting,Partners,Holdings,Labs,Analytics,Solutions,' +
    'Health,Foods,Energy,Capital,Media,Software,Networks,Manufacturing,Retail,Studios,Ventures,' +
    'Group,Industries,Robotics,Pharma',
);

const COMPANY_SUFFIXES = ['', '', '', ' Inc.', ' LLC', ' Ltd', ' GmbH', ' SA', ' BV', ' AB'];
const TLDS = ['com', 'com', 'com', 'io', 'co', 'net', 'de', 'fr', 'co.uk', 'com.br'];
export const PERSONAL_DOMAINS = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'outlook.com',
  'yahoo.com',
  'hotmail.com',
  'icloud.com',
  'proton.me',
  'fastmail.com',
  'gmx.de',
  'orange.fr',
  'web.de',
];
const LIFECYCLES = ['Lead', 'Prospect', 'Customer', 'Churned'];

const CITIES = list(
  'Berlin,London,Paris,Austin,Denver,Toronto,Lyon,Munich,Osaka,Seoul,Pune,Lagos,Nairobi,' +
    'Kraków,Dublin,Lisbon,Porto,Madrid,Milan,Zürich,Oslo,Malmö,São Paulo,Melbourne,Auckland',
);
export const INDUSTRIES = list(
  'Software,Logistics,Healthcare,Energy,Retail,Manufacturing,Financial services,Media,' +
    'Consulting,Biotech,Education,Telecommunications,Real estate,Hospitality,Agriculture',
);
const COMPANY_MAILBOXES = ['info', 'hello', 'contact', 'sales', 'office'];

export interface GeneratedRecord {
  title: string;
  email: string | null;
  phone: string | null;
  data: Record<string, unknown>;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] ?? missing('items[Math.floor(random() * items.length)]');
}

function digits(random: () => number, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += Math.floor(random() * 10);
  return out;
}

/** Lower-case ASCII for email local parts and domains: accents dropped, other signs removed. */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

function phone(random: () => number): string {
  switch (Math.floor(random() * 6)) {
    case 0:
      return `+1 ${pick(random, ['212', '415', '312', '646', '503', '617'])} 555 ${digits(random, 4)}`;
    case 1:
      return `(${digits(random, 3)}) 555-${digits(random, 4)}`;
    case 2:
      return `+44 20 ${digits(random, 4)} ${digits(random, 4)}`;
    case 3:
      return `+49 30 ${digits(random, 8)}`;
    case 4:
      return `+33 1 ${digits(random, 2)} ${digits(random, 2)} ${digits(random, 2)} ${digits(random, 2)}`;
    default:
      return `+55 11 9${digits(random, 4)}-${digits(random, 4)}`;
  }
}

function company(random: () => number): string {
  if (random() < 0.00005 * RARE_COMPANIES.length) return pick(random, RARE_COMPANIES);
  return `${pick(random, COMPANY_HEADS)} ${pick(random, COMPANY_TAILS)}${pick(random, COMPANY_SUFFIXES)}`;
}

/**
 * A company as a CRM's Companies folder holds it: a name no other company of `taken` has (a
 * city, then a number, set it apart from an earlier one), a general mailbox at its domain for
 * about half, a phone number for about 70 %, and an industry (`data.industry`) for about 80 %.
 * Adds the name to `taken`.
 */
export function generateCompany(random: () => number, taken: Set<string>): GeneratedRecord {
  let title = company(random);
  if (taken.has(title)) title = `${title} (${pick(random, CITIES)})`;
  for (let n = 2; taken.has(title); n++) title = `${title.replace(/ \d+$/, '')} ${n}`;
  taken.add(title);
  const domain = `${slug(title.replace(/ (Inc\.|LLC|Ltd|GmbH|SA|BV|AB)$/, ''))}.${pick(random, TLDS)}`;
  const data: Record<string, unknown> = {};
  if (random() < 0.8) data.industry = pick(random, INDUSTRIES);
  return {
    title,
    email: random() < 0.5 ? `${pick(random, COMPANY_MAILBOXES)}@${domain}` : null,
    phone: random() < 0.7 ? phone(random) : null,
    data,
  };
}

export function generateRecord(random: () => number): GeneratedRecord {
  const first = pick(random, FIRST_NAMES);
  const last =
    random() < 0.0002 * RARE_LAST_NAMES.length ? pick(random, RARE_LAST_NAMES) : pick(random, LAST_NAMES);
  const worksAt = random() < 0.85 ? company(random) : null;
  let email: string | null = null;
  const roll = random();
  if (roll < 0.55 && worksAt) {
    const domain = `${slug(worksAt.replace(/ (Inc\.|LLC|Ltd|GmbH|SA|BV|AB)$/, ''))}.${pick(random, TLDS)}`;
    const local = pick(random, [
      `${slug(first)}.${slug(last)}`,
      `${slug(first)[0]}${slug(last)}`,
      slug(first),
    ]);
    email = `${local}@${domain}`;
  } else if (roll < 0.9) {
    const suffix = random() < 0.4 ? digits(random, 2) : '';
    email = `${slug(first)}${pick(random, ['.', '_', ''])}${slug(last)}${suffix}@${pick(random, PERSONAL_DOMAINS)}`;
  }
  const data: Record<string, unknown> = {};
  if (worksAt) data.company = worksAt;
  if (random() < 0.8) data.lifecycle = pick(random, LIFECYCLES);
  return {
    title: `${first} ${last}`,
    email,
    phone: random() < 0.75 ? phone(random) : null,
    data,
  };
}

/**
 * The values the list-query series filters on, as a workspace's contacts hold them: most
 * records at an early lifecycle stage and fewer further on (the field's options weighted
 * 1, 1/2^1.2, 1/3^1.2 … in their order: of People's Lead, Prospect, Customer and Churned about
 * 53 %, 23 %, 14 % and 10 %), about 10 % without one; a `score` from 0 to 100 for about 85 %,
 * bunched around the middle (the sum of two uniform draws).
 */
export function listFieldValues(
  random: () => number,
  lifecycleOptions: readonly string[],
): { lifecycle?: string; score?: number } {
  const values: { lifecycle?: string; score?: number } = {};
  if (lifecycleOptions.length > 0 && random() < 0.9) {
    const weights = lifecycleOptions.map((_, i) => 1 / (i + 1) ** 1.2);
    let roll = random() * weights.reduce((a, b) => a + b, 0);
    let index = 0;
    while (index < weights.length - 1 && roll >= (weights[index] ?? missing('weights[index]')))
      roll -= weights[index++] ?? missing('weights[index++]');
    values.lifecycle = lifecycleOptions[index] ?? missing('lifecycleOptions[index]');
  }
  if (random() < 0.85) values.score = Math.round((random() + random()) * 50);
  return values;
}

/**
 * `record` with the list-query fields of a folder that has them: its lifecycle (drawn by
 * generateRecord from People's options, evenly) replaced by listFieldValues' skewed one from
 * `lifecycleOptions`, and a score when `score` is set. Seeded records and the records the
 * create scenarios send both go through it, so the newest records look like the rest.
 */
export function withListFields(
  record: GeneratedRecord,
  random: () => number,
  lifecycleOptions: readonly string[],
  score: boolean,
): GeneratedRecord {
  const values = listFieldValues(random, lifecycleOptions);
  const { lifecycle: _uniform, ...data } = record.data;
  if (values.lifecycle !== undefined) data.lifecycle = values.lifecycle;
  if (score && values.score !== undefined) data.score = values.score;
  return { ...record, data };
}

const DAY = 24 * 3600_000;

/**
 * When a record created at `createdAt` last changed, no later than `to`: about 40 % never
 * (`updated_at` = `created_at`), 2 % within the last day before `to`, 8 % within its last 30
 * days, the rest at any time since creation. Polling newest change first with `updatedSince`
 * a day back so finds a few percent of the records.
 */
export function updatedAtOf(random: () => number, createdAt: number, to: number): number {
  const roll = random();
  if (roll < 0.4) return createdAt;
  if (roll < 0.42) return Math.max(createdAt, to - Math.floor(random() * DAY));
  if (roll < 0.5) return Math.max(createdAt, to - Math.floor(random() * 30 * DAY));
  return createdAt + Math.floor(random() * (to - createdAt));
}

export interface SearchTerm {
  term: string;
  kind: 'common' | 'medium' | 'rare' | 'none';
}

/**
 * What people type in a CRM search box: name fragments, email domain parts, company
 * fragments and phone digits; some match a large share of the rows, some a handful, a few
 * nothing at all (typos). All are at least 3 characters, so the trigram index applies.
 */
export const SEARCH_TERMS: SearchTerm[] = [
  { term: 'son', kind: 'common' },
  { term: 'mar', kind: 'common' },
  { term: 'gmail', kind: 'common' },
  { term: 'tech', kind: 'common' },
  { term: 'john', kind: 'common' },
  { term: 'logistics', kind: 'common' },
  { term: '555', kind: 'common' },
  { term: 'garcia', kind: 'medium' },
  { term: 'nguyen', kind: 'medium' },
  { term: 'northwind', kind: 'medium' },
  { term: 'outlook.com', kind: 'medium' },
  { term: 'kowalski', kind: 'medium' },
  { term: 'sequoia health', kind: 'medium' },
  { term: 'przybylski', kind: 'rare' },
  { term: 'vandersloot', kind: 'rare' },
  { term: 'quillfeather', kind: 'rare' },
  { term: 'xanthous', kind: 'rare' },
  { term: 'thorvaldsen', kind: 'rare' },
  { term: 'zqxjv', kind: 'none' },
  { term: 'jonhsno', kind: 'none' },
];
