import type { Database } from '@crm/db';

/**
 * A question about the database asked at most every `ms` per database handle: callers in
 * between get the last answer, and callers while it is asked share that one question. A failed
 * question is asked again by the next caller.
 */
export function answerCache<T>(ms: number, ask: (db: Database) => Promise<T>) {
  const answers = new WeakMap<object, { at: number; value: T }>();
  const asking = new WeakMap<object, Promise<T>>();
  return {
    get(db: Database): Promise<T> {
      const known = answers.get(db);
      if (known && Date.now() - known.at < ms) return Promise.resolve(known.value);
      let pending = asking.get(db);
      if (!pending) {
        const at = Date.now();
        pending = ask(db)
          .then((value) => {
            answers.set(db, { at, value });
            return value;
          })
          .finally(() => asking.delete(db));
        asking.set(db, pending);
      }
      return pending;
    },
    /** The next caller asks again. */
    forget(db: Database): void {
      answers.delete(db);
    },
  };
}
