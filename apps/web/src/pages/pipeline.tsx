import { type InfiniteData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { type DragEvent, type FormEvent, useMemo, useState } from 'react';
import { announce } from '../lib/announcer.tsx';
import { Field, Loading, PageHeader, ProblemMessage, SelectField } from '../lib/components.tsx';
import { formatMoney } from '../lib/format.ts';
import { NoPipeline, PipelinePicker, usePipelineChoice } from '../lib/pipeline-picker.tsx';
import { api, type Outputs, problemOf, queryClient } from '../lib/query.ts';
import { DealDialog } from './deals/deal-dialog.tsx';

/** Deals a column shows at first, and adds with each "Show more". */
const COLUMN_PAGE = 50;

type DealPage = Outputs['deals']['list'];
type Deal = DealPage['data'][number];
type Summary = Outputs['pipelines']['summary'];
type Stage = Outputs['pipelines']['list']['data'][number]['stages'][number];

const columnInput = (pipelineId: string, stageId: string) => ({ pipelineId, stageId, pageSize: COLUMN_PAGE });

/**
 * Deals in stage columns. Each column pages through its own stage's deals; the counts and the
 * per-currency totals above a column are the server's, over every deal in the stage. A deal
 * moves with its "Move to" menu (keyboard and screen reader friendly) or by dragging it onto
 * another column; either is the same deals.update call as PATCH /api/v1/deals/:id, so the
 * same deal.stage_changed event fires. The move shows at once and is undone if the server
 * refuses it. A deal's title opens it in a dialog with the records it involves.
 */
export function PipelinePage() {
  const choice = usePipelineChoice();
  const { pipelines, pipelineId, pipeline } = choice;
  const summary = useQuery({
    ...api.pipelines.summary.queryOptions({ id: pipelineId ?? '' }),
    enabled: Boolean(pipelineId),
  });
  const [dragging, setDragging] = useState<string | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const move = useMoveDeal(pipeline);
  // A refused move says the deal is back where it was (one object per error: announced once).
  const refused = useMemo(() => {
    const problem = problemOf(move.error);
    return problem
      ? { ...problem, message: `The deal could not be moved: ${problem.message}. It is back where it was.` }
      : null;
  }, [move.error]);

  const moveTo = (deal: Deal, stageId: string) => {
    if (deal.stageId !== stageId) move.mutate({ id: deal.id, stageId });
  };
  const onDrop = (stageId: string) => (event: DragEvent) => {
    event.preventDefault();
    const dealId = event.dataTransfer.getData('text/plain');
    setDragging(null);
    const deal = dealId && pipeline ? findDeal(pipeline.id, dealId) : undefined;
    if (deal) moveTo(deal, stageId);
  };

  return (
    <>
      <PageHeader title="Pipeline">
        <PipelinePicker choice={choice} />
      </PageHeader>
      <ProblemMessage problem={problemOf(pipelines.error ?? summary.error)} />
      <ProblemMessage problem={refused} />
      {!pipeline ? (
        <NoPipeline choice={choice} what="the board" />
      ) : (
        <>
          <div className="board">
            {pipeline.stages.map((stage) => (
              <StageColumn
                key={stage.id}
                pipelineId={pipeline.id}
                stage={stage}
                stages={pipeline.stages}
                counted={summary.data?.data.stages.find((s) => s.stageId === stage.id)}
                droppable={Boolean(dragging)}
                onDrop={onDrop(stage.id)}
                onDrag={setDragging}
                onMove={moveTo}
                onOpen={setOpened}
              />
            ))}
          </div>
          <AddDealForm
            pipelineId={pipeline.id}
            stages={pipeline.stages}
            onAdded={(stageId) => {
              void queryClient.invalidateQueries(
                api.deals.list.infiniteQueryFilter(columnInput(pipeline.id, stageId)),
              );
              void queryClient.invalidateQueries(api.pipelines.summary.queryFilter({ id: pipeline.id }));
            }}
          />
        </>
      )}
      {opened ? <DealDialog id={opened} onClose={() => setOpened(null)} /> : null}
    </>
  );
}

function StageColumn({
  pipelineId,
  stage,
  stages,
  counted,
  droppable,
  onDrop,
  onDrag,
  onMove,
  onOpen,
}: {
  pipelineId: string;
  stage: Stage;
  stages: Stage[];
  counted: Summary['data']['stages'][number] | undefined;
  droppable: boolean;
  onDrop: (event: DragEvent) => void;
  onDrag: (dealId: string | null) => void;
  onMove: (deal: Deal, stageId: string) => void;
  onOpen: (dealId: string) => void;
}) {
  const deals = useInfiniteQuery(
    api.deals.list.infiniteQueryOptions(columnInput(pipelineId, stage.id), {
      getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
    }),
  );
  const shown = deals.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section
      className={`column${droppable ? ' droppable' : ''}`}
      aria-label={`Stage ${stage.name}`}
      data-stage={stage.name}
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <h2>
        {stage.name} <small>({counted?.count ?? shown.length})</small>
      </h2>
      {counted && counted.totals.length > 0 ? (
        <p className="hint stage-totals">
          {counted.totals.map((t) => formatMoney(t.amount, t.currency)).join(' · ')}
        </p>
      ) : null}
      <ProblemMessage problem={problemOf(deals.error)} />
      {deals.isPending ? <Loading what="deals" /> : null}
      <ul>
        {shown.map((deal) => (
          <li
            key={deal.id}
            className="deal"
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData('text/plain', deal.id);
              onDrag(deal.id);
            }}
            onDragEnd={() => onDrag(null)}
          >
            <button
              type="button"
              className="link deal-title"
              aria-haspopup="dialog"
              onClick={() => onOpen(deal.id)}
            >
              {deal.title ?? 'Untitled deal'}
            </button>
            {deal.amount !== null ? (
              <span>
                {' '}
                {deal.amount.toLocaleString()} {deal.currency}
              </span>
            ) : null}
            <SelectField
              label={`Move “${deal.title}” to`}
              value={deal.stageId}
              onChange={(e) => onMove(deal, e.target.value)}
              options={stages.map((s) => ({ value: s.id, label: s.name }))}
            />
          </li>
        ))}
      </ul>
      {deals.hasNextPage ? (
        <button type="button" onClick={() => deals.fetchNextPage()} disabled={deals.isFetchingNextPage}>
          Show more
        </button>
      ) : null}
    </section>
  );
}

