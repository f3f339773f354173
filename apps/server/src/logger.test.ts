import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

/** A logger writing its JSON lines to `lines`. */
function capturingLogger(level = 'info') {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const TOKEN = 'Bearer canary-token-0123456789';

describe('the logger', () => {
  /** A failed insert as drizzle reports it: the SQL, its parameters, and PostgreSQL's error as the cause. */
  function failedInsert() {
    const cause = Object.assign(new Error('new row for relation "webhooks" violates check constraint "c"'), {
      code: '23514',
      severity: 'ERROR',
      table: 'webhooks',
      constraint: 'c',
      detail: 'Failing row contains (ws_1, wh_1, whsec_fromdetail, Bearer canary-token-0123456789).',
      where: 'SQL statement "insert …"',
    });
    return new DrizzleQueryError(
      'insert into "webhooks" ("secret", "headers") values ($1, $2)',
      ['whsec_canarysecret', JSON.stringify({ Authorization: TOKEN })],
      cause,
    );
  }

  it('logs a failed statement with its message, codes and SQL text, never its parameters or the row', () => {
    const { logger, lines, parsed } = capturingLogger();
    const error = failedInsert();
    expect(error.message).toContain('whsec_canarysecret'); // what would have been logged
    logger.error({ err: error, code: 'INTERNAL' }, 'request failed');
    logger.error(error);
    // graphile-worker hands its errors over inside `meta`; an error wrapping another too.
    logger.error({ meta: { job: { id: '1' }, error } }, 'job failed');
    logger.error({ err: new Error('wrapped', { cause: error }) }, 'wrapped failure');
    const text = lines.join('');
    for (const leak of ['whsec_', 'canary-token', 'params', 'Failing row']) expect(text).not.toContain(leak);
    // biome-ignore lint/suspicious/noExplicitAny: reading arbitrary JSON lines
    const [first, second, third, fourth] = parsed() as Record<string, any>[];
    expect(first!.err).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "webhooks" ("secret", "headers") values ($1, $2)',
      query: 'insert into "webhooks" ("secret", "headers") values ($1, $2)',
      cause: { code: '23514', table: 'webhooks', constraint: 'c' },
    });
    expect(first!.err.stack).toMatch(/^DrizzleQueryError: Failed query: insert[^\n]*\n\s+at /);
    expect(first!.err.cause.detail).toBeUndefined();
    expect(first!.err.params).toBeUndefined();
    expect(second!.err.query).toContain('insert into "webhooks"');
    expect(third!.meta.error.cause.code).toBe('23514');
    expect(fourth!.err.cause.cause.code).toBe('23514');
  });

  it('redacts secret-bearing keys wherever they are', () => {
    const { logger, lines } = capturingLogger();
    logger.info(
      { secret: 'whsec_top', webhook: { secret: 'whsec_nested', headers: { Authorization: TOKEN } }, n: 1 },
      'something',
    );
    const text = lines.join('');
    expect(text).not.toContain('whsec_');
    expect(text).not.toContain('canary-token');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      secret: '[redacted]',
      webhook: { secret: '[redacted]' },
      n: 1,
    });
  });
});
