import { toApiError } from '@crm/api';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** The most characters a tool's answer holds (docs/mcp.md, "Limits and costs"). */
export const MAX_ANSWER_CHARS = 25_000;

/** Text values longer than this are cut in an answer too long to send whole. */
const CUT_TEXT_AT = 1_000;

/** A tool's structured answer, with the same JSON as its text for clients that read only text. */
export function answer(data: Record<string, unknown>): CallToolResult {
  return { structuredContent: data, content: [{ type: 'text', text: JSON.stringify(data) }] };
}

/** Whether an answer fits in MAX_ANSWER_CHARS. */
export function fits(data: unknown): boolean {
  return JSON.stringify(data).length <= MAX_ANSWER_CHARS;
}

/**
 * A page that fits: `read(limit)` reads a page of at most `limit` items (with its own cursor for
 * what follows), and the limit is halved until the answer fits, so `nextCursor` always names
 * exactly what was left out. A single item still too long has its long texts cut.
 */
export async function fittingPage<T extends { nextCursor: string | null }>(
  limit: number,
  read: (limit: number) => Promise<T>,
): Promise<T & { truncated?: true }> {
  let size = limit;
  for (;;) {
    const page = await read(size);
    if (fits(page)) return page;
    if (size === 1) return { ...(cutLongTexts(page) as T), truncated: true };
    size = Math.max(1, Math.floor(size / 2));
  }
}

/** `value` with every string longer than CUT_TEXT_AT cut to it (and marked), to fit an answer. */
function cutLongTexts(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > CUT_TEXT_AT ? `${value.slice(0, CUT_TEXT_AT)}…(cut)` : value;
  if (Array.isArray(value)) return value.map(cutLongTexts);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutLongTexts(v)]));
  }
  return value;
}

/**
 * A failed call as a tool error an agent can act on: the service's error code and message,
 * each refused argument with what would be valid, and what to do next where it is clear.
 */
export function failure(error: unknown): CallToolResult {
  const domain = toApiError(error);
  const lines = [`${domain.code}: ${domain.message}`];
  for (const detail of domain.details ?? []) lines.push(`- ${detail.path || '(input)'}: ${detail.message}`);
  const next = NEXT_STEP[domain.code];
  if (next) lines.push(next);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}

const NEXT_STEP: Partial<Record<string, string>> = {
  NOT_FOUND: 'Check the id: describe_workspace lists folders and pipelines, search_records finds records.',
  FORBIDDEN: 'The credential lacks this scope; ask the workspace owner for a key or grant that has it.',
  RATE_LIMITED: 'The workspace is over its request limit; wait the seconds the message names, then retry.',
  CONFLICT: 'Something changed meanwhile; read it again before retrying.',
  UNAVAILABLE: 'The service cannot reach its database; retry shortly.',
};

/**
 * Arguments the tool's schema refused, as a tool error naming each argument and what would be
 * valid: its description, the values it takes, or the arguments there are.
 */
export function invalidArguments(tool: string, schema: z.ZodObject, error: z.ZodError): CallToolResult {
  const lines = [`VALIDATION_FAILED: the arguments of ${tool} are not valid`];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      lines.push(
        `- ${issue.keys.join(', ')}: not an argument of ${tool}; it takes ${Object.keys(schema.shape).join(', ')}`,
      );
      continue;
    }
    const path = issue.path.join('.') || '(arguments)';
    const top = schema.shape[String(issue.path[0])] as z.ZodType | undefined;
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    const said = missing ? `required (${issue.expected})` : issue.message;
    const hint = top?.description ? ` ${top.description}` : '';
    lines.push(`- ${path}: ${said}.${hint}`);
  }
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}
