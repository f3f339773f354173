import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { workflows } from './workflows.ts';

export const runStatuses = ['QUEUED', 'RUNNING', 'WAITING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type RunStatus = (typeof runStatuses)[number];

export const stepStatuses = ['PENDING', 'RUNNING', 'WAITING', 'SUCCEEDED', 'FAILED', 'SKIPPED'] as const;
export type StepStatus = (typeof stepStatuses)[number];

/**
 * What a run keeps of one action: the rendered input, the output or the error, timings. Runs
 * queued before steps had paths kept them in `workflow_runs.steps`, by index; later runs keep
 * them in `workflow_run_steps`, by path.
 */
export interface RunStep {
  index: number;
  action: string;
  status: StepStatus;
  input: unknown;
  output: unknown;
  error: string | null;
  attempts: number;
  /** When a failed step is tried again; null otherwise. */
  nextAttemptAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

/** One execution of a workflow, with every step's record; kept 30 days. */
export const workflowRuns = pgTable(
  'workflow_runs',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    workflowId: text().notNull(),
    status: text({ enum: runStatuses }).notNull().default('QUEUED'),
    /** What started it: INCOMING_WEBHOOK, EVENT or RERUN. */
    trigger: text().notNull(),
    /** The trigger payload: the incoming body, or the event. */
    input: jsonb().notNull(),
    /** The context record given by the trigger. */
    recordId: text(),
    /** The context record now: the trigger's, or the one an earlier step created or changed. */
    contextRecordId: text(),
    /** The actions as they were when the run was queued; later edits do not change a run. */
    actions: jsonb().$type<Record<string, unknown>[]>().notNull(),
    steps: jsonb().$type<RunStep[]>().notNull().default([]),
    /**
     * The run's version: how many times its progress was saved. A worker saves only if the
     * version is still the one it read (runs queued before steps had paths counted the
     * top-level steps done, which is the same number for them).
     */
    nextStep: integer().notNull().default(0),
    /** While WAITING: when the run goes on (a DELAY's end, an APPROVAL's timeout); null otherwise. */
    resumeAt: instant(),
    /** Why the run failed, in words. */
    error: text(),
    rerunOf: text(),
    /** The event that started it, for event triggers (one run per workflow and event). */
    eventId: text(),
    createdAt: createdAt(),
    startedAt: instant(),
    finishedAt: instant(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'workflow_runs_pkey', columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'workflow_runs_workflow_fk',
      columns: [t.workspaceId, t.workflowId],
      foreignColumns: [workflows.workspaceId, workflows.id],
    }).onDelete('cascade'),
    index('workflow_runs_workflow_created_idx').on(
      t.workspaceId,
      t.workflowId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('workflow_runs_created_idx').on(t.createdAt),
    // A record's timeline: the runs started for a record or whose context record it became.
    index('workflow_runs_record_idx')
      .on(t.workspaceId, t.recordId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.recordId} is not null`),
    index('workflow_runs_context_record_idx')
      .on(t.workspaceId, t.contextRecordId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.contextRecordId} is not null`),
    // An event starts a workflow once, however often the job that starts it is retried.
    uniqueIndex('workflow_runs_event_idx')
      .on(t.workspaceId, t.workflowId, t.eventId)
      .where(sql`${t.eventId} is not null`),
    // The runs that wait, counted against a workspace's limit.
    index('workflow_runs_waiting_idx').on(t.workspaceId).where(sql`${t.status} = 'WAITING'`),
  ],
);

/**
 * One step of a run (docs/workflows.md, "Runs"): a top-level action, an action in a branch's
 * arm or in one item of a loop, named by its path (`2`, `2.then.0`, `3.items.17.1`). Written
 * when the step starts waiting, fails or succeeds; a step that succeeded is never run again.
 */
export const workflowRunSteps = pgTable(
  'workflow_run_steps',
  {
    workspaceId: workspaceId(),
    runId: text().notNull(),
    path: text().notNull(),
    /** The order in which the run first recorded its steps. */
    seq: integer().notNull(),
    name: text(),
    action: text().notNull(),
    status: text({ enum: stepStatuses }).notNull(),
    input: jsonb(),
    output: jsonb(),
    error: text(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: instant(),
    /** A waiting step's end (DELAY) or timeout (APPROVAL). */
    resumeAt: instant(),
    startedAt: instant(),
    finishedAt: instant(),
  },
  (t) => [
    primaryKey({ name: 'workflow_run_steps_pkey', columns: [t.workspaceId, t.runId, t.path] }),
    foreignKey({
      name: 'workflow_run_steps_run_fk',
      columns: [t.workspaceId, t.runId],
      foreignColumns: [workflowRuns.workspaceId, workflowRuns.id],
    }).onDelete('cascade'),
  ],
);