/** The cached pages of every column of a pipeline. */
function columns(pipelineId: string) {
  return queryClient.getQueriesData<InfiniteData<DealPage>>(
    api.deals.list.infiniteQueryFilter({ pipelineId }),
  );
}

function findDeal(pipelineId: string, dealId: string): Deal | undefined {
  for (const [, data] of columns(pipelineId)) {
    for (const page of data?.pages ?? []) {
      const deal = page.data.find((d) => d.id === dealId);
      if (deal) return deal;
    }
  }
  return undefined;
}

/**
 * A stage move, shown before the server answers: the deal leaves its column's cached pages and
 * heads the target column's, and the two stages' counts and totals change by the deal. On a
 * refusal every cache goes back to what it was; either way the two columns and the summary are
 * read again afterwards, so the board ends on the server's truth.
 */
function useMoveDeal(pipeline: { id: string; stages: Stage[] } | undefined) {
  return useMutation(
    api.deals.update.mutationOptions({
      onMutate: async ({ id, stageId }) => {
        if (!pipeline || !stageId) return undefined;
        const deal = findDeal(pipeline.id, id);
        if (!deal) return undefined;
        await queryClient.cancelQueries(api.deals.list.infiniteQueryFilter({ pipelineId: pipeline.id }));
        await queryClient.cancelQueries(api.pipelines.summary.queryFilter({ id: pipeline.id }));
        const before = columns(pipeline.id);
        const summaryKey = api.pipelines.summary.queryKey({ id: pipeline.id });
        const summaryBefore = queryClient.getQueryData(summaryKey);
        const moved = { ...deal, stageId };
        for (const [key, data] of before) {
          if (!data) continue;
          const pages = data.pages.map((page) => ({ ...page, data: page.data.filter((d) => d.id !== id) }));
          if (key.some((part) => isInputFor(part, stageId)) && pages[0]) {
            pages[0] = { ...pages[0], data: [moved, ...pages[0].data] };
          }
          queryClient.setQueryData(key, { ...data, pages });
        }
        if (summaryBefore) queryClient.setQueryData(summaryKey, shiftSummary(summaryBefore, deal, stageId));
        return { before, summaryKey, summaryBefore, from: deal.stageId };
      },
      onError: (_error, _input, context) => {
        if (!context) return;
        for (const [key, data] of context.before) queryClient.setQueryData(key, data);
        queryClient.setQueryData(context.summaryKey, context.summaryBefore);
      },
      onSuccess: (moved) => {
        const stage = pipeline?.stages.find((s) => s.id === moved.data.stageId)?.name ?? moved.data.stageId;
        announce(`Moved “${moved.data.title}” to ${stage}.`);
      },
      onSettled: (_data, _error, input, context) => {
        if (!pipeline) return;
        for (const stageId of [context?.from, input.stageId]) {
          if (stageId) {
            void queryClient.invalidateQueries(
              api.deals.list.infiniteQueryFilter(columnInput(pipeline.id, stageId)),
            );
          }
        }
        void queryClient.invalidateQueries(api.pipelines.summary.queryFilter({ id: pipeline.id }));
      },
    }),
  );
}

