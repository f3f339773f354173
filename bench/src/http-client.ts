/**
 * The client of the sequential latency series (search, list queries, relations): `node:http`
 * on one kept-alive connection per server, asking for a compressed answer, decoding it and
 * parsing its JSON as an integrator's client does. With `fetch` (undici) the client itself
 * added 3 to 4 ms to each page of 50 records (decoding brotli through web streams), which the
 * series then charged to the service (README, "What a run does").
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

const agents = new Map<string, http.Agent>();

function agentOf(origin: string): http.Agent {
  let agent = agents.get(origin);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.set(origin, agent);
  }
  return agent;
}

/** GET `path` of the server at `url` with the key; its status and parsed JSON body. */
export function getJson<T>(url: string, path: string, apiKey: string): Promise<{ status: number; body: T }> {
  const target = new URL(path, url);
  return new Promise((resolve, reject) => {
    const request = http.get(
      target,
      {
        agent: agentOf(target.origin),
        headers: { authorization: `Bearer ${apiKey}`, 'accept-encoding': 'br, gzip' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            const raw = Buffer.concat(chunks);
            const encoding = response.headers['content-encoding'];
            const bytes =
              encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(bytes.toString('utf8')) as T });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
  });
}

/** Closes the kept-alive connections, so the run's process can end. */
export function closeHttpClients(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
