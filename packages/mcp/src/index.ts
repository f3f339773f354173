export { MAX_ANSWER_CHARS } from './answer.ts';
export { createMcpServer, type McpCaller, TOOLS, toolsFor } from './server.ts';
export type { Caller, Tool } from './tool.ts';
