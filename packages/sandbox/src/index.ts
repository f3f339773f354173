export type { CodeResult } from './limits.ts';
export { runCode } from './run-code.ts';
