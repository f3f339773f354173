import type { Database } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import {
  addFolderField,
  createApiKey,
  createFolder,
  createWorkspace,
  missing,
  newId,
  searchSignature,
  searchTextOf,
} from '@crm/domain';
import type pg from 'pg';
import {
  createRandom,
  type GeneratedRecord,
  generateCompany,
  generateRecord,
  INDUSTRIES,
  PERSONAL_DOMAINS,
  slug,
  updatedAtOf,
  withListFields,
} from '../data.ts';
import { ownerOf, writeInBatches } from '../seed.ts';
import { notesText } from './notes.ts';

/**
 * The search benchmark's table (README, "Search shapes"): workspaces of very different sizes
 * in one `records` table, each with folders of its own, as a service that hosts many
 * companies holds them.
 *
 * - `big`, 30 % of the table: People, Companies and Leads, made over three years, a 1–2 KB
 *   TEXT field `notes` on every record, and since 35 days only work emails (no gmail, yahoo
 *   …: a term common in old records and absent from the newest month);
 * - `api`, 20 %: People filled through `POST /records/batch` within minutes, with notes; the
 *   first 60 % of the import from a source of personal emails, the rest work emails only;
 * - `mid`, 15 %: People over three years, short texts;
 * - twelve small workspaces (0.2 % to 2.5 % each) and eight of 2.4 %, with People and
 *   Companies.
 *
 * Every workspace but `api` is written by SQL in one timeline, so that the table's pages
 * interleave the workspaces in their order of creation as a shared table's do.
 */

type FolderKind = 'people' | 'companies' | 'leads';

export interface ShapeFolder {
  id: string;
  name: string;
  kind: FolderKind;
  fields: FieldDefinition[];
  /** Share of its workspace's records. */
  share: number;
  notes: boolean;
}

export interface ShapeWorkspace {
  key: string;
  workspaceId: string;
  userId: string;
  apiKey: string;
  folders: ShapeFolder[];
  /** Records it is given. */
  records: number;
  /** `sql`: seeded over three years; `api`: sent through POST /records/batch at the end. */
  filled: 'sql' | 'api';
  /** Records created this close to the end of the timeline get work emails only. */
  workEmailsWithinDays?: number;
}

interface FolderPlan {
  name: string;
  kind: FolderKind;
  share: number;
  notes: boolean;
}

interface WorkspacePlan {
  key: string;
  share: number;
  filled: 'sql' | 'api';
  folders: FolderPlan[];
  workEmailsWithinDays?: number;
}

const PEOPLE = (share: number, notes: boolean): FolderPlan => ({
  name: 'People',
  kind: 'people',
  share,
  notes,
});
const COMPANIES = (share: number, notes: boolean): FolderPlan => ({
  name: 'Companies',
  kind: 'companies',
  share,
  notes,
});

function plans(): WorkspacePlan[] {
  const small = [0.002, 0.003, 0.005, 0.007, 0.01, 0.012, 0.015, 0.017, 0.02, 0.02, 0.022, 0.025];
  const used = 0.3 + 0.2 + 0.15 + small.reduce((a, b) => a + b, 0);
  const rest = 8;
  return [
    {
      key: 'big',
      share: 0.3,
      filled: 'sql',
      workEmailsWithinDays: 35,
      folders: [
        PEOPLE(0.7, true),
        COMPANIES(0.08, true),
        { name: 'Leads', kind: 'leads', share: 0.22, notes: true },
      ],
    },
    { key: 'api', share: 0.2, filled: 'api', folders: [PEOPLE(1, true)] },
    { key: 'mid', share: 0.15, filled: 'sql', folders: [PEOPLE(1, false)] },
    ...small.map((share, i) => ({
      key: `small-${i + 1}`,
      share,
      filled: 'sql' as const,
      folders: [PEOPLE(0.85, false), COMPANIES(0.15, false)],
    })),
    ...Array.from({ length: rest }, (_, i) => ({
      key: `rest-${i + 1}`,
      share: (1 - used) / rest,
      filled: 'sql' as const,
      folders: [PEOPLE(0.85, false), COMPANIES(0.15, false)],
    })),
  ];
}

