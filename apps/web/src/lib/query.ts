import type { AppRouter } from '@crm/api';
import { QueryClient } from '@tanstack/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { type Problem, toProblem, trpc } from './trpc.ts';

/** What each procedure answers and takes, inferred from the server's routers: never declared by hand. */
export type Outputs = inferRouterOutputs<AppRouter>;
export type Inputs = inferRouterInputs<AppRouter>;

/**
 * The app's one cache of server data. An answer stays fresh for 30 s (a page opened twice in a
 * row asks once); a mutation invalidates what it changed. A failed read is retried once, except
 * for answers that cannot change by asking again (a 4xx: not found, forbidden, invalid input).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failures, error) => {
        const status = toProblem(error).status;
        return failures < 1 && (status === null || status >= 500);
      },
    },
  },
});

/**
 * Query and mutation options for every procedure: `useQuery(api.records.list.queryOptions({...}))`,
 * `useMutation(api.deals.update.mutationOptions({...}))`, `queryClient.invalidateQueries(
 * api.deals.list.pathFilter())`. Calls go through the same client as `trpc`, so the CSRF header
 * is sent.
 */
export const api = createTRPCOptionsProxy<AppRouter>({ client: trpc, queryClient });

const problems = new WeakMap<object, Problem>();

/**
 * A query's or mutation's error as a problem of the REST error body (message and per-field
 * messages), or null. The same error gives the same object on every render, so ProblemMessage
 * announces it once.
 */
export function problemOf(error: unknown): Problem | null {
  if (!error) return null;
  if (typeof error !== 'object') return toProblem(error);
  let problem = problems.get(error);
  if (!problem) {
    problem = toProblem(error);
    problems.set(error, problem);
  }
  return problem;
}
