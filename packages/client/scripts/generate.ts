import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateSchema, SCHEMA_FILE } from './generate-schema.ts';

/** `pnpm --filter @crm/client generate`: rewrites src/schema.d.ts from the OpenAPI document. */
writeFileSync(SCHEMA_FILE, await generateSchema());
console.log(`Types written to ${fileURLToPath(SCHEMA_FILE)}`);
