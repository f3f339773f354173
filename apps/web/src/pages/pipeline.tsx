import { type DragEvent, type FormEvent, useEffect, useState } from 'react';
import { announce } from '../lib/announcer.tsx';
import { Field, Loading, PageHeader, ProblemMessage, SelectField } from '../lib/components.tsx';
import { trpc } from '../lib/trpc.ts';
import { useData, useSubmit } from '../lib/use-data.ts';

/** At most this many deals are put on the board (5 pages of 200). */
const MAX_DEALS = 1000;

async function loadDeals(pipelineId: string) {
  const deals = [];
  let cursor: string | undefined;
  do {
    const page = await trpc.deals.list.query({ pipelineId, pageSize: 200, cursor });
    deals.push(...page.data);
    cursor = page.meta.nextCursor ?? undefined;
  } while (cursor && deals.length < MAX_DEALS);
  return { deals, truncated: Boolean(cursor) };
}

/**
 * Deals in stage columns. A deal moves with its "Move to" menu (keyboard and screen reader
 * friendly) or by dragging it onto another column; either is the same deals.update call as
 * PATCH /api/v1/deals/:id, so the same deal.stage_changed event fires.
 */
export function PipelinePage() {
  const pipelines = useData(() => trpc.pipelines.list.query({ pageSize: 200 }), []);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  useEffect(() => {
    if (!pipelineId && pipelines.data?.data[0]) setPipelineId(pipelines.data.data[0].id);
  }, [pipelines.data, pipelineId]);
  const deals = useData(
    () => (pipelineId ? loadDeals(pipelineId) : Promise.resolve(undefined)),
    [pipelineId],
  );
  // Counts and sums per stage and currency, over every deal, made by the server.
  const summary = useData(
    () => (pipelineId ? trpc.pipelines.summary.query({ id: pipelineId }) : Promise.resolve(undefined)),
    [pipelineId],
  );
  const [dragging, setDragging] = useState<string | null>(null);
  const move = useSubmit((dealId: string, stageId: string) =>
    trpc.deals.update.mutate({ id: dealId, stageId }),
  );
  const pipeline = pipelines.data?.data.find((p) => p.id === pipelineId);

  const moveTo = async (dealId: string, stageId: string) => {
    const moved = await move.run(dealId, stageId);
    if (moved) {
      const stage = pipeline?.stages.find((s) => s.id === stageId)?.name ?? stageId;
      announce(`Moved “${moved.data.title}” to ${stage}.`);
      deals.reload();
      summary.reload();
    }
  };
  const onDrop = (stageId: string) => (event: DragEvent) => {
    event.preventDefault();
    const dealId = event.dataTransfer.getData('text/plain');
    setDragging(null);
    if (dealId) void moveTo(dealId, stageId);
  };

  return (
    <>
      <PageHeader title="Pipeline">
        {pipelines.data && pipelines.data.data.length > 1 ? (
          <SelectField
            label="Pipeline"
            value={pipelineId ?? ''}
            onChange={(e) => setPipelineId(e.target.value)}
            options={pipelines.data.data.map((p) => ({ value: p.id, label: p.name }))}
          />
        ) : null}
      </PageHeader>
      <ProblemMessage problem={pipelines.problem ?? deals.problem ?? summary.problem ?? move.problem} />
      {!pipeline || !deals.data ? (
        <Loading what="the board" />
      ) : (
        <>
          {deals.data.truncated ? <p className="hint">Showing the newest {MAX_DEALS} deals.</p> : null}
          <div className="board">
            {pipeline.stages.map((stage) => {
              const inStage = deals.data!.deals.filter((d) => d.stageId === stage.id);
              const counted = summary.data?.data.stages.find((s) => s.stageId === stage.id);
              return (
                <section
                  key={stage.id}
                  className={`column${dragging ? ' droppable' : ''}`}
                  aria-label={`Stage ${stage.name}`}
                  data-stage={stage.name}
                  onDragOver={(e) => e.preventDefault()}
                  onDrop={onDrop(stage.id)}
                >
                  <h2>
                    {stage.name} <small>({counted?.count ?? inStage.length})</small>
                  </h2>
                  {counted && counted.totals.length > 0 ? (
                    <p className="hint stage-totals">
                      {counted.totals.map((t) => formatMoney(t.amount, t.currency)).join(' · ')}
                    </p>
                  ) : null}
                  <ul>
                    {inStage.map((deal) => (
                      <li
                        key={deal.id}
                        className="deal"
                        draggable
                        onDragStart={(e) => {
                          e.dataTransfer.setData('text/plain', deal.id);
                          setDragging(deal.id);
                        }}
                        onDragEnd={() => setDragging(null)}
                      >
                        <strong>{deal.title}</strong>
                        {deal.amount !== null ? (
                          <span>
                            {' '}
                            {deal.amount.toLocaleString()} {deal.currency}
                          </span>
                        ) : null}
                        <SelectField
                          label={`Move “${deal.title}” to`}
                          value={deal.stageId}
                          disabled={move.busy}
                          onChange={(e) => moveTo(deal.id, e.target.value)}
                          options={pipeline.stages.map((s) => ({ value: s.id, label: s.name }))}
                        />
                      </li>
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
          <AddDealForm
            pipelineId={pipeline.id}
            stages={pipeline.stages}
            onAdded={() => {
              deals.reload();
              summary.reload();
            }}
          />
        </>
      )}
    </>
  );
}

function AddDealForm({
  pipelineId,
  stages,
  onAdded,
}: {
  pipelineId: string;
  stages: { id: string; name: string }[];
  onAdded: () => void;
}) {
  const [title, setTitle] = useState('');
  const [amount, setAmount] = useState('');
  const [stageId, setStageId] = useState(stages[0]?.id ?? '');
  const submit = useSubmit(() =>
    trpc.deals.create.mutate({
      pipelineId,
      stageId,
      title,
      ...(amount ? { amount: Number(amount) } : {}),
    }),
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit.run()) {
      setTitle('');
      setAmount('');
      onAdded();
    }
  };
  const errors = submit.problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Add a deal" noValidate>
      <h2>Add a deal</h2>
      <ProblemMessage problem={submit.problem} paths={['title', 'amount', 'stageId']} />
      <div className="row">
        <Field
          label="Deal"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={errors.title}
          required
        />
        <Field
          label="Amount"
          type="number"
          min="0"
          step="0.01"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={errors.amount}
        />
        <SelectField
          label="Stage"
          value={stageId}
          onChange={(e) => setStageId(e.target.value)}
          options={stages.map((s) => ({ value: s.id, label: s.name }))}
          error={errors.stageId}
        />
      </div>
      <button type="submit" disabled={submit.busy}>
        Add deal
      </button>
    </form>
  );
}

/** An amount in its currency (`$1,250.50`, `€100.10`); a code the browser does not know is written after the number. */
function formatMoney(amount: number, currency: string): string {
  try {
    return amount.toLocaleString(undefined, { style: 'currency', currency });
  } catch {
    return `${amount.toLocaleString(undefined, { minimumFractionDigits: 2 })} ${currency}`;
  }
}
