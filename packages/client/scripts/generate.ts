import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateSchema, SCHEMA_FILE } from './generate-schema.ts';

/** `pnpm --filter @crm/client generate`: rewrites src/schema.d.ts from the OpenAPI document. */
mkdirSync(new URL('.', SCHEMA_FILE), { recursive: true });
writeFileSync(SCHEMA_FILE, await generateSchema());
console.log(`Types written to ${fileURLToPath(SCHEMA_FILE)}`);
