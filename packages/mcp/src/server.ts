import { DomainError, type Scope } from '@crm/domain';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type Tool as ListedTool,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { answer, failure, invalidArguments } from './answer.ts';
import { allowed, type Caller, type Tool } from './tool.ts';
import {
  createRecord,
  getRecord,
  linkRecords,
  listRelated,
  recordHistory,
  searchRecords,
  trashRecord,
  updateRecord,
} from './tools/records.ts';
import {
  addComment,
  completeTask,
  createTask,
  listDeals,
  listTasks,
  logCall,
  moveDeal,
} from './tools/work.ts';
import { describeWorkspace } from './tools/workspace.ts';

/** Every tool, in the order `tools/list` shows them (docs/mcp.md, "Tools"). */
export const TOOLS: readonly Tool[] = [
  describeWorkspace,
  searchRecords,
  getRecord,
  createRecord,
  updateRecord,
  trashRecord,
  linkRecords,
  listRelated,
  recordHistory,
  listDeals,
  moveDeal,
  listTasks,
  createTask,
  completeTask,
  addComment,
  logCall,
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));

/** A tool as `tools/list` shows it, its schemas as JSON Schema made once. */
const listed = new Map<string, ListedTool>(TOOLS.map((t) => [t.name, listing(t)]));

function listing(t: Tool): ListedTool {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input') as ListedTool['inputSchema'],
    outputSchema: jsonSchema(t.output, 'output') as NonNullable<ListedTool['outputSchema']>,
    annotations: { title: t.title, ...t.annotations },
  };
}

/** A zod object as a JSON Schema object, without the `$schema` line every client assumes. */
function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** The tools a caller holding `scopes` sees and may call. */
function toolsFor(scopes: ReadonlySet<Scope>): Tool[] {
  return TOOLS.filter((t) => allowed(t, scopes));
}

export interface McpCaller {
  /** The procedures with the caller's context: the same gate, scopes and provenance as REST. */
  caller: Caller;
  scopes: ReadonlySet<Scope>;
  /** The context's REST status, which procedures set (201 for a created record, 200 for an upsert). */
  response: { status: number };
}

/**
 * The MCP server for one request (the transport is stateless, docs/mcp.md): the SDK's `Server`
 * answers `initialize`, `ping` and the protocol's errors; `tools/list` and `tools/call` are
 * answered here from TOOLS, limited to what the caller's scopes allow.
 */
export function createMcpServer(who: McpCaller, version: string): Server {
  const server = new Server(
    { name: 'crm-workspace', title: 'CRM workspace', version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'A CRM workspace: records in folders (people, companies …) with custom fields and relations, comments and calls on them, pipelines of stages with deals, and tasks. Call describe_workspace first for the ids of folders, fields, pipelines, stages and members.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsFor(who.scopes).map((t) => listed.get(t.name) as ListedTool),
  }));
  server.setRequestHandler(CallToolRequest, async (request): Promise<CallToolResult> => {
    const t = byName.get(request.params.name);
    if (!t) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(request.params.name)}; tools/list names the tools this connection may use`,
      );
    }
    if (!allowed(t, who.scopes)) {
      return failure(forbidden(t));
    }
    const parsed = t.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return invalidArguments(t.name, t.input, parsed.error);
    try {
      const result = await t.run(who.caller, parsed.data, { scopes: who.scopes, response: who.response });
      return answer(result as Record<string, unknown>);
    } catch (error) {
      return failure(error);
    }
  });
  return server;
}

/**
 * `tools/call` as the handler takes it: its params checked here first, so that malformed ones
 * (`"arguments": []`, no tool name) are the JSON-RPC error -32602 Invalid params with a message
 * an agent can act on. The SDK parses a request with the handler's schema before anything else
 * and answers a failed parse as -32603 Internal error with the validator's issue list
 * (docs/decisions/0014-mcp-invalid-params.md); a ProtocolError thrown while parsing passes
 * through as it is.
 */
const CallToolRequest = CallToolRequestSchema.extend({
  params: z.unknown().transform((params) => checkedCallParams(params)),
});

function checkedCallParams(params: unknown): z.infer<typeof CallToolRequestSchema>['params'] {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      'params must be an object: { "name": <tool>, "arguments": { … } }',
    );
  }
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      'params.name must be the name of the tool to call, a string; tools/list names them',
    );
  }
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `params.arguments must be an object of ${JSON.stringify(name)}'s parameters (tools/list gives its inputSchema), not ${Array.isArray(args) ? 'an array' : args === null ? 'null' : `a ${typeof args}`}`,
    );
  }
  return params as z.infer<typeof CallToolRequestSchema>['params'];
}

/**
 * A JSON-RPC error the SDK sends with this code and message as they are. (The SDK's McpError
 * starts its message with "MCP error <code>: ", and the client's McpError adds that again, so
 * an agent would read it twice.)
 */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal of a tool the caller's scopes do not allow, naming what it needs (as REST's 403 does). */
function forbidden(t: Tool): DomainError {
  const needs = t.anyScope ? `one of ${t.scopes.join(', ')}` : t.scopes.join(' and ');
  return new DomainError('FORBIDDEN', `This connection lacks the scope ${t.name} needs`, {
    details: [{ path: 'scope', message: `needs ${needs}` }],
  });
}
