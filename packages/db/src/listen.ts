import type pg from 'pg';

export interface ChannelHandlers {
  /** A notification arrived on `channel`, with its payload ('' when none was given). */
  notified(payload: string, channel: string): void;
  /**
   * The LISTEN took effect (first time, or again after a lost connection). Whatever was
   * notified while not listening is lost, so callers catch up here.
   */
  listening(): void;
  /** The connection was lost or the LISTEN failed; a reconnection follows in a second. */
  lost(error: Error, stage: 'connect' | 'connection' | 'listen'): void;
}

export interface ChannelListener {
  /** Whether a LISTEN is in effect right now. */
  readonly active: boolean;
  /** Stops listening and hands the connection back. */
  close(): Promise<void>;
}

/**
 * LISTENs to `channel` (or to several channels) on a connection of its own taken from `pool`,
 * reconnecting a second after a failure (the server restarting or away: docs/operations.md,
 * "Database restarts and outages"). Each connection is given up once, whichever comes first
 * of its 'error' events (a server shutting down sends one, and closing the socket another)
 * and a failed LISTEN; then one reconnection follows.
 */
export function listenToChannel(
  pool: pg.Pool,
  channel: string | readonly string[],
  handlers: ChannelHandlers,
): ChannelListener {
  const channels = typeof channel === 'string' ? [channel] : [...channel];
  for (const name of channels) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain channel name: ${name}`);
  }
  if (channels.length === 0) throw new Error('No channel to listen to');
  let client: pg.PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const onNotification = (message: pg.Notification) => {
    if (channels.includes(message.channel)) handlers.notified(message.payload ?? '', message.channel);
  };
  const reconnect = () => {
    if (closed) return;
    clearTimeout(retry);
    retry = setTimeout(connect, 1_000);
  };
  const connect = async () => {
    retry = undefined;
    let connected: pg.PoolClient;
    try {
      connected = await pool.connect();
    } catch (error) {
      handlers.lost(asError(error), 'connect');
      reconnect();
      return;
    }
    let lost = false;
    const giveUp = (error: Error, stage: 'connection' | 'listen') => {
      if (lost) return;
      lost = true;
      if (client === connected) client = undefined;
      connected.removeListener('notification', onNotification);
      try {
        connected.release(error);
      } catch {
        // Already handed back (the pool may drop a client that lost its connection itself).
      }
      handlers.lost(error, stage);
      reconnect();
    };
    // Stays for the client's life: a second 'error' event must not go unheard either.
    connected.on('error', (error) => giveUp(error, 'connection'));
    connected.on('notification', onNotification);
    try {
      await connected.query(channels.map((name) => `listen ${name}`).join('; '));
    } catch (error) {
      giveUp(asError(error), 'listen');
      return;
    }
    if (lost) return;
    if (closed) {
      lost = true;
      connected.removeListener('notification', onNotification);
      connected.release();
      return;
    }
    client = connected;
    handlers.listening();
  };
  void connect();
  return {
    get active() {
      return client !== undefined;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      if (!current) return;
      current.removeListener('notification', onNotification);
      try {
        await current.query(channels.map((name) => `unlisten ${name}`).join('; '));
        current.release();
      } catch (error) {
        try {
          current.release(asError(error));
        } catch {
          // Already handed back after losing its connection.
        }
      }
    },
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