/** Whether a part of a query key is the input of `stageId`'s column. */
function isInputFor(part: unknown, stageId: string): boolean {
  const input = (part as { input?: { stageId?: unknown } } | null)?.input;
  return typeof part === 'object' && part !== null && input?.stageId === stageId;
}

/** The summary as it will be once `deal` is in `stageId`: its count and amount move between the stages. */
function shiftSummary(summary: Summary, deal: Deal, stageId: string): Summary {
  const change = (stage: Summary['data']['stages'][number], sign: 1 | -1) => {
    const amount = sign * (deal.amount ?? 0);
    const totals = stage.totals
      .map((t) =>
        t.currency === deal.currency
          ? { ...t, count: t.count + sign, amount: Math.round((t.amount + amount) * 100) / 100 }
          : t,
      )
      .filter((t) => t.count > 0);
    if (sign === 1 && !totals.some((t) => t.currency === deal.currency)) {
      totals.push({ currency: deal.currency, count: 1, amount });
      totals.sort((a, b) => (a.currency < b.currency ? -1 : 1));
    }
    return { ...stage, count: stage.count + sign, totals };
  };
  return {
    ...summary,
    data: {
      ...summary.data,
      stages: summary.data.stages.map((stage) =>
        stage.stageId === deal.stageId
          ? change(stage, -1)
          : stage.stageId === stageId
            ? change(stage, 1)
            : stage,
      ),
    },
  };
}

function AddDealForm({
  pipelineId,
  stages,
  onAdded,
}: {
  pipelineId: string;
  stages: { id: string; name: string }[];
  /** With the stage the new deal is in. */
  onAdded: (stageId: string) => void;
}) {
  const [title, setTitle] = useState('');
  const [amount, setAmount] = useState('');
  const [stageId, setStageId] = useState(stages[0]?.id ?? '');
  const submit = useMutation(
    api.deals.create.mutationOptions({
      onSuccess: (created) => {
        setTitle('');
        setAmount('');
        onAdded(created.data.stageId);
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({ pipelineId, stageId, title, ...(amount ? { amount: Number(amount) } : {}) });
  };
  const problem = problemOf(submit.error);
  const errors = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Add a deal" noValidate>
      <h2>Add a deal</h2>
      <ProblemMessage problem={problem} paths={['title', 'amount', 'stageId']} />
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
      <button type="submit" disabled={submit.isPending}>
        Add deal
      </button>
    </form>
  );
}
