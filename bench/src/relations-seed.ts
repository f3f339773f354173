/**
 * The records and links of the relations series (step 9, README): a Companies folder, three
 * RELATION fields on People, and about two links per person.
 *
 * Writing a ONE value into a million existing rows costs an UPDATE of each (every index of
 * records gets a new entry, the trigram index included): over two minutes on 2 cores, and as
 * many dead rows. So the plan is made before the top-up to 1,000,000 records (step 7), and
 * the records that top-up inserts already hold their `account` and `manager` in `data`: ids
 * of companies inserted later, and of people inserted before them. Step 9 then makes the
 * fields (through `@crm/domain`, as a user would), inserts the companies, and inserts the
 * links: those of the ONE values read from `data` (so the two agree by construction), and
 * `previousCompanies` links (MANY on both sides) up to the links wanted.
 */
import type { Database } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { addFolderField, createFolder, missing, newId, searchTextOf } from '@crm/domain';
import type pg from 'pg';
import { createRandom, generateCompany, updatedAtOf } from './data.ts';
import { type Fixture, insertRecords, ownerOf, type RecordColumns } from './seed.ts';
import { round } from './time.ts';

/** People linked to a company, on average, per company: a full page of related records for a typical one. */
export const PEOPLE_PER_COMPANY = 90;
/** Share of the top-up's people that get a company (`account`). */
const ACCOUNT_SHARE = 0.9;
/** Reports per manager in a company's hierarchy. */
const REPORTS_PER_MANAGER = 7;
/** The spread of company sizes: people per company are log-normal with this σ. */
const SIZE_SIGMA = 0.9;
/**
 * Most people a company gets: MAX_LINKS_PER_FIELD (10,000, @crm/domain) less room for the
 * batch-link scenario's links.
 */
const MAX_COMPANY_PEOPLE = 8_000;
export const TIERS = ['Gold', 'Silver', 'Bronze'] as const;

/** Draws from a log-normal weight table: an index, as often as its weight. */
function weightedPicker(random: () => number, count: number): () => number {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    // Box-Muller: a standard normal draw.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    total += Math.exp(SIZE_SIGMA * normal);
    cumulative[i] = total;
  }
  return () => {
    const roll = random() * total;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? missing('cumulative[mid]')) <= roll) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

/**
 * Who works where and for whom, decided as the top-up generates its people: each person
 * gets a company (`account`) with probability ACCOUNT_SHARE, drawn by the company's weight
 * (log-normal sizes, a few past a thousand people at 1,000,000 records), and the manager its
 * place in the company's hierarchy gives it: the company's first person has none, the next
 * REPORTS_PER_MANAGER report to it, and so on (`manager`, a person inserted earlier).
 */
export interface RelationPlan {
  companyIds: string[];
  /** The people of each company, in the order they were generated. */
  members: string[][];
  /** A company index drawn by weight. */
  pickCompany(): number;
  /** SeedOptions.relate: the ONE values of a person of the top-up. */
  relate(id: string): Record<string, string>;
}

export function planRelations(people: number, seed: number): RelationPlan {
  const random = createRandom(seed);
  const count = Math.max(1, Math.round((people * ACCOUNT_SHARE) / PEOPLE_PER_COMPANY));
  const companyIds = Array.from({ length: count }, () => newId('record'));
  const members: string[][] = companyIds.map(() => []);
  const pick = weightedPicker(random, count);
  const pickCompany = () => {
    for (;;) {
      const c = pick();
      if ((members[c] ?? missing('members[c]')).length < MAX_COMPANY_PEOPLE || count === 1) return c;
    }
  };
  return {
    companyIds,
    members,
    pickCompany,
    relate(id): Record<string, string> {
      if (random() >= ACCOUNT_SHARE) return {};
      const c = pickCompany();
      const team = members[c] ?? missing('members[c]');
      const rank = team.length;
      team.push(id);
      const account = companyIds[c] ?? missing('companyIds[c]');
      return rank === 0
        ? { account }
        : {
            account,
            manager:
              team[Math.floor((rank - 1) / REPORTS_PER_MANAGER)] ??
              missing('team[Math.floor((rank - 1) / REPORTS_PER_MANAGER)]'),
          };
    },
  };
}

