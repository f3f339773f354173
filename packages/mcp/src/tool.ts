import type { appRouter } from '@crm/api';
import type { Scope } from '@crm/domain';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The procedures, called in-process with the caller's context (the same ones REST and tRPC serve). */
export type Caller = ReturnType<typeof appRouter.createCaller>;

/**
 * One tool of the MCP server (docs/mcp.md, "Tools"): a task an agent does, made of calls to the
 * procedures, which check the caller's scopes themselves. `scopes` says which the tool needs
 * (every one of them, or, with `anyScope`, one of them): `tools/list` shows a caller only the
 * tools its scopes allow.
 */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  scopes: Scope[];
  /** The tool is there when the caller holds any one of `scopes`, rather than all. */
  anyScope?: boolean;
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint'>> &
    ToolAnnotations;
  input: I;
  output: O;
  run(caller: Caller, input: z.output<I>, context: ToolContext): Promise<z.input<O>>;
}

export interface ToolContext {
  /** The scopes of the caller, to leave out parts it may not read (a record's deals, say). */
  scopes: ReadonlySet<Scope>;
  /** The status the last procedure called would answer on REST (201 created, 200 upserted). */
  response: { status: number };
}

/** Declares a tool, its input and output types following from its schemas. */
export function tool<I extends z.ZodObject, O extends z.ZodObject>(definition: Tool<I, O>): Tool {
  return definition as unknown as Tool;
}

/** Whether a caller holding `scopes` may use `tool`. */
export function allowed(tool: Pick<Tool, 'scopes' | 'anyScope'>, scopes: ReadonlySet<Scope>): boolean {
  return tool.anyScope ? tool.scopes.some((s) => scopes.has(s)) : tool.scopes.every((s) => scopes.has(s));
}

/** Annotations of a tool that only reads. */
export const READS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Annotations of a tool that changes something, with the same result when repeated. */
export const SETS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Annotations of a tool that adds something new each time it is called. */
export const ADDS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** Annotations of a tool that removes something (undoably, but an agent should ask first). */
export const REMOVES = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** Any JSON object: the items of an answer, kept loose so `tools/list` stays short. */
export const item = z.record(z.string(), z.unknown());

/** The paging arguments every list tool takes. */
export const paging = {
  limit: z.number().int().min(1).max(50).optional().describe('Items to return, 1 to 50 (default 20).'),
  cursor: z.string().max(500).optional().describe('The nextCursor of the previous answer, for more.'),
};

/** The output of a list tool: its items under `key`, and the cursor for more (null at the end). */
export function listOutput<K extends string>(key: K) {
  return z.object({
    [key]: z.array(item),
    nextCursor: z.string().nullable(),
    truncated: z.boolean().optional(),
  } as { [k in K]: z.ZodArray<typeof item> } & {
    nextCursor: z.ZodNullable<z.ZodString>;
    truncated: z.ZodOptional<z.ZodBoolean>;
  });
}
