import { type DependencyList, useCallback, useEffect, useState } from 'react';
import { type Problem, toProblem } from './trpc.ts';

export interface Loaded<T> {
  data: T | undefined;
  problem: Problem | null;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on `reload()`), keeping the last answer while loading. */
export function useData<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T>();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!current) return;
        setData(value);
        setProblem(null);
        setLoading(false);
      },
      (error: unknown) => {
        if (!current) return;
        setProblem(toProblem(error));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data, problem, loading, reload };
}

/** State of a form's submission: its problem (shown by the fields) and whether it is running. */
export function useSubmit<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setProblem(null);
    try {
      return await action(...args);
    } catch (error) {
      setProblem(toProblem(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, problem, busy, clear: () => setProblem(null) };
}
