import type pg from 'pg';

/** Ready when the database answers within two seconds. */
export async function databaseReady(pool: pg.Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database did not answer in time')), 2_000);
    });
    await Promise.race([pool.query('select 1'), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
