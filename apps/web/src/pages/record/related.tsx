import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { ListView, ProblemMessage, SelectField, usePager } from '../../lib/components.tsx';
import { formatMoney } from '../../lib/format.ts';
import { api, type Outputs, problemOf, queryClient } from '../../lib/query.ts';
import { type PickedRecord, RecordChip, RecordPicker } from '../../lib/record-picker.tsx';
import { DealDialog } from '../deals/deal-dialog.tsx';

type FolderField = Outputs['folders']['get']['data']['fields'][number];
type Relation = NonNullable<FolderField['relation']>;

/** Linked records a page of a related list shows. */
const RELATED_PAGE = 20;

/**
 * A link made or undone changes both records (a ONE value in `data`, the other side's list),
 * their timelines and the lists that show them: every records query is read again.
 */
function invalidateLinks() {
  return queryClient.invalidateQueries(api.records.pathFilter());
}

/**
 * The records one RELATION field of a record links to (`records.related`), each with its link
 * label, a menu that changes the label (the field's labels), and Remove (`records.unlink`);
 * then a search of the field's folder and a label to link one more (`records.link`). On a ONE
 * field the record linked replaces the one before, as the API does. An inverse field lists
 * what links here from the other folder (a company's people), and links the same way.
 */
export function RelatedRecords({
  recordId,
  recordTitle,
  field,
  relation,
  folderName,
}: {
  recordId: string;
  recordTitle: string;
  field: FolderField;
  relation: Relation;
  /** The name of the folder the field links to. */
  folderName: string;
}) {
  const headingId = useId();
  const pager = usePager(`${recordId} ${field.key}`);
  const related = useQuery({
    ...api.records.related.queryOptions({
      id: recordId,
      field: field.key,
      pageSize: RELATED_PAGE,
      count: 'true',
      cursor: pager.cursor,
    }),
    placeholderData: keepPreviousData,
  });
  const unlink = useMutation(
    api.records.unlink.mutationOptions({
      onSuccess: async (_answer, input) => {
        const gone = related.data?.data.find((r) => r.id === input.to);
        announce(`Removed “${gone?.title ?? input.to}” from ${field.label} of “${recordTitle}”.`);
        await invalidateLinks();
      },
    }),
  );
  const relabel = useMutation(
    api.records.link.mutationOptions({
      onSuccess: async (answer) => {
        announce(answer.data.label ? `Label changed to ${answer.data.label}.` : 'Label taken off the link.');
        await invalidateLinks();
      },
    }),
  );
  const labels = relation.labels ?? [];
  const rows = related.data?.data ?? [];
  const total = related.data?.meta.total;
  const one = relation.cardinality === 'ONE';
  return (
    <section aria-labelledby={headingId} className="related" data-field={field.key}>
      <h3 id={headingId}>
        {field.label}{' '}
        <small className="hint">
          {one ? `one record of ${folderName}` : `records of ${folderName}`}
          {typeof total === 'number' && !one ? ` · ${total}` : ''}
        </small>
      </h3>
      <ProblemMessage problem={problemOf(unlink.error ?? relabel.error)} />
      <ListView
        query={related}
        what={field.label}
        empty={one ? 'None linked.' : 'None linked yet.'}
        pager={pager}
      >
        {(page) => (
          <ul className="related-list" aria-label={field.label}>
            {page.map((r) => (
              <li key={r.id}>
                <RecordChip id={r.id} title={r.title} />
                {r.email ? <small className="hint"> {r.email}</small> : null}
                {labels.length > 0 ? (
                  <select
                    aria-label={`Label of ${r.title}`}
                    value={r.link.label ?? ''}
                    disabled={relabel.isPending}
                    onChange={(e) =>
                      relabel.mutate({
                        id: recordId,
                        field: field.key,
                        to: r.id,
                        label: e.target.value === '' ? null : e.target.value,
                      })
                    }
                  >
                    <option value="">(no label)</option>
                    {/* A label taken off the field stays on its links until changed. */}
                    {[...new Set([...labels, ...(r.link.label ? [r.link.label] : [])])].map((l) => (
                      <option key={l} value={l}>
                        {l}
                      </option>
                    ))}
                  </select>
                ) : r.link.label ? (
                  <span className="badge link-label">{r.link.label}</span>
                ) : null}
                <button
                  type="button"
                  className="danger push-end"
                  aria-label={`Remove ${r.title} from ${field.label}`}
                  disabled={unlink.isPending}
                  onClick={() => unlink.mutate({ id: recordId, field: field.key, to: r.id })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </ListView>
      <AddLink
        recordId={recordId}
        field={field}
        relation={relation}
        folderName={folderName}
        linked={[recordId, ...rows.map((r) => r.id)]}
        replaces={one && rows.length > 0}
      />
    </section>
  );
}

function AddLink({
  recordId,
  field,
  relation,
  folderName,
  linked,
  replaces,
}: {
  recordId: string;
  field: FolderField;
  relation: Relation;
  folderName: string;
  linked: string[];
  replaces: boolean;
}) {
  const labels = relation.labels ?? [];
  const [label, setLabel] = useState('');
  const [chosen, setChosen] = useState<PickedRecord | null>(null);
  const link = useMutation(
    api.records.link.mutationOptions({
      onSuccess: async (answer) => {
        announce(
          `Linked “${chosen?.title}” as ${field.label}${answer.data.label ? ` (${answer.data.label})` : ''}.`,
        );
        setChosen(null);
        setLabel('');
        await invalidateLinks();
      },
    }),
  );
  const problem = problemOf(link.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    link.mutate({ id: recordId, field: field.key, to: chosen.id, ...(label ? { label } : {}) });
  };
  return (
    <form onSubmit={onSubmit} className="add-link" aria-label={`Link to ${field.label}`} noValidate>
      <ProblemMessage problem={problem} paths={['to', 'label']} />
      <div className="inline">
        {chosen ? (
          <div className="field">
            <span className="field-label">{replaces ? `New ${field.label}` : `Add to ${field.label}`}</span>
            <span>
              <RecordChip id={chosen.id} title={chosen.title} />{' '}
              <button type="button" onClick={() => setChosen(null)}>
                Choose another
              </button>
            </span>
          </div>
        ) : (
          <RecordPicker
            label={replaces ? `Replace ${field.label} with` : `Add to ${field.label}`}
            folderId={relation.folderId}
            exclude={linked}
            onPick={setChosen}
            error={problem?.fields.to}
            hint={`A record of ${folderName}`}
          />
        )}
        {labels.length > 0 ? (
          <SelectField
            label={`Label for ${field.label}`}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            options={[{ value: '', label: '(no label)' }, ...labels.map((l) => ({ value: l, label: l }))]}
            error={problem?.fields.label}
          />
        ) : null}
        <button type="submit" disabled={!chosen || link.isPending}>
          {replaces ? 'Replace' : 'Link'}
        </button>
      </div>
    </form>
  );
}

/** Deals a page of a record's deals shows. */
const DEALS_PAGE = 20;

/**
 * The deals linked to a record (`records.deals`), with the label of each link: those whose
 * primary record it is and those it takes part in. Each opens in the deal dialog, with its
 * participants and their labels.
 */
export function RecordDeals({ recordId }: { recordId: string }) {
  const pager = usePager(recordId);
  const deals = useQuery({
    ...api.records.deals.queryOptions({ id: recordId, pageSize: DEALS_PAGE, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const pipelines = useQuery(api.pipelines.list.queryOptions({ pageSize: 200 }));
  const [opened, setOpened] = useState<string | null>(null);
  const stageOf = (pipelineId: string, stageId: string) => {
    const pipeline = pipelines.data?.data.find((p) => p.id === pipelineId);
    const stage = pipeline?.stages.find((s) => s.id === stageId);
    return stage
      ? `${stage.name}${(pipelines.data?.data.length ?? 0) > 1 ? ` (${pipeline?.name})` : ''}`
      : '';
  };
  return (
    <section aria-labelledby="deals-heading">
      <h2 id="deals-heading">Deals</h2>
      <ListView query={deals} what="deals" empty="No deals involve this record." pager={pager}>
        {(rows) => (
          <ul className="feed record-deals">
            {rows.map((d) => (
              <li key={d.id}>
                <button type="button" className="link" aria-haspopup="dialog" onClick={() => setOpened(d.id)}>
                  {d.title ?? 'Untitled deal'}
                </button>
                <small>
                  {' '}
                  {[
                    stageOf(d.pipelineId, d.stageId),
                    d.amount === null ? '' : formatMoney(d.amount, d.currency),
                    d.link.primary ? 'primary record' : '',
                    d.link.label ?? '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </small>
              </li>
            ))}
          </ul>
        )}
      </ListView>
      {opened ? <DealDialog id={opened} onClose={() => setOpened(null)} /> : null}
    </section>
  );
}
