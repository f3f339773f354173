import { type Database, isSharded, listenToChannel } from '@crm/db';
import {
  type AttemptVerdict,
  type ClaimedDelivery,
  claimDueDeliveries,
  DEFAULT_LEASE_MS,
  DELIVERY_CHANNEL,
  type DeliveryAttempt,
  releaseDeliveries,
  saveDeliveryAttempts,
} from '@crm/domain';
import type pg from 'pg';
import { createDeliveryAgents, type DeliveryOptions, sendDelivery } from './deliver.ts';

interface DispatcherLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Told about every attempt once it is recorded (metrics). */
interface DeliveryObserver {
  /** `startedAt` is when the attempt began; undefined when the delivery closed without one. */
  recorded(delivery: ClaimedDelivery, verdict: AttemptVerdict, startedAt: Date | undefined): void;
}

export interface DispatcherOptions {
  db: Database;
  /** Pool of `db`; one of its connections listens for new deliveries. */
  pool: pg.Pool;
  outbound: DeliveryOptions;
  logger: DispatcherLogger;
  /** Attempts in flight at once in this process (default 64); half of them at most to one subscription. */
  concurrency?: number;
  /** Most deliveries claimed, and attempts recorded, per statement (default 100). */
  batchSize?: number;
  /** How often due deliveries are looked for without a notification: retries, lost notifications (default 1000). */
  pollIntervalMs?: number;
  /** How long a claim lasts (default 60 s); a worker that dies leaves its deliveries for this long. */
  leaseMs?: number;
  observer?: DeliveryObserver;
}

export interface Dispatcher {
  /** Stops claiming and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
  /** What it is doing now (metrics read it when scraped). */
  activity(): DispatcherActivity;
}

/**
 * Attempts claimed and not yet recorded, and how long the statement under way of each kind
 * has been running: seconds that keep growing mean a statement that does not return.
 */
export interface DispatcherActivity {
  /** Attempts being sent. */
  sending: number;
  /** Attempts sent, waiting for their recording or in it. */
  recording: number;
  /** Seconds the claim under way has been running (retries of a failed one included); 0 when none. */
  claimSeconds: number;
  /** Seconds the recording under way has been running (its retries included); 0 when none. */
  recordSeconds: number;
}

/**
 * Sends webhook deliveries. The deliveries table is the queue: this loop claims due
 * deliveries in batches (several processes share the table through SKIP LOCKED), sends them
 * concurrently over keep-alive connections, and records the finished attempts together in
 * one statement. It wakes on the notification a committed change sends, and polls for
 * retries that come due.
 */
