import { eventTypes } from '@crm/constants';
import { Field, formatInstant, SelectField } from '../../lib/components.tsx';
import type { Inputs, Outputs } from '../../lib/query.ts';
import type { Choices } from './action-builder.tsx';
import { TimeZoneField } from './time-zone-field.tsx';

/**
 * The parts of an automation beside its actions (docs/workflows.md, "Triggers", "Failures"):
 * its trigger, with a SCHEDULE's cron expression and time zone, and the members told when a
 * run fails.
 */

type TriggerType = Inputs['workflows']['create']['trigger']['type'];
type Trigger = Outputs['workflows']['get']['data']['trigger'];

const TRIGGERS: { value: TriggerType; label: string }[] = [
  { value: 'INCOMING_WEBHOOK', label: 'Incoming webhook (a URL to POST to)' },
  { value: 'SCHEDULE', label: 'Schedule (a cron expression)' },
  ...eventTypes.map((kind) => ({ value: kind, label: `Event: ${kind}` })),
];

/** A trigger as the form keeps it. */
export interface TriggerDraft {
  type: TriggerType;
  cron: string;
  timezone: string;
}

export function toTriggerDraft(trigger?: Trigger): TriggerDraft {
  return {
    type: trigger?.type ?? 'INCOMING_WEBHOOK',
    cron: trigger?.cron ?? '',
    timezone: trigger?.timezone ?? '',
  };
}

/** The form's trigger as the API takes it: cron and time zone only with a SCHEDULE. */
export function toTrigger(draft: TriggerDraft): Inputs['workflows']['create']['trigger'] {
  if (draft.type !== 'SCHEDULE') return { type: draft.type };
  return {
    type: draft.type,
    cron: draft.cron.trim(),
    ...(draft.timezone.trim() ? { timezone: draft.timezone.trim() } : {}),
  };
}

/** The error paths the trigger's inputs show. */
export const TRIGGER_PATHS = ['trigger', 'trigger.type', 'trigger.cron', 'trigger.timezone'];

export function TriggerFields({
  value,
  onChange,
  errors,
}: {
  value: TriggerDraft;
  onChange: (value: TriggerDraft) => void;
  errors: Record<string, string>;
}) {
  return (
    <>
      <SelectField
        label="Trigger"
        value={value.type}
        onChange={(e) => onChange({ ...value, type: e.target.value as TriggerType })}
        options={TRIGGERS}
        error={[errors.trigger, errors['trigger.type']].filter(Boolean).join('; ') || undefined}
      />
      {value.type === 'SCHEDULE' ? (
        <div className="grid">
          <Field
            label="Cron expression"
            hint="minute hour day-of-month month day-of-week, e.g. 0 9 * * 1-5 (9:00 on weekdays)"
            value={value.cron}
            onChange={(e) => onChange({ ...value, cron: e.target.value })}
            error={errors['trigger.cron']}
            className="code"
          />
          <TimeZoneField
            label="Time zone (optional)"
            hint="The zone the schedule reads its hours in; default UTC"
            value={value.timezone}
            onChange={(e) => onChange({ ...value, timezone: e.target.value })}
            error={errors['trigger.timezone']}
          />
        </div>
      ) : null}
    </>
  );
}

/** The members given a task when a run fails, ticked from the workspace's members. */
export function NotifyField({
  members,
  value,
  onChange,
  error,
}: {
  members: Choices['members'];
  value: string[];
  onChange: (value: string[]) => void;
  error: string | undefined;
}) {
  return (
    <fieldset className="notify">
      <legend>When a run fails, give a task to (optional)</legend>
      {members.map((m) => (
        <label key={m.id} className="check">
          <input
            type="checkbox"
            checked={value.includes(m.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...value, m.id] : value.filter((id) => id !== m.id))
            }
          />{' '}
          {m.name} <span className="hint">{m.email}</span>
        </label>
      ))}
      {error ? <small className="field-error">{error}</small> : null}
    </fieldset>
  );
}

/** A trigger in a few words, for the list of automations. */
export function triggerText(trigger: Trigger): string {
  if (trigger.type === 'INCOMING_WEBHOOK') return 'incoming webhook';
  if (trigger.type === 'SCHEDULE') return `schedule ${trigger.cron ?? ''} (${trigger.timezone ?? 'UTC'})`;
  return trigger.type;
}

/** "Next run: <time>" of an enabled schedule, else nothing. */
export function NextRun({ trigger }: { trigger: Trigger }) {
  if (!trigger.nextRunAt) return null;
  return (
    <small className="next-run">
      Next run: <time dateTime={trigger.nextRunAt}>{formatInstant(trigger.nextRunAt)}</time>
    </small>
  );
}
