import { router } from '../trpc.ts';
import { auditRouter } from './audit/index.ts';
import { callsRouter } from './calls/index.ts';
import { commentsRouter } from './comments/index.ts';
import { configRouter } from './config/index.ts';
import { dealsRouter } from './deals/index.ts';
import { eventsRouter } from './events/index.ts';
import { foldersRouter } from './folders/index.ts';
import { invitationsRouter } from './invitations/index.ts';
import { jobsRouter } from './jobs/index.ts';
import { keysRouter } from './keys/index.ts';
import { oauthRouter } from './oauth/index.ts';
import { pipelinesRouter } from './pipelines/index.ts';
import { recordsRouter } from './records/index.ts';
import { reportsRouter } from './reports/index.ts';
import { runsRouter } from './runs/index.ts';
import { sandboxesRouter } from './sandboxes/index.ts';
import { tasksRouter } from './tasks/index.ts';
import { viewsRouter } from './views/index.ts';
import { webhooksRouter } from './webhooks/index.ts';
import { workflowsRouter } from './workflows/index.ts';
import { workspaceRouter } from './workspace/index.ts';

export const appRouter = router({
  audit: auditRouter,
  calls: callsRouter,
  comments: commentsRouter,
  config: configRouter,
  deals: dealsRouter,
  events: eventsRouter,
  folders: foldersRouter,
  invitations: invitationsRouter,
  jobs: jobsRouter,
  keys: keysRouter,
  oauth: oauthRouter,
  pipelines: pipelinesRouter,
  records: recordsRouter,
  reports: reportsRouter,
  runs: runsRouter,
  sandboxes: sandboxesRouter,
  tasks: tasksRouter,
  views: viewsRouter,
  webhooks: webhooksRouter,
  workflows: workflowsRouter,
  workspace: workspaceRouter,
});

export type AppRouter = typeof appRouter;
