import { configDocument } from '@crm/domain';
import { z } from 'zod';

/** Where the service serves the configuration document's JSON Schema, under /api/v1. */
export const CONFIG_SCHEMA_PATH = '/config.schema.json';

/**
 * The JSON Schema (draft 2020-12) of the configuration document that `GET /config` exports
 * and `POST /config/plan` and `/config/apply` take (docs/operations.md, "Configuration as
 * code"), for editors and for checking a document in review before it reaches the service.
 */
export function buildConfigSchema(baseUrl?: string): Record<string, unknown> {
  const schema = z.toJSONSchema(configDocument, { target: 'draft-2020-12', io: 'input' }) as Record<
    string,
    unknown
  >;
  return {
    ...schema,
    ...(baseUrl ? { $id: `${baseUrl.replace(/\/+$/, '')}/api/v1${CONFIG_SCHEMA_PATH}` } : {}),
  };
}
