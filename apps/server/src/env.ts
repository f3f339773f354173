import { setFlagsFromString } from 'node:v8';
import { IMPORT_CHUNKS_IN_FLIGHT, parseSecretKey } from '@crm/domain';
import { z } from 'zod';
import { readCorsOrigins } from './rest/http-conventions.ts';

const isKey = (text: string) => {
  try {
    parseSecretKey(text);
    return true;
  } catch {
    return false;
  }
};
const KEY_FORMAT = 'must be 32 bytes as base64, base64url or 64 hex characters';

/** Every environment variable the server reads, parsed once. */
const envSchema = z.object({
  /** PostgreSQL 15+ to use; without it an embedded server keeps its data in DATA_DIR. */
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).optional(),
  /**
   * Key that encrypts signing secrets and custom header values at rest (32 bytes, base64 or
   * hex). Without it a key is made once in DATA_DIR/secrets.key.
   */
  SECRETS_KEY: z.string().refine(isKey, KEY_FORMAT).optional(),
  /** Older keys (comma-separated) still accepted for decryption while values are re-encrypted. */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .refine((text) => text.split(/[\s,]+/).every((part) => part === '' || isKey(part)), KEY_FORMAT)
    .optional(),
  /** Port of the embedded PostgreSQL (127.0.0.1 only); 0 picks a free one. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(54329),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Origins (`https://app.example.com`, comma-separated) whose browser scripts may call
   * /api/v1 with a key, or `*` for any; unset: none (docs/api.md, "HTTP conventions").
   */
  CORS_ORIGINS: z
    .string()
    .refine(
      (value) => {
        try {
          readCorsOrigins(value);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'list origins such as https://app.example.com, separated by commas, or *' },
    )
    .optional(),
  /** URL clients reach the service at; used in the OpenAPI document and trigger URLs. */
  PUBLIC_URL: z.string().url().optional(),
  /** The built web app to serve (default apps/web/dist of this checkout). */
  WEB_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * What this process runs (docs/operations.md, "Roles"): `all` the API and the background
   * worker, `api` the API alone, `worker` the worker alone (no API; health on OPS_PORT).
   */
  ROLE: z.enum(['all', 'api', 'worker']).optional(),
  /** Older spelling of ROLE: `false` is `api`. ROLE wins when both are set. */
  RUN_WORKER: z.enum(['true', 'false']).optional(),
  /** Where /metrics, /healthz and /readyz are served apart from the API; `off` for nowhere. */
  OPS_HOST: z.string().default('127.0.0.1'),
  OPS_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).default(9464),
  /**
   * One reverse proxy in front: trust its X-Forwarded-For (right-most entry: the client
   * address) and X-Forwarded-Proto (the scheme), nothing else it forwards.
   */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** Failed sign-ins allowed in 15 minutes from one client address. */
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Failed sign-ins allowed in 15 minutes for one account from one client address. */
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** Failed sign-ins in 15 minutes from all addresses beyond which addresses that failed are refused. */
  SIGN_IN_MAX_FAILURES_GLOBAL: z.coerce.number().int().min(1).max(10_000_000).default(1_000),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  /** CIDRs outgoing webhooks may reach although private or loopback (e.g. `127.0.0.1/32`). */
  WEBHOOK_ALLOW_CIDRS: z.string().optional(),
  /**
   * Multiplies the webhook retry delays (1 = the schedule of docs/webhooks.md, "Delivery,
   * retries, disabling"); tests shrink it.
   */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(5_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(10).max(120_000).default(15_000),
  /** Multiplies the delays between attempts of a failing workflow step; tests shrink it. */
  WORKFLOW_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /** Webhook attempts a worker process has in flight at once (half at most to one subscription). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
  /** Deliveries a worker claims, and attempts it records, per statement. */
  WEBHOOK_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(100),
  /** How often the worker looks for jobs scheduled for later (retries); new jobs arrive at once. */
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  /** Jobs the background worker runs at once. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Chunks an import whose rows do not depend on one another writes at once (docs/jobs.md,
   * "How jobs share the service"): 2 writes the next chunk while the one before commits, 1
   * takes a single connection and leaves more of the database's time to requests.
   */
  IMPORT_CHUNKS_IN_FLIGHT: z.coerce.number().int().min(1).max(2).default(IMPORT_CHUNKS_IN_FLIGHT),
  /**
   * How far the JavaScript heap may grow past its live objects before a full collection, in
   * percent; 0 leaves it to V8, which allows up to 300 % on a host with much memory
   * (docs/operations.md, "Memory").
   */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(50),
  /** Days an audit log entry is kept (docs/api.md, "Audit log"): a year by default. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
});

export type Env = z.infer<typeof envSchema>;

/** The names of every environment variable the server reads (docs/operations.md lists each). */
export const ENV_NAMES: readonly string[] = Object.keys(envSchema.shape);
export type Role = 'all' | 'api' | 'worker';

/** The process's role: ROLE, else `api` when RUN_WORKER is `false`, else `all`. */
export function roleOf(env: Pick<Env, 'ROLE' | 'RUN_WORKER'>): Role {
  return env.ROLE ?? (env.RUN_WORKER === 'false' ? 'api' : 'all');
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}

/**
 * Sets how far V8 lets the heap grow past its live objects before it collects the old
 * generation. Left to itself on a host with much memory, V8 lets a busy API process's heap
 * reach four times its live size, which is garbage held rather than memory used; a fixed
 * factor keeps resident memory near the live size at a small cost in collections
 * (docs/operations.md, "Memory"). Process-wide: called by the server's entry point only.
 * Node.js leaves V8's flags open to change after start for this purpose.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
