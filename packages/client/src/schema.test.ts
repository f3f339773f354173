import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSchema, SCHEMA_FILE } from '../scripts/generate-schema.ts';

describe('src/schema.d.ts', () => {
  it('is what the OpenAPI document generates now', async () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const fresh = await generateSchema();
    // Not toBe: a 6,000-line diff would bury the message.
    if (committed !== fresh) {
      expect.fail(
        'packages/client/src/schema.d.ts is out of date with the OpenAPI document: run `pnpm --filter @crm/client generate` and commit the result',
      );
    }
  });
});
