import type { CodeError, CodeLimits } from './limits.ts';

/** What the host posts to the worker thread: one run. */
export interface RunRequest {
  id: number;
  source: string;
  /** The input already serialised: the worker parses it inside the sandbox, never outside. */
  inputJson: string;
  limits: CodeLimits;
}

/** What the worker thread posts back: the run's result, the output still as JSON text. */
export interface RunReply {
  ready?: undefined;
  id: number;
  result:
    | { ok: true; outputJson: string; durationMs: number }
    | { ok: false; error: CodeError; durationMs: number };
}

/** What the worker thread posts once, when it is ready to run (its engine loaded and warm). */
export interface ReadyMessage {
  ready: true;
}

export type WorkerMessage = ReadyMessage | RunReply;
