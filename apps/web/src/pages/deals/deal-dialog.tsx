import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { Dialog, Field, ListView, Loading, ProblemMessage, usePager } from '../../lib/components.tsx';
import { formatMoney } from '../../lib/format.ts';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { type PickedRecord, RecordChip, RecordPicker } from '../../lib/record-picker.tsx';

/** Participants a page of the dialog lists. */
const PARTICIPANTS_PAGE = 50;

/**
 * What a change of a deal's participants may have changed: the deal itself (removing its
 * primary record clears `recordId`), its list of records, and the deals listed on record pages.
 */
function invalidateDeal() {
  return Promise.all([
    queryClient.invalidateQueries(api.deals.pathFilter()),
    queryClient.invalidateQueries(api.records.deals.pathFilter()),
  ]);
}

/**
 * A deal in detail, over the page that opened it (the board, a record's deals): its stage,
 * amount and close date, and the records it involves (`deals.records`), each with its label
 * ("Decision maker") and whether it is the deal's primary record. Records of any folder are
 * added with a search and an optional label (`deals.linkRecord`; adding one that is there
 * changes its label) and removed (`deals.unlinkRecord`; removing the primary record clears the
 * deal's `recordId`).
 */
export function DealDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const deal = useQuery(api.deals.get.queryOptions({ id }));
  const pipelines = useQuery(api.pipelines.list.queryOptions({ pageSize: 200 }));
  const d = deal.data?.data;
  const pipeline = pipelines.data?.data.find((p) => p.id === d?.pipelineId);
  const stage = pipeline?.stages.find((s) => s.id === d?.stageId);
  const title = d ? (d.title ?? 'Untitled deal') : 'Deal';
  return (
    <Dialog title={title} onClose={onClose} className="deal-dialog">
      <ProblemMessage problem={problemOf(deal.error)} />
      {!d ? (
        deal.isPending ? (
          <Loading what="the deal" />
        ) : null
      ) : (
        <>
          <dl className="facts">
            <dt>Stage</dt>
            <dd>{pipeline && stage ? `${stage.name} (${pipeline.name})` : '—'}</dd>
            <dt>Amount</dt>
            <dd>{d.amount === null ? '—' : formatMoney(d.amount, d.currency)}</dd>
            <dt>Close date</dt>
            <dd>{d.closeDate ?? '—'}</dd>
          </dl>
          <Participants dealId={d.id} dealTitle={title} onNavigate={onClose} />
        </>
      )}
    </Dialog>
  );
}

function Participants({
  dealId,
  dealTitle,
  onNavigate,
}: {
  dealId: string;
  dealTitle: string;
  /** A record's page is opened from the list: the dialog closes. */
  onNavigate: () => void;
}) {
  const pager = usePager(dealId);
  const records = useQuery({
    ...api.deals.records.queryOptions({ id: dealId, pageSize: PARTICIPANTS_PAGE, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const folderName = (id: string) => folders.data?.data.find((f) => f.id === id)?.name ?? '';
  const remove = useMutation(
    api.deals.unlinkRecord.mutationOptions({
      onSuccess: async (_answer, input) => {
        const gone = records.data?.data.find((r) => r.id === input.to);
        announce(`Removed “${gone?.title ?? input.to}” from “${dealTitle}”.`);
        await invalidateDeal();
      },
    }),
  );
  const rows = records.data?.data ?? [];
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Participants</h3>
      <ProblemMessage problem={problemOf(remove.error)} />
      <ListView query={records} what="the participants" empty="No records linked yet." pager={pager}>
        {(page) => (
          <ul className="related-list">
            {page.map((r) => (
              <li key={r.id}>
                <RecordChip id={r.id} title={r.title} onOpen={onNavigate} />
                <small className="hint"> {folderName(r.folderId)}</small>
                {r.link.label ? <span className="badge link-label">{r.link.label}</span> : null}
                {r.link.primary ? <span className="badge">primary</span> : null}
                <button
                  type="button"
                  className="danger push-end"
                  aria-label={`Remove ${r.title} from the deal`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ id: dealId, to: r.id })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </ListView>
      <AddParticipant
        dealId={dealId}
        dealTitle={dealTitle}
        linked={rows.map((r) => r.id)}
        usedLabels={rows.flatMap((r) => (r.link.label ? [r.link.label] : []))}
      />
    </section>
  );
}

function AddParticipant({
  dealId,
  dealTitle,
  linked,
  usedLabels,
}: {
  dealId: string;
  dealTitle: string;
  linked: string[];
  usedLabels: string[];
}) {
  const [picked, setPicked] = useState<PickedRecord | null>(null);
  const [label, setLabel] = useState('');
  const listId = useId();
  const add = useMutation(
    api.deals.linkRecord.mutationOptions({
      onSuccess: async (answer) => {
        announce(
          answer.data.label
            ? `Added “${picked?.title}” to “${dealTitle}” as ${answer.data.label}.`
            : `Added “${picked?.title}” to “${dealTitle}”.`,
        );
        setPicked(null);
        setLabel('');
        await invalidateDeal();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!picked) return;
    add.mutate({ id: dealId, to: picked.id, ...(label.trim() ? { label: label.trim() } : {}) });
  };
  const problem = problemOf(add.error);
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Add a record to the deal" noValidate>
      <h4>Add a record</h4>
      <ProblemMessage problem={problem} paths={['to', 'label']} />
      <div className="row">
        {picked ? (
          <div className="field">
            <span className="field-label">Record</span>
            <span>
              <RecordChip id={picked.id} title={picked.title} />{' '}
              <button type="button" onClick={() => setPicked(null)}>
                Choose another
              </button>
            </span>
          </div>
        ) : (
          <RecordPicker
            label="Record"
            exclude={linked}
            onPick={setPicked}
            error={problem?.fields.to}
            hint="A record of any folder"
          />
        )}
        <Field
          label="Label (optional)"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          list={listId}
          maxLength={100}
          hint="What the record is to the deal: Decision maker, Champion …"
          error={problem?.fields.label}
        />
        <datalist id={listId}>
          {[...new Set(usedLabels)].map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
      </div>
      <button type="submit" disabled={!picked || add.isPending}>
        Add to the deal
      </button>
    </form>
  );
}
