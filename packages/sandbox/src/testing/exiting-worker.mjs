// @ts-check
/** A worker for pool.test.ts that ends as it starts, before it is ready. */
process.exit(4);