export async function startDispatcher(options: DispatcherOptions): Promise<Dispatcher> {
  const { db, outbound, logger } = options;
  const concurrency = options.concurrency ?? 64;
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  // A receiver that hangs keeps its attempts in flight for the whole timeout. Half the slots
  // at most go to one subscription, so it cannot take them all from the others: a claim
  // skips subscriptions that have that many in flight, and what a claim brings beyond it is
  // given back unsent.
  const perWebhook = Math.max(1, Math.ceil(concurrency / 2));
  const inFlightByWebhook = new Map<string, number>();
  // As many connections to one host as attempts in flight: an attempt never queues inside
  // the agent, where its connect deadline would run while it waits for a connection.
  const agents = createDeliveryAgents(concurrency);

  let stopping = false;
  let inFlight = 0;
  let claiming = false;
  let claimed: Promise<void> = Promise.resolve();
  let wanted = false;
  let flushing = false;
  const finished: DeliveryAttempt[] = [];
  /** Attempts in the recording under way. */
  let beingRecorded = 0;
  /** When the claim, and the recording, under way began. */
  let claimSince: number | undefined;
  let recordSince: number | undefined;
  let drained: (() => void) | undefined;

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // On a sharded database, finding due deliveries asks every shard (docs/scaling.md), so that
  // is done only when nothing narrower will do: at start, on each poll, after a reconnect, and
  // while the last such look came back full. A notification names the workspace of its new
  // deliveries, and those workspaces are claimed from alone, until a claim leaves them empty.
  // On one server every claim looks at every workspace, as one statement.
  const sharded = await isSharded(db);
  let lookEverywhere = true;
  const told = new Map<string, number>();
  let telling = 0;

  /** Claims now, or as soon as the claim under way ends. */
  const refill = () => {
    wanted = true;
    if (claiming || stopping) return;
    claiming = true;
    claimed = claim();
  };
  /** As `refill`, for new deliveries of the workspace named, or of any when none is. */
  const wake = (workspaceId = '') => {
    if (sharded && workspaceId) told.set(workspaceId, ++telling);
    else lookEverywhere = true;
    refill();
  };

  /** Claims while there is room and the last claim came back full; again when woken meanwhile. */
  async function claim(): Promise<void> {
    while (wanted && !stopping) {
      wanted = false;
      try {
        while (!stopping) {
          const room = Math.min(batchSize, concurrency - inFlight);
          if (room <= 0) break;
          const busy = [...inFlightByWebhook].filter(([, n]) => n >= perWebhook).map(([id]) => id);
          const everywhere = !sharded || lookEverywhere;
          const asked = new Map(told);
          if (!everywhere && asked.size === 0) break;
          lookEverywhere = false;
          claimSince ??= Date.now();
          const deliveries = await claimDueDeliveries(
            db,
            room,
            leaseMs,
            busy,
            everywhere ? undefined : [...asked.keys()],
          );
          if (deliveries.length < room) {
            // Every workspace looked at is empty now, unless told again meanwhile.
            for (const [workspaceId, at] of asked) if (told.get(workspaceId) === at) told.delete(workspaceId);
          } else if (everywhere) lookEverywhere = true;
          const excess: ClaimedDelivery[] = [];
          for (const delivery of deliveries) {
            if ((inFlightByWebhook.get(delivery.webhookId) ?? 0) < perWebhook) void attempt(delivery);
            else excess.push(delivery);
          }
          await releaseDeliveries(db, excess);
          claimSince = undefined;
          if (deliveries.length < room) break;
        }
      } catch (error) {
        logger.error({ err: error }, 'claiming webhook deliveries failed');
        wanted = true;
        lookEverywhere = true;
        await pause(pollIntervalMs);
      }
    }
    claimSince = undefined;
    claiming = false;
  }

  async function attempt(delivery: ClaimedDelivery) {
    inFlight++;
    inFlightByWebhook.set(delivery.webhookId, (inFlightByWebhook.get(delivery.webhookId) ?? 0) + 1);
    const { event } = delivery;
    const startedAt = new Date();
    let outcome: DeliveryAttempt['outcome'];
    try {
      // A disabled subscription or an event no longer kept: closed without sending.
      outcome =
        event && delivery.webhook.enabled ? await sendDelivery(delivery, event, outbound, agents) : null;
    } catch (error) {
      // Whatever went wrong with this delivery (its secret cannot be read, say) is its own
      // failed attempt, retried on its schedule; the other deliveries of the claim go on.
      logger.error({ err: error, deliveryId: delivery.id }, 'a webhook delivery could not be sent');
      outcome = {
        startedAt,
        durationMs: Date.now() - startedAt.getTime(),
        error: 'The delivery could not be prepared',
      };
    }
    finished.push({ delivery, outcome });
    void flush();
  }

  /** Records what has finished, in batches; one recording at a time, so they grow under load. */
  async function flush() {
    if (flushing) return;
    flushing = true;
    while (finished.length > 0) {
      const batch = finished.splice(0, batchSize);
      beingRecorded = batch.length;
      recordSince = Date.now();
      const verdicts = await saveWithRetries(batch);
      recordSince = undefined;
      beingRecorded = 0;
      inFlight -= batch.length;
      for (const { delivery } of batch) {
        const left = (inFlightByWebhook.get(delivery.webhookId) ?? 1) - 1;
        if (left > 0) inFlightByWebhook.set(delivery.webhookId, left);
        else inFlightByWebhook.delete(delivery.webhookId);
      }
      if (verdicts) report(batch, verdicts);
    }
    flushing = false;
    if (inFlight === 0) drained?.();
    if (!stopping) refill();
  }

  /**
   * A failed recording is tried again a few times; after that the claims simply run out
   * and the deliveries are sent again (at least once).
   */
  async function saveWithRetries(batch: DeliveryAttempt[]) {
    for (let tries = 1; ; tries++) {
      try {
        return await saveDeliveryAttempts(db, batch, outbound.retry);
      } catch (error) {
        logger.error({ err: error, deliveries: batch.length, tries }, 'recording webhook attempts failed');
        if (tries >= 3) return null;
        await pause(pollIntervalMs);
      }
    }
  }

  function report(batch: DeliveryAttempt[], verdicts: Map<string, AttemptVerdict>) {
    for (const { delivery, outcome } of batch) {
      const verdict = verdicts.get(delivery.id);
      if (verdict) options.observer?.recorded(delivery, verdict, outcome?.startedAt);
      if (verdict === 'disabled')
        logger.warn(
          { deliveryId: delivery.id, webhookId: delivery.webhookId },
          'webhook subscription disabled',
        );
      else if (verdict === 'lost')
        logger.warn({ deliveryId: delivery.id }, 'a webhook attempt ran past its claim and was not recorded');
    }
  }

  const messages = {
    connect: 'the webhook delivery listener could not connect',
    connection: 'the webhook delivery listener lost its connection',
    listen: 'the webhook delivery listener could not listen',
  };
  const listener = listenToChannel(options.pool, DELIVERY_CHANNEL, {
    // The payload names the workspace of the new deliveries (empty from older writers).
    notified: (workspaceId) => wake(workspaceId),
    // Whatever was notified while not listening is found now.
    listening: () => wake(),
    lost: (error, stage) => {
      if (!stopping) logger.error({ err: error }, messages[stage]);
    },
  });
  const poller = setInterval(() => wake(), pollIntervalMs);
  wake();

  const secondsSince = (since: number | undefined) => (since === undefined ? 0 : (Date.now() - since) / 1000);
  return {
    activity() {
      const recording = finished.length + beingRecorded;
      return {
        sending: inFlight - recording,
        recording,
        claimSeconds: secondsSince(claimSince),
        recordSeconds: secondsSince(recordSince),
      };
    },
    async stop() {
      stopping = true;
      clearInterval(poller);
      await listener.close();
      await claimed;
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      agents.destroy();
    },
  };
}
