import { z } from 'zod';

/**
 * The fields of a procedure's input object, by name (empty when its input is not an object):
 * `input` is the procedure's first input parser (internals/trpc.ts, `proceduresOf`). The REST
 * route table and the OpenAPI document both read it.
 */
export function inputShapeOf(input: unknown): Record<string, z.ZodType> {
  return input instanceof z.ZodObject ? (input.shape as Record<string, z.ZodType>) : {};
}
