import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * `crm config pull | plan | apply` (docs/operations.md, "Configuration as code"): the
 * workspace's configuration as a file, through the REST API of a running service, so that
 * the same commands promote a configuration from one service (a sandbox, a staging host) to
 * another. The service is `--url` (or CRM_URL) and the key `--key` (or CRM_API_KEY), a key
 * with `config:read` (pull, plan) or `config:write` (apply).
 */
const connection = z.object({
  url: z.string().url('must be the service’s base URL, e.g. http://localhost:3000'),
  key: z.string().min(1, 'is required (or CRM_API_KEY)'),
});

export interface ConfigOutcome {
  /** What to print on stdout. */
  output: unknown;
  /** The exit status: 0, or 1 when the service refused. */
  status: number;
}

export async function configCommand(
  sub: string | undefined,
  options: Record<string, string | undefined>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ConfigOutcome> {
  const { url, key } = connection.parse({
    url: options.url ?? env.CRM_URL,
    key: options.key ?? env.CRM_API_KEY,
  });
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(`${url.replace(/\/+$/, '')}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json().catch(() => ({}))) as { data?: unknown; error?: unknown };
    return { ok: response.ok, answer };
  };
  if (sub === 'pull') {
    const { ok, answer } = await call('GET', '/config');
    if (!ok) return { output: answer, status: 1 };
    const text = `${JSON.stringify(answer.data, null, 2)}\n`;
    if (options.out) {
      await writeFile(options.out, text);
      return { output: { writtenTo: options.out }, status: 0 };
    }
    return { output: answer.data, status: 0 };
  }
  if (sub === 'plan' || sub === 'apply') {
    const file = z.string().min(1, 'is required: the configuration document').parse(options.file);
    const document = JSON.parse(await readFile(file, 'utf8')) as unknown;
    const prune = options.prune === 'true';
    const { ok, answer } = await call('POST', sub === 'plan' ? '/config/plan' : '/config/apply', {
      document,
      ...(prune ? { prune } : {}),
    });
    return { output: ok ? answer.data : answer, status: ok ? 0 : 1 };
  }
  throw new Error(`Unknown command: config ${sub ?? ''} (pull, plan or apply)`);
}
