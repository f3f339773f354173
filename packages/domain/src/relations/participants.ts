import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { MAX_LINK_LABEL } from '../folders/schemas.ts';
import { recordColumnsOf, recordRowFromDriver, serializeRecord } from '../record-model/serialize.ts';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { asDatabase } from '../shared/batch.ts';
import { encodeCursor } from '../shared/cursor.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import { missing } from '../shared/missing.ts';
import { type PagingInput, pageOf, pagingInput, resolvePaging } from '../shared/paging.ts';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';
import { linkedRecordOutput } from './schemas.ts';

/**
 * The records a deal or a task involves (docs/api.md, "Relations"): links with an optional
 * free label ("Decision maker", "Champion"), one of which is the deal's or task's `recordId`,
 * its primary record. Deals and tasks have no fields of their own to define labels on, so a
 * label is any text of up to 100 characters.
 */
export type ParticipantKind = 'deal' | 'task';

const TABLES = {
  deal: { links: sql.raw('deal_links'), owner: sql.raw('deal_id'), name: 'Deal' },
  task: { links: sql.raw('task_links'), owner: sql.raw('task_id'), name: 'Task' },
} as const;

export const participantInput = (kind: ParticipantKind) =>
  z.strictObject({
    id: idParam(`${TABLES[kind].name} id`),
    to: z
      .string()
      .max(200)
      .meta({ description: 'The record to link (`rec_…`), a live record of the workspace' }),
    label: nonBlankText(MAX_LINK_LABEL)
      .nullable()
      .optional()
      .meta({ description: 'What the record is to it ("Decision maker"); linking again changes it' }),
  });

/** A deal's or task's id and the paging of its list of links. */
export const pagedIdInput = (description: string) =>
  z.strictObject({ id: idParam(description), ...pagingInput });

export const participantPathInput = (kind: ParticipantKind) =>
  z.strictObject({ id: idParam(`${TABLES[kind].name} id`), to: idParam('Id of the linked record') });

