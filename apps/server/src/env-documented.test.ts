import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_NAMES } from './env.ts';

/** docs/operations.md, which an operator reads to configure the service. */
const operations = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');

describe('the environment variables of the server', () => {
  it('are all described in docs/operations.md', () => {
    expect(ENV_NAMES.length).toBeGreaterThan(20);
    const undocumented = ENV_NAMES.filter((name) => !new RegExp(`\\b${name}\\b`).test(operations));
    expect(undocumented).toEqual([]);
  });
});
