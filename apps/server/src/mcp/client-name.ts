/** The name an MCP client gives when it does not declare one. */
const UNNAMED = 'unnamed client';
const PREFIX = 'crm-mcp.';
/** Longest client name kept, in characters. */
const MAX_NAME = 100;

/**
 * The name the MCP client declared (`clientInfo.name` of its `initialize`), or what the session
 * id this server gave it carries back. It is what the client says it is, unverified: provenance
 * records it beside the key, which is what authenticates (docs/mcp.md, "Provenance").
 */
export function clientNameOf(from: Record<string, unknown> | string): string {
  if (typeof from === 'string') {
    if (!from.startsWith(PREFIX)) return UNNAMED;
    return clean(Buffer.from(from.slice(PREFIX.length), 'base64url').toString('utf8'));
  }
  const params = from.params as { clientInfo?: { name?: unknown; title?: unknown } } | undefined;
  const name = params?.clientInfo?.title ?? params?.clientInfo?.name;
  return typeof name === 'string' ? clean(name) : UNNAMED;
}

/** The session id given on `initialize`: the client's name, which it sends back on every request. */
export function sessionIdFor(name: string): string {
  return `${PREFIX}${Buffer.from(name, 'utf8').toString('base64url')}`;
}

function clean(name: string): string {
  // Printable characters only, so the name is safe in logs, the web app and CSV exports.
  const printable = name
    .replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, '')
    .trim()
    .slice(0, MAX_NAME);
  return printable || UNNAMED;
}
