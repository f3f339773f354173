// @ts-check
/** A worker for pool.test.ts that starts and never says it is ready. */
setInterval(() => {}, 60_000);