const LEAD_SOURCES = ['Web', 'Referral', 'Event', 'Partner', 'Cold call'];

function fieldsOf(kind: FolderKind, notes: boolean): Parameters<typeof createFolder>[2]['fields'] {
  const text = (key: string, label: string) => ({ key, label, type: 'TEXT' as const });
  const notesField = notes ? [text('notes', 'Notes')] : [];
  switch (kind) {
    case 'people':
      // The default folder's company and lifecycle are there already.
      return [
        { key: 'score', label: 'Score', type: 'NUMBER' },
        { key: 'since', label: 'Customer since', type: 'DATE' },
        { key: 'vip', label: 'VIP', type: 'BOOLEAN' },
        ...notesField,
      ];
    case 'companies':
      return [
        { key: 'industry', label: 'Industry', type: 'SELECT', options: INDUSTRIES },
        { key: 'website', label: 'Website', type: 'URL' },
        ...notesField,
      ];
    case 'leads':
      return [
        text('company', 'Company'),
        { key: 'source', label: 'Source', type: 'SELECT', options: LEAD_SOURCES },
        { key: 'score', label: 'Score', type: 'NUMBER' },
        ...notesField,
      ];
  }
}

/** Creates the workspaces, their folders and fields and an API key each, through the domain. */
export async function createShapeWorkspaces(db: Database, pool: pg.Pool, total: number) {
  const workspaces: ShapeWorkspace[] = [];
  for (const plan of plans()) {
    const { workspaceId, userId } = await createWorkspace(db, {
      name: `Shapes ${plan.key}`,
      owner: { email: `shapes-${plan.key}-${Date.now()}@example.com`, name: 'Bench Owner' },
      rateLimitPerMinute: 1_000_000_000,
    });
    const actor = ownerOf({ workspaceId, userId });
    const { secret } = await createApiKey(db, { workspaceId, userId, name: 'bench' });
    const people = await pool.query<{ id: string }>(
      'select id from folders where workspace_id = $1 order by created_at limit 1',
      [workspaceId],
    );
    const folders: ShapeFolder[] = [];
    for (const folder of plan.folders) {
      let id: string;
      if (folder.kind === 'people') {
        id = people.rows[0]?.id ?? missing('the default folder');
        for (const field of fieldsOf('people', folder.notes) ?? []) {
          await addFolderField(db, actor, { id, ...field });
        }
      } else {
        id = (
          await createFolder(db, actor, { name: folder.name, fields: fieldsOf(folder.kind, folder.notes) })
        ).id;
      }
      const row = await pool.query<{ fields: FieldDefinition[] }>(
        'select fields from folders where workspace_id = $1 and id = $2',
        [workspaceId, id],
      );
      folders.push({
        id,
        name: folder.name,
        kind: folder.kind,
        fields: row.rows[0]?.fields ?? missing('the folder'),
        share: folder.share,
        notes: folder.notes,
      });
    }
    workspaces.push({
      key: plan.key,
      workspaceId,
      userId,
      apiKey: secret,
      folders,
      records: Math.round(plan.share * total),
      filled: plan.filled,
      ...(plan.workEmailsWithinDays ? { workEmailsWithinDays: plan.workEmailsWithinDays } : {}),
    });
  }
  return workspaces;
}

const DAY = 86_400_000;

/** An email at a personal domain replaced by one at the person's company, or none. */
function workEmail(record: GeneratedRecord): string | null {
  const domain = record.email?.split('@')[1];
  if (!domain || !PERSONAL_DOMAINS.includes(domain)) return record.email;
  const company = record.data.company;
  if (typeof company !== 'string') return null;
  const local = record.email?.split('@')[0] ?? 'contact';
  return `${local}@${slug(company.replace(/ (Inc\.|LLC|Ltd|GmbH|SA|BV|AB)$/, ''))}.com`;
}

