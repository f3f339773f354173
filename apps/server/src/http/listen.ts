import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` listening and gives the base URL it is reached at on this machine: a
 * wildcard address (0.0.0.0, ::) is reached at 127.0.0.1, an IPv6 host is bracketed.
 * `variable` is the setting the port comes from (`PORT`, `OPS_PORT`): a port another process
 * holds is refused with an error naming it and how to change it (docs/operations.md,
 * "Two instances on one host").
 */
export async function listenOn(
  server: Server,
  port: number,
  host: string,
  variable: string,
): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? portRefused(error, variable, port, host)
          : error,
      );
    });
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const reached = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reached.includes(':') ? `[${reached}]` : reached}:${bound}`;
}

function portRefused(error: NodeJS.ErrnoException, variable: string, port: number, host: string): Error {
  const why =
    error.code === 'EADDRINUSE'
      ? `another process already listens on ${host}:${port} (a second instance of this service?)`
      : `this user may not listen on ${host}:${port}`;
  const off = variable === 'OPS_PORT' ? ', or OPS_PORT=off to serve no metrics' : '';
  return Object.assign(
    new Error(
      `${variable}=${port}: ${why}. Set ${variable} to a free port (0 picks one)${off}, e.g. ${variable}=${port + 1}`,
    ),
    { code: error.code, variable },
  );
}
