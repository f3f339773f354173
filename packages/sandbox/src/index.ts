export {
  CODE_LIMITS,
  type CodeError,
  type CodeErrorKind,
  type CodeLimits,
  type CodeResult,
  MAX_STACK_BYTES,
} from './limits.ts';
export { closeSandbox, configureSandbox, runCode, type SandboxOptions } from './run-code.ts';
