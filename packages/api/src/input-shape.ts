import { z } from 'zod';

/**
 * The fields of a procedure's input object, by name (empty when its input is not an object).
 * tRPC keeps the parsers it was given in `_def.inputs`; the REST route table and the OpenAPI
 * document both read the first.
 */
export function inputShapeOf(procedure: unknown): Record<string, z.ZodType> {
  const input = (procedure as { _def: { inputs?: unknown[] } })._def.inputs?.[0];
  return input instanceof z.ZodObject ? (input.shape as Record<string, z.ZodType>) : {};
}