/** A record of a folder of that kind, with the folder's custom values. */
export function shapeRecord(
  random: () => number,
  folder: ShapeFolder,
  companies: Set<string>,
  createdAt: number,
  workEmailsOnly: boolean,
): GeneratedRecord {
  const lifecycle = folder.fields.find((f) => f.key === 'lifecycle')?.options ?? [];
  let record: GeneratedRecord;
  switch (folder.kind) {
    case 'people': {
      record = withListFields(generateRecord(random), random, lifecycle, true);
      const since = new Date(createdAt - Math.floor(random() * 700) * DAY).toISOString().slice(0, 10);
      if (random() < 0.6) record.data.since = since;
      if (random() < 0.5) record.data.vip = random() < 0.1;
      break;
    }
    case 'companies': {
      record = generateCompany(random, companies);
      record.data.website = `https://www.${slug(record.title)}.com`;
      break;
    }
    case 'leads': {
      const person = generateRecord(random);
      const { lifecycle: _none, ...data } = person.data;
      record = {
        ...person,
        data: { ...data, source: LEAD_SOURCES[Math.floor(random() * LEAD_SOURCES.length)] },
      };
      if (random() < 0.7) record.data.score = Math.round((random() + random()) * 50);
      break;
    }
  }
  if (folder.notes) record.data.notes = notesText(random);
  if (workEmailsOnly) record.email = workEmail(record);
  return record;
}

const INSERT = `
  insert into records (workspace_id, id, folder_id, title, email, phone, data, search_text, search_signature, created_at, updated_at)
  select t.workspace_id, t.id, t.folder_id, t.title, t.email, t.phone, t.data, lower(t.search_text), t.search_signature,
         t.created_at, t.updated_at
    from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[],
                $8::text[], $9::bytea[], $10::timestamptz[], $11::timestamptz[])
      as t(workspace_id, id, folder_id, title, email, phone, data, search_text, search_signature, created_at, updated_at)`;

/**
 * Seeds every `sql` workspace in one timeline over [from, to): record `i` of the `n` is made at
 * `from + i / n` of the span, in a workspace drawn by its size and a folder by its share, so
 * the workspaces interleave in the table's pages (`writeInBatches`).
 */
export async function seedTimeline(
  pool: pg.Pool,
  workspaces: ShapeWorkspace[],
  from: Date,
  to: Date,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  const random = createRandom(41);
  const seeded = workspaces.filter((w) => w.filled === 'sql');
  const total = seeded.reduce((sum, w) => sum + w.records, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of seeded) {
    sum += w.records / total;
    cumulative.push(sum);
  }
  const companies = new Map(seeded.map((w) => [w.workspaceId, new Set<string>()]));
  const span = to.getTime() - from.getTime();
  const BATCH = 5_000;
  let done = 0;
  const build = (start: number, size: number) => {
    const columns = Array.from({ length: 11 }, () => [] as (string | Buffer | null)[]);
    for (let i = start; i < start + size; i++) {
      const roll = random();
      const index = cumulative.findIndex((c) => roll < c);
      const w = seeded[index === -1 ? seeded.length - 1 : index] ?? missing('a workspace');
      const folderRoll = random();
      let shares = 0;
      const folder =
        w.folders.find((f) => {
          shares += f.share;
          return folderRoll < shares;
        }) ??
        w.folders[0] ??
        missing('a folder');
      const createdAt = from.getTime() + Math.floor(((i + random()) / total) * span);
      const workOnly =
        w.workEmailsWithinDays !== undefined && createdAt > to.getTime() - w.workEmailsWithinDays * DAY;
      const record = shapeRecord(
        random,
        folder,
        companies.get(w.workspaceId) ?? missing('companies'),
        createdAt,
        workOnly,
      );
      const searchText = searchTextOf(record, folder.fields);
      const values = [
        w.workspaceId,
        newId('record'),
        folder.id,
        record.title,
        record.email,
        record.phone,
        JSON.stringify(record.data),
        searchText,
        searchSignature(searchText),
        new Date(createdAt).toISOString(),
        new Date(updatedAtOf(random, createdAt, to.getTime())).toISOString(),
      ];
      for (const [c, v] of values.entries()) columns[c]?.push(v);
    }
    return columns;
  };
  await writeInBatches(pool, total, BATCH, async (client, start, size) => {
    await client.query(INSERT, build(start, size));
    done += size;
    onProgress(done, total);
  });
}
