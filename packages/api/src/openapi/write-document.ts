import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { appRouter } from '../routers/index.ts';
import { buildOpenApiDocument } from './document.ts';

/**
 * Writes the OpenAPI document as JSON: `tsx src/openapi/write-document.ts [file]` (default
 * openapi.json in the working directory). Without PUBLIC_URL the server is the relative
 * `/api/v1`, so the file describes any deployment.
 */
const target = resolve(process.argv[2] ?? 'openapi.json');
const doc = buildOpenApiDocument(appRouter, {
  baseUrl: process.env.PUBLIC_URL ?? '',
  version:
    process.env.API_VERSION ??
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
});
writeFileSync(target, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`OpenAPI document written to ${target}`);