/** The folders and RELATION fields of the series, as `@crm/domain` made them. */
export interface RelationFolders {
  peopleFolderId: string;
  companiesFolderId: string;
  companyFields: FieldDefinition[];
  /** relation id of People's `account`, `manager` and `previousCompanies`. */
  relationIds: { account: string; manager: string; previousCompanies: string };
}

/**
 * A Companies folder (`tier`, SELECT Gold/Silver/Bronze; `industry`, TEXT) through
 * createFolder, and People's RELATION fields through addFolderField, as a user adds them:
 * `account` ONE → Companies (inverse `people`, MANY), `manager` ONE → People (inverse
 * `reports`, MANY), `previousCompanies` MANY → Companies (inverse `alumni`, MANY).
 */
export async function createRelationFolders(
  db: Database,
  pool: pg.Pool,
  fixture: Fixture,
): Promise<RelationFolders> {
  const owner = ownerOf(fixture);
  const companies = await createFolder(db, owner, {
    name: 'Companies',
    fields: [
      { key: 'tier', label: 'Tier', type: 'SELECT', options: [...TIERS] },
      { key: 'industry', label: 'Industry', type: 'TEXT' },
    ],
  });
  const people = fixture.folderId;
  const relation = (key: string, label: string, folderId: string, cardinality: 'ONE' | 'MANY') => ({
    id: people,
    key,
    label,
    type: 'RELATION' as const,
    relation: { folderId, cardinality },
  });
  await addFolderField(db, owner, {
    ...relation('account', 'Account', companies.id, 'ONE'),
    inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
  });
  await addFolderField(db, owner, {
    ...relation('manager', 'Manager', people, 'ONE'),
    inverse: { key: 'reports', label: 'Reports', cardinality: 'MANY' },
  });
  await addFolderField(db, owner, {
    ...relation('previousCompanies', 'Previous companies', companies.id, 'MANY'),
    inverse: { key: 'alumni', label: 'Alumni', cardinality: 'MANY' },
  });
  const { rows } = await pool.query<{ id: string; fields: FieldDefinition[] }>(
    'select id, fields from folders where workspace_id = $1 and id = any($2)',
    [fixture.workspaceId, [people, companies.id]],
  );
  const fieldsOf = (id: string) =>
    (rows.find((r) => r.id === id) ?? missing('rows.find((r) => r.id === id)')).fields;
  const relationId = (key: string) => {
    const field = fieldsOf(people).find((f) => f.key === key);
    if (!field?.relation) throw new Error(`People has no RELATION field ${key}`);
    return field.relation.id;
  };
  return {
    peopleFolderId: people,
    companiesFolderId: companies.id,
    companyFields: fieldsOf(companies.id),
    relationIds: {
      account: relationId('account'),
      manager: relationId('manager'),
      previousCompanies: relationId('previousCompanies'),
    },
  };
}

/** What was seeded, and the records the series and the batch-link scenario use. */
export interface SeededRelations {
  people: number;
  companies: number;
  links: { account: number; manager: number; previousCompanies: number; total: number };
  /** People linked through `account`, per company index. */
  companySizes: number[];
  /** The companies' tiers (index as companyIds), null for none. */
  tiers: (string | null)[];
  /** Live People records without `account`, without `manager`, and with both (ids by id order). */
  withoutAccount: string[];
  withoutManager: string[];
  settled: string[];
  /** The previousCompanies links seeded, as `<person id> <company index>`; batch-link adds those it sends. */
  previousPairs: Set<string>;
  /** Seconds each part took: companies, ONE links, previousCompanies, ANALYZE and VACUUM. */
  seconds: Record<'companies' | 'oneLinks' | 'previousCompanies' | 'analyze', number>;
}

