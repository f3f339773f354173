import { z } from 'zod';
import { fits } from '../answer.ts';
import { item, READS, tool } from '../tool.ts';

/** Folders, pipelines and members `describe_workspace` shows at most, each (200 a page). */
const MAX_EACH = 200;

export const describeWorkspace = tool({
  name: 'describe_workspace',
  title: 'Describe the workspace',
  description:
    'Start here: the folders with their fields (keys, types, options, relations), the pipelines with their stages, the members, and what this connection may do. Ids from here go into the other tools.',
  scopes: ['folders:read', 'pipelines:read'],
  anyScope: true,
  annotations: READS,
  input: z.strictObject({}),
  output: z.object({
    you: z.object({ name: z.string(), workspace: z.string(), scopes: z.array(z.string()) }),
    folders: z.array(item),
    pipelines: z.array(item),
    members: z.array(item),
    truncated: z.boolean().optional(),
  }),
  async run(caller, _input, { scopes }) {
    const [me, folders, pipelines, members] = await Promise.all([
      caller.workspace.me({}),
      scopes.has('folders:read') ? caller.folders.list({ pageSize: MAX_EACH }) : null,
      scopes.has('pipelines:read') ? caller.pipelines.list({ pageSize: MAX_EACH }) : null,
      caller.workspace.members({ pageSize: MAX_EACH }),
    ]);
    const answer = {
      you: { name: me.data.user.name, workspace: me.data.workspace.name, scopes: [...scopes].sort() },
      folders: (folders?.data ?? []).map(({ id, name, fields }) => ({ id, name, fields })),
      pipelines: (pipelines?.data ?? []).map(({ id, name, stages }) => ({
        id,
        name,
        stages: stages.map((s) => ({ id: s.id, name: s.name })),
      })),
      members: members.data.map(({ id, name, email, role }) => ({ id, name, email, role })),
    };
    if (fits(answer)) return answer;
    // A workspace too large to describe whole: the fields of each folder are what is cut.
    return {
      ...answer,
      folders: answer.folders.map(({ id, name, fields }) => ({
        id,
        name,
        fieldKeys: fields.map((f) => f.key),
      })),
      truncated: true,
    };
  },
});