export const participantOutput = z
  .object({
    from: z.string().meta({ description: 'The deal or task', example: 'deal_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    to: z.string().meta({ description: 'The linked record' }),
    label: z.string().nullable(),
    primary: z.boolean().meta({ description: 'True for the record its `recordId` names' }),
    createdAt: instantOutput(),
  })
  .meta({ id: 'ParticipantLink' });

export type ParticipantOutput = z.infer<typeof participantOutput>;

export const participantRecordOutput = linkedRecordOutput
  .extend({
    link: z.object({
      label: z.string().nullable(),
      primary: z.boolean(),
      createdAt: instantOutput(),
    }),
  })
  .meta({ id: 'ParticipantRecord' });

/** The deals and tasks tables, whose rows link records. */
const OWNERS = { deal: schema.deals, task: schema.tasks } as const;

/** The deal or task, locked, with its primary record: 404 when it is not of this workspace. */
async function lockOwner(tx: Executor, actor: Actor, kind: ParticipantKind, id: string) {
  const owner = await loadInWorkspace(tx, OWNERS[kind], actor.workspaceId, id, {
    kind,
    name: TABLES[kind].name,
    lock: 'update',
  });
  return { recordId: owner.recordId };
}

/** A live record of the workspace, share-locked (so it stays out of Trash): a 400 naming `to` otherwise. */
async function assertLinkable(tx: Executor, actor: Actor, to: string): Promise<void> {
  const rows = isId('record', to)
    ? // By the primary key alone, whether it is in Trash read on the row (see loadInWorkspace).
      (
        await tx.execute<{ folder_id: string; live: boolean }>(sql`
        select folder_id, trashed_at is null as live from records
         where workspace_id = ${actor.workspaceId} and id = ${to} for share`)
      ).rows
    : [];
  // A key limited to folders links only records of those (docs/api.md, "Scopes").
  if (!rows[0]?.live || !reachesFolder(actor, rows[0].folder_id)) {
    throw invalid('to', `${to} is not a live record of this workspace`);
  }
}

/**
 * Links a record to a deal or task: 201 with the new link, or 200 with the one that was there
 * (its label changed when another is given).
 */
async function linkParticipant(
  db: Database,
  actor: Actor,
  kind: ParticipantKind,
  input: { id: string; to: string; label?: string | null | undefined },
): Promise<{ created: boolean; data: ParticipantOutput }> {
  return db.transaction(async (tx) => {
    const owner = await lockOwner(tx, actor, kind, input.id);
    await assertLinkable(tx, actor, input.to);
    const t = TABLES[kind];
    const label = input.label ?? null;
    const { rows } = await tx.execute<{ label: string | null; created_at: string; inserted: boolean }>(sql`
      insert into ${t.links} (workspace_id, ${t.owner}, record_id, label)
      values (${actor.workspaceId}, ${input.id}, ${input.to}, ${label})
      on conflict (workspace_id, ${t.owner}, record_id) do update
        set label = case when ${input.label === undefined} then ${t.links}.label else excluded.label end
      returning label, created_at, (xmax = 0) as inserted`);
    const row = rows[0] ?? missing('rows[0]');
    return {
      created: row.inserted,
      data: {
        from: input.id,
        to: input.to,
        label: row.label,
        primary: owner.recordId === input.to,
        createdAt: new Date(row.created_at).toISOString(),
      },
    };
  });
}

/**
 * Removes a record from a deal's or task's links; 404 when it is not linked. Removing the
 * primary record is done by the caller, which clears `recordId` with its event.
 */
async function unlinkParticipant(
  tx: Executor,
  actor: Actor,
  kind: ParticipantKind,
  input: { id: string; to: string },
): Promise<{ from: string; to: string; deleted: true }> {
  const t = TABLES[kind];
  const { rows } = await tx.execute(sql`
    delete from ${t.links}
     where workspace_id = ${actor.workspaceId} and ${t.owner} = ${input.id} and record_id = ${input.to}
    returning record_id`);
  if (rows.length === 0) throw notFound('Link', `${input.id} → ${input.to}`);
  return { from: input.id, to: input.to, deleted: true };
}

/** The primary record of a deal or task before an unlink: the caller clears it when it goes. */
async function primaryOf(tx: Executor, actor: Actor, kind: ParticipantKind, id: string) {
  return (await lockOwner(tx, actor, kind, id)).recordId;
}

/** A new primary record of a deal or task is one of its links too (kept when the primary changes again). */
export async function linkPrimary(
  tx: Executor,
  actor: Actor,
  kind: ParticipantKind,
  id: string,
  recordId: string | null,
): Promise<void> {
  if (recordId === null) return;
  const t = TABLES[kind];
  await tx.execute(sql`
    insert into ${t.links} (workspace_id, ${t.owner}, record_id)
    values (${actor.workspaceId}, ${id}, ${recordId})
    on conflict do nothing`);
}

/**
 * `GET /deals/{id}/links`, `GET /tasks/{id}/links`: the live records linked, oldest link
 * first (keyset on the link's time and the record id), each with its link.
 */
async function findParticipants(
  db: Database,
  actor: Actor,
  kind: ParticipantKind,
  input: PagingInput & { id: string },
) {
  const t = TABLES[kind];
  const paging = resolvePaging(input);
  const primary = await readOwner(db, actor, kind, input.id);
  const after =
    paging.kind === 'cursor'
      ? sql`and (l.created_at, l.record_id) > (${paging.after.createdAt}::timestamptz, ${paging.after.id})`
      : sql``;
  const { rows } = await db.execute(sql`
    select ${recordColumnsOf('r')}, l.label as link_label, l.created_at as link_created_at
      from ${t.links} l
      join records r on r.workspace_id = ${actor.workspaceId} and r.id = l.record_id and r.trashed_at is null
     where l.workspace_id = ${actor.workspaceId} and l.${t.owner} = ${input.id} ${after}
       ${actor.folderIds === null ? sql`` : sql`and r.folder_id in ${[...actor.folderIds]}`}
     order by l.created_at, l.record_id
     limit ${paging.pageSize + 1} offset ${paging.kind === 'offset' ? paging.offset : 0}`);
  return pageOf(
    rows,
    paging,
    (raw) => ({
      ...serializeRecord(recordRowFromDriver(raw)),
      link: {
        label: raw.link_label as string | null,
        primary: primary === raw.id,
        createdAt: new Date(raw.link_created_at as string).toISOString(),
      },
    }),
    (raw) =>
      encodeCursor({
        createdAt: new Date(raw.link_created_at as string).toISOString(),
        id: raw.id as string,
      }),
  );
}

async function readOwner(db: Executor, actor: Actor, kind: ParticipantKind, id: string) {
  const owner = await loadInWorkspace(db, OWNERS[kind], actor.workspaceId, id, {
    kind,
    name: TABLES[kind].name,
  });
  return owner.recordId;
}

/** The condition "linked to this record" on deals or tasks (`GET /records/{id}/deals`, `…/tasks`). */
export function linkedToRecord(kind: ParticipantKind, actor: Actor, recordId: string) {
  const t = TABLES[kind];
  const table = kind === 'deal' ? schema.deals : schema.tasks;
  return sql`${table.id} in (select ${t.owner} from ${t.links}
     where workspace_id = ${actor.workspaceId} and record_id = ${recordId})`;
}

/**
 * The services of one kind's links: link, unlink and list. Unlinking the primary record first
 * clears the deal's or task's `recordId` through `clearPrimary` (its own update, with its event).
 */
export function participantLinks(
  kind: ParticipantKind,
  clearPrimary: (db: Database, actor: Actor, id: string) => Promise<unknown>,
) {
  return {
    link: (db: Database, actor: Actor, input: z.output<ReturnType<typeof participantInput>>) =>
      linkParticipant(db, actor, kind, input),
    unlink: (db: Database, actor: Actor, input: z.output<ReturnType<typeof participantPathInput>>) =>
      db.transaction(async (tx) => {
        if ((await primaryOf(tx, actor, kind, input.id)) === input.to) {
          await clearPrimary(asDatabase(tx), actor, input.id);
        }
        return unlinkParticipant(tx, actor, kind, input);
      }),
    find: (db: Database, actor: Actor, input: PagingInput & { id: string }) =>
      findParticipants(db, actor, kind, input),
  };
}

/** How a deal or task links the record a list of them was asked for (`GET /records/{id}/deals`, `…/tasks`). */
export const linkOfOwnerOutput = z
  .object({
    label: z.string().nullable(),
    primary: z.boolean().meta({ description: 'True when the record is its `recordId`' }),
    createdAt: instantOutput(),
  })
  .meta({ description: 'The link to the record the list was asked for' });

/**
 * Adds to each deal or task of a page its link to `recordId`, read in one statement for the
 * page. Every item of such a page is linked (the list is made of what links the record).
 */
export async function withLinkTo<T extends { id: string; recordId: string | null }, M>(
  db: Executor,
  actor: Actor,
  kind: ParticipantKind,
  recordId: string,
  page: { data: T[]; meta: M },
): Promise<{ data: (T & { link: z.infer<typeof linkOfOwnerOutput> })[]; meta: M }> {
  const t = TABLES[kind];
  const ids = page.data.map((item) => item.id);
  const links = new Map<string, { label: string | null; created_at: string }>();
  if (ids.length > 0) {
    const { rows } = await db.execute<{ owner: string; label: string | null; created_at: string }>(sql`
      select ${t.owner} as owner, label, created_at from ${t.links}
       where workspace_id = ${actor.workspaceId} and record_id = ${recordId} and ${t.owner} in ${ids}`);
    for (const row of rows) links.set(row.owner, row);
  }
  return {
    ...page,
    data: page.data.map((item) => {
      const link = links.get(item.id);
      return {
        ...item,
        link: {
          label: link?.label ?? null,
          primary: item.recordId === recordId,
          createdAt: new Date(link?.created_at ?? 0).toISOString(),
        },
      };
    }),
  };
}