const LINK_BATCH = 20_000;

const INSERT_LINKS = `
  insert into record_links (workspace_id, relation_id, from_id, to_id, created_at)
  select $1, $2, t.from_id, t.to_id, t.created_at
  from unnest($3::text[], $4::text[], $5::timestamptz[]) as t(from_id, to_id, created_at)`;

/**
 * The links of the ONE values in People's `data` (the key `key`), read in one statement: each
 * person's link to the record its value names, made when the person last changed.
 */
const INSERT_ONE_LINKS = (key: string) => `
  insert into record_links (workspace_id, relation_id, from_id, to_id, created_at)
  select workspace_id, $2, id, data ->> '${key}', updated_at
  from records
  where workspace_id = $1 and folder_id = $3 and trashed_at is null and data ? '${key}'`;

/**
 * Inserts the plan's companies (SQL, ids from the plan, search_text by `searchTextOf`, a tier
 * for most: the larger the company, the likelier Gold) and the links: from People's ONE values
 * (`account`, `manager`), then `previousCompanies` (each person 0 to 6 earlier companies, drawn
 * by weight, never the current one, topped up at random) until `links` in all. Then ANALYZE, and
 * VACUUM of record_links.
 */
export async function seedRelations(
  pool: pg.Pool,
  options: {
    fixture: Fixture;
    folders: RelationFolders;
    plan: RelationPlan;
    /** Links wanted in all (ONE and MANY). */
    links: number;
    seed: number;
    from: Date;
    to: Date;
  },
): Promise<SeededRelations> {
  const { fixture, folders, plan } = options;
  const ws = fixture.workspaceId;
  let lap = performance.now();
  const seconds = { companies: 0, oneLinks: 0, previousCompanies: 0, analyze: 0 };
  const took = (part: keyof typeof seconds) => {
    const now = performance.now();
    seconds[part] = round(seconds[part] + (now - lap) / 1000);
    lap = now;
  };
  const random = createRandom(options.seed);
  const companySizes = plan.members.map((m) => m.length);

  // Tiers: the largest tenth of the companies are mostly Gold or Silver, the others mostly Bronze.
  const bySize = companySizes.map((size, i) => ({ size, i })).sort((a, b) => b.size - a.size);
  const large = new Set(bySize.slice(0, Math.ceil(bySize.length / 10)).map((c) => c.i));
  const tierOf = (c: number): string | null => {
    const roll = random();
    const [gold, silver, bronze] = large.has(c) ? [0.45, 0.8, 0.95] : [0.06, 0.3, 0.75];
    return roll < gold ? 'Gold' : roll < silver ? 'Silver' : roll < bronze ? 'Bronze' : null;
  };
  const tiers = plan.companyIds.map((_, c) => tierOf(c));
  const taken = new Set<string>();
  const span = options.to.getTime() - options.from.getTime();
  for (let start = 0; start < plan.companyIds.length; start += 5_000) {
    const c: RecordColumns = {
      id: [],
      title: [],
      email: [],
      phone: [],
      data: [],
      searchText: [],
      createdAt: [],
      updatedAt: [],
    };
    for (let i = start; i < Math.min(start + 5_000, plan.companyIds.length); i++) {
      const company = generateCompany(random, taken);
      if (tiers[i]) company.data.tier = tiers[i];
      const createdAt = options.from.getTime() + Math.floor(random() * span);
      c.id.push(plan.companyIds[i] ?? missing('plan.companyIds[i]'));
      c.title.push(company.title);
      c.email.push(company.email);
      c.phone.push(company.phone);
      c.data.push(JSON.stringify(company.data));
      c.searchText.push(searchTextOf(company, folders.companyFields));
      c.createdAt.push(new Date(createdAt).toISOString());
      c.updatedAt.push(new Date(updatedAtOf(random, createdAt, options.to.getTime())).toISOString());
    }
    await insertRecords(pool, ws, folders.companiesFolderId, c);
  }
  took('companies');

  const { relationIds } = folders;
  const one = async (key: 'account' | 'manager') =>
    (await pool.query(INSERT_ONE_LINKS(key), [ws, relationIds[key], folders.peopleFolderId])).rowCount ?? 0;
  const account = await one('account');
  const manager = await one('manager');
  took('oneLinks');

  // Every live person, with what it holds: previousCompanies go to anyone, never to the current company.
  const { rows } = await pool.query<[string, string | null, boolean]>({
    text: `select id, data ->> 'account', data ? 'manager' from records
            where workspace_id = $1 and folder_id = $2 and trashed_at is null order by id`,
    values: [ws, folders.peopleFolderId],
    rowMode: 'array',
  });
  const companyIndex = new Map(plan.companyIds.map((id, i) => [id, i]));
  const withoutAccount: string[] = [];
  const withoutManager: string[] = [];
  const settled: string[] = [];
  for (const [id, accountId, hasManager] of rows) {
    if (accountId === null) withoutAccount.push(id);
    if (!hasManager) withoutManager.push(id);
    if (accountId !== null && hasManager) settled.push(id);
  }
  // Earlier companies per person: geometric, so most have none or one and a few several.
  const mean = Math.max(0, options.links - account - manager) / Math.max(1, rows.length);
  const keep = mean / (1 + mean);
  let previousCompanies = 0;
  const previousPairs = new Set<string>();
  const to = options.to.getTime();
  let batch = { from: [] as string[], to: [] as string[], at: [] as string[] };
  const flush = async () => {
    if (batch.from.length === 0) return;
    await pool.query(INSERT_LINKS, [ws, relationIds.previousCompanies, batch.from, batch.to, batch.at]);
    previousCompanies += batch.from.length;
    batch = { from: [], to: [], at: [] };
  };
  const currentOf = (accountId: string | null) =>
    accountId === null ? -1 : (companyIndex.get(accountId) ?? -1);
  const add = (id: string, c: number) => {
    previousPairs.add(`${id} ${c}`);
    batch.from.push(id);
    batch.to.push(plan.companyIds[c] ?? missing('plan.companyIds[c]'));
    batch.at.push(new Date(to - Math.floor(random() * span)).toISOString());
  };
  for (const [id, accountId] of rows) {
    const current = currentOf(accountId);
    const chosen = new Set<number>();
    while (chosen.size < 6 && chosen.size < plan.companyIds.length - 1 && random() < keep) {
      const c = plan.pickCompany();
      if (c !== current) chosen.add(c);
    }
    for (const c of chosen) add(id, c);
    if (batch.from.length >= LINK_BATCH) await flush();
  }
  // The draws above fall short of `links` by the companies drawn twice and the cap of 6: top
  // up with one more earlier company for people drawn at random, until the total is reached.
  const wanted = options.links - account - manager;
  for (let tries = 0; previousCompanies + batch.from.length < wanted && tries < wanted; tries++) {
    const [id, accountId] =
      rows[Math.floor(random() * rows.length)] ?? missing('rows[Math.floor(random() * rows.length)]');
    const c = plan.pickCompany();
    if (c === currentOf(accountId) || previousPairs.has(`${id} ${c}`)) continue;
    add(id, c);
    if (batch.from.length >= LINK_BATCH) await flush();
  }
  await flush();
  took('previousCompanies');
  await pool.query('analyze records');
  // VACUUM too: it marks the new pages all-visible, as autovacuum would have by then, so the
  // index-only scans of record_links (counting a side's links) do not read the table.
  await pool.query('vacuum (analyze) record_links');
  took('analyze');
  return {
    people: rows.length,
    companies: plan.companyIds.length,
    links: { account, manager, previousCompanies, total: account + manager + previousCompanies },
    companySizes,
    tiers,
    withoutAccount,
    withoutManager,
    settled,
    previousPairs,
    seconds,
  };
}
