import { Worker } from 'node:worker_threads';
import { WORKER_STACK_MB } from './limits.ts';
import type { RunReply, RunRequest, WorkerMessage } from './protocol.ts';

export interface PoolOptions {
  /** Worker threads, each running one run at a time; runs beyond them wait in a queue. */
  threads: number;
  /**
   * How long past a run's `cpuMs` the host waits for its answer, from when a ready thread took
   * it. A thread that has not answered by then (a run the engine did not interrupt, a thread
   * that hangs) is terminated and replaced, and its run fails as a 'timeout'.
   */
  graceMs: number;
  /**
   * How long a new thread may take to be ready (its engine loaded and warmed up). One that is
   * not, or that stops before, is dropped, and the oldest waiting run fails as a 'timeout': a
   * thread that cannot start fails runs one by one instead of holding them forever.
   */
  startMs: number;
  /** The worker thread's entry; tests give workers that misbehave. */
  workerUrl: URL;
}

type RunResult = RunReply['result'];

interface Job {
  request: Omit<RunRequest, 'id'>;
  done: (result: RunResult) => void;
}

interface Slot {
  worker: Worker;
  /** Until the thread says it is ready: the timer that gives up on it. */
  starting?: NodeJS.Timeout;
  /** The run the thread is busy with. */
  current?: { id: number; job: Job; timer: NodeJS.Timeout; started: number };
  /** Why the thread stopped, when it reported an error before exiting. */
  error?: Error;
}

/**
 * The worker threads that run CODE steps, so that a run's CPU time is not the host's: the API
 * server and the job runner keep answering while a run loops until its deadline.
 *
 * A thread is started when a run needs one and is kept for the next; an idle thread is
 * unreferenced, so that the pool never keeps a process alive (a busy or starting one is: the
 * process is waiting for it). A thread that exits, fails or does not answer within the run's
 * time plus `graceMs` is dropped (terminated if need be), its run fails as a 'timeout', and the
 * next run gets a new thread.
 */
export class SandboxPool {
  readonly #options: PoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #idle: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** Runs one request on the first free thread; resolves, never rejects. */
  run(request: Omit<RunRequest, 'id'>): Promise<RunResult> {
    return new Promise((done) => {
      this.#queue.push({ request, done });
      this.#pump();
    });
  }

  /** Stops every thread; runs in progress or waiting fail as a 'timeout'. */
  async close(): Promise<void> {
    const stopping: Promise<number>[] = [];
    for (const slot of [...this.#slots]) {
      this.#drop(slot, 'The sandbox was closed');
      stopping.push(slot.worker.terminate());
    }
    for (const job of this.#queue.splice(0)) {
      job.done(timeout('The sandbox was closed before the run started', 0));
    }
    await Promise.allSettled(stopping);
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const slot = this.#idle.pop();
      if (!slot) break;
      const job = this.#queue.shift();
      if (job) this.#assign(slot, job);
      else this.#idle.push(slot);
    }
    // Threads still starting count as on their way to the runs waiting.
    const starting = [...this.#slots].filter((slot) => slot.starting).length;
    let wanted = Math.min(this.#queue.length - starting, this.#options.threads - this.#slots.size);
    for (; wanted > 0; wanted--) this.#start();
  }

  #start(): void {
    const worker = new Worker(this.#options.workerUrl, {
      // Plain Node: a TypeScript loader the host runs under (tsx) would cost each thread
      // its own copy; the worker's files are JavaScript.
      execArgv: [],
      resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    });
    const slot: Slot = { worker };
    this.#slots.add(slot);
    slot.starting = setTimeout(() => {
      this.#drop(slot, `The sandbox's worker thread was not ready within ${this.#options.startMs} ms`);
      void worker.terminate().catch(() => undefined);
      this.#pump();
    }, this.#options.startMs);
    worker.on('message', (message: WorkerMessage) => {
      if (message.ready) this.#ready(slot);
      else this.#answered(slot, message);
    });
    worker.on('error', (error) => {
      slot.error = error;
    });
    worker.on('exit', (code) => {
      const why = slot.error ? slot.error.message : `exit code ${code}`;
      this.#drop(slot, `The sandbox's worker thread stopped (${why})`);
      this.#pump();
    });
  }

  #ready(slot: Slot): void {
    if (!slot.starting || !this.#slots.has(slot)) return;
    clearTimeout(slot.starting);
    slot.starting = undefined;
    slot.worker.unref();
    this.#idle.push(slot);
    this.#pump();
  }

  #assign(slot: Slot, job: Job): void {
    const id = this.#nextId++;
    const wait = job.request.limits.cpuMs + this.#options.graceMs;
    const timer = setTimeout(() => {
      this.#drop(slot, `The sandbox's worker thread did not answer within ${wait} ms and was stopped`);
      void slot.worker.terminate().catch(() => undefined);
      this.#pump();
    }, wait);
    slot.current = { id, job, timer, started: performance.now() };
    slot.worker.ref();
    const request: RunRequest = { id, ...job.request };
    slot.worker.postMessage(request);
  }

  #answered(slot: Slot, reply: RunReply): void {
    const current = slot.current;
    if (!current || current.id !== reply.id) return;
    clearTimeout(current.timer);
    slot.current = undefined;
    slot.worker.unref();
    this.#idle.push(slot);
    current.job.done(reply.result);
    this.#pump();
  }

  /**
   * Forgets a thread. Its run, if any, fails as a 'timeout' with `message`; a thread that
   * never became ready fails the oldest waiting run instead.
   */
  #drop(slot: Slot, message: string): void {
    if (!this.#slots.delete(slot)) return;
    const index = this.#idle.indexOf(slot);
    if (index >= 0) this.#idle.splice(index, 1);
    slot.worker.unref();
    if (slot.starting) {
      clearTimeout(slot.starting);
      slot.starting = undefined;
      this.#queue.shift()?.done(timeout(message, 0));
    }
    const current = slot.current;
    slot.current = undefined;
    if (current) {
      clearTimeout(current.timer);
      current.job.done(timeout(message, performance.now() - current.started));
    }
  }
}

function timeout(message: string, elapsedMs: number): RunResult {
  return { ok: false, error: { kind: 'timeout', message }, durationMs: Math.round(elapsedMs) };
}
