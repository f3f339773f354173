import { callDirections, callOutcomes } from '@crm/db/schema';
import { z } from 'zod';
import { pagingInput } from '../shared/paging.ts';
import { idParam, instantInput, instantOutput, trimmedText } from '../shared/schemas.ts';

/** A week: anything longer is almost surely a unit mistake (milliseconds sent as seconds). */
export const MAX_CALL_DURATION = 7 * 86_400;
const MAX_CALL_NOTES = 10_000;

export const callLogOutput = z
  .object({
    id: z.string().meta({ example: 'call_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    recordId: z.string(),
    direction: z.enum(callDirections),
    outcome: z.enum(callOutcomes),
    duration: z.number().int().nullable().meta({ description: 'Whole seconds.' }),
    phone: z.string().nullable(),
    notes: z.string().nullable(),
    calledAt: instantOutput(),
    authorId: z
      .string()
      .nullable()
      .meta({ description: 'The user (usr_…) who logged the call; null once that user is deleted.' }),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'CallLog' });

export type CallLogOutput = z.infer<typeof callLogOutput>;

export const findCallsInput = z.strictObject({
  id: idParam('Record id'),
  ...pagingInput,
});

export type FindCallsInput = z.infer<typeof findCallsInput>;

/**
 * Fields with a default are optional and refuse null; fields that may be empty in the output
 * (duration, phone, notes) also take null, which stores none.
 */
export const createCallInput = z.strictObject({
  id: idParam('Record id'),
  direction: z.enum(callDirections).optional().meta({ description: 'Default OUTBOUND.' }),
  outcome: z.enum(callOutcomes).optional().meta({ description: 'Default CONNECTED.' }),
  duration: z
    .number()
    .int('must be a whole number of seconds')
    .min(0, 'must be 0 or more')
    .max(MAX_CALL_DURATION, `must be at most ${MAX_CALL_DURATION} (7 days)`)
    .nullish()
    .meta({ description: `Whole seconds, 0 to ${MAX_CALL_DURATION}.` }),
  phone: trimmedText(64)
    .nullish()
    .meta({ description: "Defaults to the record's phone; null or empty stores none." }),
  notes: trimmedText(MAX_CALL_NOTES)
    .nullish()
    .meta({ description: `At most ${MAX_CALL_NOTES} characters; null or empty stores none.` }),
  calledAt: instantInput().optional().meta({ description: 'When the call took place; default now.' }),
});

export type CreateCallInput = z.infer<typeof createCallInput>;

export const getCallInput = z.strictObject({
  id: idParam('Record id'),
  callId: idParam('Call log id'),
});

export type GetCallInput = z.infer<typeof getCallInput>;
