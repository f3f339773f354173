import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Database } from '@crm/db';
import {
  createExportJob,
  createExportJobInput,
  createImportJob,
  createImportJobInput,
  getJob,
  type JobOutput,
  readJobFile,
  receiveJobFile,
  runJob,
} from '@crm/domain';
import { z } from 'zod';
import { assertWorkspace, cliActor } from './commands.ts';

/** Where progress goes: a line now and then, on stderr (stdout keeps the JSON answer). */
export type Progress = (line: string) => void;

/**
 * `import`: a file into a folder through an import job (docs/jobs.md), run here, a chunk at a
 * time, with its progress on stderr; a worker of the service may take part (each chunk is
 * applied once whoever runs it). Answers the job as it ended; `refused` rows make the exit
 * status 2.
 */
export async function importFile(
  db: Database,
  options: Record<string, string | undefined>,
  progress: Progress,
) {
  const { input, actor } = await jobCommand(db, options, {
    file: z.string().min(1),
    map: z.string().min(1),
    'upsert-by': z.string().optional(),
    'dry-run': z.string().optional(),
    quiet: z.string().optional(),
  });
  const format =
    input.format ?? (input.file.endsWith('.ndjson') || input.file.endsWith('.jsonl') ? 'ndjson' : 'csv');
  const body = createImportJobInput.parse({
    folderId: input.folder,
    format,
    mapping: mappingOf(input.map),
    ...(input['upsert-by'] ? { upsertBy: input['upsert-by'] } : {}),
    ...(input['dry-run'] === 'true' ? { dryRun: true } : {}),
    ...(input.quiet === 'true' ? { notify: false } : {}),
  });
  const job = await createImportJob(db, actor, body);
  await receiveJobFile(db, actor, {
    id: job.id,
    file: {
      mediaType: format === 'csv' ? 'text/csv' : 'application/x-ndjson',
      body: createReadStream(input.file, { highWaterMark: 1024 * 1024 }),
    },
  });
  return runHere(db, actor.workspaceId, job.id, progress, async () => getJob(db, actor, { id: job.id }));
}

/** `export`: a folder's records (with `--q`, `--sort`) to a file through an export job, run here. */
export async function exportFile(
  db: Database,
  options: Record<string, string | undefined>,
  progress: Progress,
) {
  const { input, actor } = await jobCommand(db, options, {
    out: z.string().min(1),
    q: z.string().optional(),
    sort: z.string().optional(),
  });
  const job = await createExportJob(
    db,
    actor,
    createExportJobInput.parse({
      folderId: input.folder,
      format: input.format ?? (input.out.endsWith('.ndjson') ? 'ndjson' : 'csv'),
      ...(input.q ? { q: input.q } : {}),
      ...(input.sort ? { sort: input.sort } : {}),
    }),
  );
  const ended = await runHere(db, actor.workspaceId, job.id, progress, async () =>
    getJob(db, actor, { id: job.id }),
  );
  if (ended.status !== 'SUCCEEDED') return ended;
  const file = await readJobFile(db, actor, { id: job.id });
  const out = createWriteStream(input.out);
  for await (const chunk of file.body) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { ...ended, writtenTo: input.out };
}

/**
 * The options of a job command (`--workspace`, `--folder`, `--format` and the command's own
 * `shape`), checked, and the workspace's owner it acts as.
 */
async function jobCommand<Shape extends z.ZodRawShape>(
  db: Database,
  options: Record<string, string | undefined>,
  shape: Shape,
) {
  const input = jobOptions.extend(shape).parse(options);
  const { workspace } = input as z.output<typeof jobOptions>;
  await assertWorkspace(db, workspace);
  return { input, actor: await cliActor(db, workspace) };
}

const jobOptions = z.object({
  workspace: z.string().min(1),
  folder: z.string().min(1),
  format: z.enum(['csv', 'ndjson']).optional(),
});

/** `Name=title,E-mail=email,Company=data.company` as a mapping. */
function mappingOf(text: string): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.lastIndexOf('=');
    if (at <= 0)
      throw new Error(
        `--map: "${pair}" is not COLUMN=TARGET (TARGET: title, email, phone, ownerId or data.<key>)`,
      );
    mapping[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return mapping;
}

/** Runs the job's queue jobs here until it ends, reporting progress after each. */
async function runHere(
  db: Database,
  workspaceId: string,
  id: string,
  progress: Progress,
  read: () => Promise<JobOutput>,
): Promise<JobOutput> {
  for (;;) {
    await runJob(db, { workspaceId, id });
    const job = await read();
    const p = job.progress;
    progress(
      `${job.status.toLowerCase()}: ${p.rowsRead}${p.total !== null ? `/${p.total}` : ''} rows, ${p.created} created, ${p.updated} updated, ${p.unchanged} unchanged, ${p.refused} refused`,
    );
    if (!['QUEUED', 'RUNNING'].includes(job.status)) return job;
    // Another runner (a worker) holds the job's next chunk: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
