import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` listening and gives the base URL it is reached at on this machine: a
 * wildcard address (0.0.0.0, ::) is reached at 127.0.0.1, an IPv6 host is bracketed.
 */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const reached = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reached.includes(':') ? `[${reached}]` : reached}:${bound}`;
}
