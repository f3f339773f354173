export type { CodeResult } from './limits.ts';
export { closeSandbox, runCode } from './run-code.ts';
