import { z } from 'zod';
import { instantOutput, nonBlankText } from '../shared/schemas.ts';

/** What a sandbox may copy of its workspace's configuration (docs/operations.md, "Sandboxes"). */
export const sandboxCopies = ['folders', 'pipelines', 'workflows', 'webhooks', 'views'] as const;
export type SandboxCopy = (typeof sandboxCopies)[number];

/** Most sandboxes a workspace keeps, most sample records, most allowed URLs. */
export const sandboxLimits = { perWorkspace: 10, sampleRecords: 10_000, allowUrls: 20 } as const;

const allowUrl = z
  .string()
  .max(2048)
  .refine(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    'must be an http(s) URL',
  )
  .meta({
    description: 'A URL prefix the sandbox sends to, e.g. `https://hooks.example.com/test`',
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+',
  });

export const createSandboxInput = z.strictObject({
  name: nonBlankText(200),
  copy: z.array(z.enum(sandboxCopies)).max(sandboxCopies.length).optional().meta({
    description:
      'What of this workspace’s configuration to copy (default all of it). Workflows need folders and pipelines; views need folders.',
  }),
  sampleRecords: z
    .number()
    .int('must be a whole number')
    .min(0, `must be between 0 and ${sandboxLimits.sampleRecords}`)
    .max(sandboxLimits.sampleRecords, `must be between 0 and ${sandboxLimits.sampleRecords}`)
    .optional()
    .meta({ description: 'How many of the newest records to copy, from the folders copied (default 0)' }),
  allowUrls: z.array(allowUrl).max(sandboxLimits.allowUrls).optional().meta({
    description:
      'Where the sandbox’s webhooks and HTTP_REQUEST steps may send; everything else is captured, not sent (default none)',
  }),
});

export const sandboxIdInput = z.strictObject({
  id: z.string().max(200).meta({ description: 'The sandbox (a workspace id, ws_…)' }),
});

export const sandboxOutput = z
  .object({
    id: z.string().meta({ example: 'ws_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    name: z.string(),
    sourceWorkspaceId: z.string(),
    allowUrls: z.array(z.string()),
    createdAt: instantOutput(),
  })
  .meta({ id: 'Sandbox' });

export const createdSandboxOutput = sandboxOutput
  .extend({
    apiKey: z.string().meta({
      description:
        'A key of the sandbox (`crm_test_…`) for the member who made it, with every scope: shown only here',
    }),
    copied: z.object({
      folders: z.number().int(),
      pipelines: z.number().int(),
      workflows: z.number().int(),
      webhooks: z.number().int(),
      views: z.number().int(),
      records: z.number().int(),
    }),
  })
  .meta({ id: 'CreatedSandbox' });

export type SandboxOutput = z.infer<typeof sandboxOutput>;
export type CreatedSandboxOutput = z.infer<typeof createdSandboxOutput>;
