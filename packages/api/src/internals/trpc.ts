import type {
  AnyRouter,
  AnyTRPCProcedure,
  TRPCProcedureBuilder,
  TRPCProcedureType,
  TRPCUnsetMarker,
} from '@trpc/server';
import { createBuilder } from '@trpc/server/unstable-core-do-not-import';
import type { z } from 'zod';

/**
 * The one place our code reads tRPC's definitions of routers and procedures, which its
 * public API does not list (docs/decisions/0010-two-patches-remain.md, "Internals"): a
 * router's flattened procedures, and of each procedure its type, meta and parsers. The
 * REST route table, the OpenAPI document, the /trpc route label and the tests all walk the
 * procedures through here. `trpc.test.ts` beside this file checks every shape it relies on,
 * so a tRPC upgrade that moves one fails there, by name, before anything else.
 */

/** One procedure of a router, with what the REST layer and the document read of it. */
export interface ProcedureEntry {
  /** Its path in the router (`records.get`), the name /trpc and `callTRPCProcedure` take. */
  path: string;
  procedure: AnyTRPCProcedure;
  type: TRPCProcedureType;
  /** The `.meta()` it was declared with. */
  meta: unknown;
  /** Its first input parser (`.input(schema)`), or undefined for none. */
  input: unknown;
  /** Its output parser (`.output()` or `declaredOutput`), or undefined. */
  output: unknown;
  /** How many middlewares its call runs (the input parsers' and an `.output()` parse included). */
  middlewares: readonly { _type?: string }[];
}

const entries = new WeakMap<AnyRouter, ProcedureEntry[]>();

/**
 * Every procedure of a router, nested routers flattened (`records.get`), in declaration
 * order; read once per router.
 */
export function proceduresOf(router: AnyRouter): readonly ProcedureEntry[] {
  const known = entries.get(router);
  if (known) return known;
  const list: ProcedureEntry[] = [];
  for (const [path, procedure] of Object.entries(
    router._def.procedures as Record<string, AnyTRPCProcedure>,
  )) {
    const def = procedure._def as typeof procedure._def & {
      output?: unknown;
      middlewares: { _type?: string }[];
    };
    list.push({
      path,
      procedure,
      type: def.type,
      meta: def.meta,
      input: def.inputs[0],
      output: def.output,
      middlewares: def.middlewares,
    });
  }
  entries.set(router, list);
  return list;
}

/** Whether the router has a procedure at `path` (`records.get`). */
export function hasProcedure(router: AnyRouter, path: string): boolean {
  return Object.hasOwn(router._def.procedures, path);
}

/** The middlewares a procedure builder (`authedProcedure`) adds to every procedure built on it. */
export function builderMiddlewares(builder: {
  _def: { middlewares: readonly unknown[] };
}): readonly unknown[] {
  return builder._def.middlewares;
}

/**
 * A procedure builder that only declares an output schema, for `.concat()` where tRPC's
 * `.output(schema)` would go: the procedure gets the schema's type and the document its
 * response, and no middleware parses the answer again (docs/decisions/0003-declared-output.md;
 * built this way since docs/decisions/0011-declared-output-builder.md).
 * tRPC's `.output()` always adds that middleware; `createBuilder`, with which tRPC makes its
 * own builders, takes the definition as given.
 */
export function outputOnlyBuilder<TContext, TMeta, TSchema extends z.ZodType>(
  schema: TSchema,
): TRPCProcedureBuilder<
  TContext,
  TMeta,
  object,
  TRPCUnsetMarker,
  TRPCUnsetMarker,
  z.input<TSchema>,
  z.output<TSchema>,
  false
> {
  return createBuilder<TContext, TMeta>({ output: schema }) as TRPCProcedureBuilder<
    TContext,
    TMeta,
    object,
    TRPCUnsetMarker,
    TRPCUnsetMarker,
    z.input<TSchema>,
    z.output<TSchema>,
    false
  >;
}
