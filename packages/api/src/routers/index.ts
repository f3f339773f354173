import { router } from '../trpc.ts';
import { foldersRouter } from './folders/index.ts';
import { recordsRouter } from './records/index.ts';

export const appRouter = router({
  folders: foldersRouter,
  records: recordsRouter,
});

export type AppRouter = typeof appRouter;
