import { appRouter, buildOpenApiDocument } from '@crm/api';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** Where the generated types live, committed so integrators need no generation step. */
export const SCHEMA_FILE = new URL('../src/schema.d.ts', import.meta.url);

const HEADER = `/**
 * The types of the CRM workspace REST API (/api/v1), generated from its OpenAPI document.
 * Do not edit: run \`pnpm --filter @crm/client generate\` after changing the API.
 */

`;

/**
 * The text of src/schema.d.ts: the OpenAPI document the server serves (built in process from
 * the routers, so no server or network is needed), turned into types by openapi-typescript.
 */
export async function generateSchema(): Promise<string> {
  const document = buildOpenApiDocument(appRouter, { baseUrl: '', version: '0.0.0' });
  const ast = await openapiTS(document as unknown as OpenAPI3, { silent: true });
  return HEADER + astToString(ast);
}
