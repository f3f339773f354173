export { createMcpServer } from './server.ts';
