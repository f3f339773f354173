import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { ProblemMessage, SelectField } from '../../lib/components.tsx';
import { api, type Outputs, problemOf, queryClient } from '../../lib/query.ts';
import { reasonOf } from '../../lib/record-checks.ts';
import { trpc } from '../../lib/trpc.ts';
import type { Member, RecordItem } from './model.ts';

type BatchAnswer = Outputs['records']['batchTrash'];

/** A row a batch refused: its title and the reason the server gave. */
interface Refused {
  title: string;
  reason: string;
}

/**
 * What can be done to the selected rows at once, each through one batch call (docs/api.md,
 * "Batch writes"; a page holds at most one batch): move them to Trash, or give them an owner.
 * Items the server refuses are listed with their reasons; the others are done.
 */
export function BulkActions({
  selected,
  members,
  onDone,
}: {
  selected: RecordItem[];
  members: Member[];
  onDone: () => void;
}) {
  const [chosen, setOwnerId] = useState('');
  // The members may arrive after the bar: the first is the default until one is chosen.
  const ownerId = chosen || members[0]?.id || '';
  const [refused, setRefused] = useState<{ what: string; rows: Refused[] } | null>(null);
  const batch = useMutation({
    mutationFn: ({ call }: { what: string; call: () => Promise<BatchAnswer>; done: (n: number) => string }) =>
      call(),
    onMutate: () => setRefused(null),
    onSuccess: async (answer, { what, done }) => {
      const rows = answer.data.flatMap((entry) =>
        'error' in entry
          ? [
              {
                title: selected[entry.index]?.title ?? `Row ${entry.index + 1}`,
                reason: reasonOf(entry.error),
              },
            ]
          : [],
      );
      setRefused(rows.length > 0 ? { what, rows } : null);
      announce(
        rows.length > 0
          ? `${done(answer.meta.succeeded)} ${rows.length} could not be changed: see the list.`
          : done(answer.meta.succeeded),
      );
      await queryClient.invalidateQueries(api.records.list.pathFilter());
      onDone();
    },
  });
  const busy = batch.isPending;
  const run = (what: string, call: () => Promise<BatchAnswer>, done: (n: number) => string) =>
    batch.mutate({ what, call, done });
  const plural = (n: number) => `${n} record${n === 1 ? '' : 's'}`;
  const onTrash = () =>
    run(
      'Move to Trash',
      () => trpc.records.batchTrash.mutate({ ids: selected.map((r) => r.id) }),
      (n) => `Moved ${plural(n)} to Trash.`,
    );
  const onAssign = (event: FormEvent) => {
    event.preventDefault();
    const owner = members.find((m) => m.id === ownerId);
    run(
      'Assign owner',
      () => trpc.records.batchUpdate.mutate({ items: selected.map((r) => ({ id: r.id, ownerId })) }),
      (n) => `Gave ${plural(n)} the owner ${owner?.name ?? ownerId}.`,
    );
  };
  return (
    <section className="bulk" aria-label="Selected records">
      {selected.length > 0 ? (
        <form className="inline" onSubmit={onAssign}>
          <p className="count">{plural(selected.length)} selected</p>
          <button type="button" className="danger" onClick={onTrash} disabled={busy}>
            Move to Trash
          </button>
          <SelectField
            label="Owner"
            value={ownerId}
            onChange={(e) => setOwnerId(e.target.value)}
            options={members.map((m) => ({ value: m.id, label: `${m.name} (${m.email})` }))}
          />
          <button type="submit" disabled={busy || !ownerId}>
            Assign owner
          </button>
        </form>
      ) : null}
      <ProblemMessage problem={problemOf(batch.error)} />
      {refused ? (
        <div className="problem">
          <p>
            {refused.what}: {refused.rows.length} of the selected records could not be changed.
          </p>
          <ul>
            {refused.rows.map((r) => (
              <li key={`${r.title} ${r.reason}`}>
                {r.title}: {r.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
