import type { Database } from '@crm/db';
import { queueTriggeredRuns, type TriggeredRun } from '@crm/domain';

/** Most calls queued by one transaction. */
const MAX_BATCH = 200;

interface Pending {
  call: TriggeredRun;
  resolve: (runId: string) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for trigger calls. A call is queued at once when nothing is being written;
 * calls that arrive while a write is in flight wait for it and then go together in the next
 * one. So an idle service adds no delay, and a busy one commits many runs per transaction
 * (one disk flush, one worker notification) instead of one each. Every caller still hears
 * back only after its run is committed.
 */
export class TriggerBatcher {
  private waiting: Pending[] = [];
  private inFlight = 0;
  /** Writes at once; more than one keeps the database busy while a batch commits. */
  private readonly parallel: number;

  constructor(
    private readonly db: Database,
    options: { parallel?: number } = {},
  ) {
    this.parallel = options.parallel ?? 2;
  }

  queue(call: TriggeredRun): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ call, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.parallel && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const results = await queueTriggeredRuns(
        this.db,
        batch.map((p) => p.call),
      );
      results.forEach((result, i) => {
        if ('error' in result) batch[i]!.reject(result.error);
        else batch[i]!.resolve(result.runId);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}
