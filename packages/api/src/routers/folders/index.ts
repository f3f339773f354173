import {
  addFieldInput,
  addFolderField,
  changeFieldInput,
  changeFolderField,
  createFolder,
  createFolderInput,
  envelope,
  findFolders,
  folderIdInput,
  folderOutput,
  getFolder,
  listEnvelope,
  pagingInput,
  removeFieldInput,
  removeFolderField,
  renameFolder,
  updateFolderInput,
} from '@crm/domain';
import { z } from 'zod';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Folders'];
const one = envelope(folderOutput);

export const foldersRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'folders:read',
        openapi: {
          method: 'GET',
          path: '/folders',
          tags,
          summary: 'List folders with their fields',
          description:
            "The workspace's folders with their custom fields, newest first. Page with `page` or `cursor`.",
        },
      }),
    )
    .input(z.strictObject({ ...pagingInput }))
    .concat(declaredOutput(listEnvelope(folderOutput)))
    .query(({ ctx, input }) => findFolders(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'folders:read',
        openapi: {
          method: 'GET',
          path: '/folders/{id}',
          tags,
          summary: 'Get a folder',
          description: 'The folder and its custom fields. Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(folderIdInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({ data: await getFolder(ctx.db, ctx.actor, input.id) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'folders:write',
        openapi: {
          method: 'POST',
          path: '/folders',
          tags,
          summary: 'Create a folder',
          description:
            'Creates a folder with its custom fields (key, label, type, options). Fields of type SELECT, NUMBER, DATE or BOOLEAN get an index for filters and sorts. Answers 201 with Location.',
        },
        successStatus: 201,
        location: '/folders/{id}',
      }),
    )
    .input(createFolderInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await createFolder(ctx.db, ctx.actor, input) })),

  rename: authedProcedure
    .meta(
      restRoute({
        scope: 'folders:write',
        openapi: {
          method: 'PATCH',
          path: '/folders/{id}',
          tags,
          summary: 'Rename a folder',
          description: 'Renames the folder. If-Match makes it conditional.',
        },
        errors: [404],
      }),
    )
    .input(updateFolderInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await renameFolder(ctx.db, ctx.actor, input) })),

  addField: authedProcedure
    .meta(
      restRoute({
        scope: 'folders:write',
        openapi: {
          method: 'POST',
          path: '/folders/{id}/fields',
          tags,
          summary: 'Add a custom field to a folder',
          description:
            'Adds a custom field and answers 201 with the folder; `Location` names the folder, which holds the field. A RELATION field gives `relation: { folderId, cardinality, labels? }`, and with `inverse: { key, label, cardinality }` its paired field is added to the target folder in the same change (docs/api.md, "Relations").',
        },
        successStatus: 201,
        location: '/folders/{id}',
        errors: [404],
      }),
    )
    .input(addFieldInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await addFolderField(ctx.db, ctx.actor, input) })),

  changeField: authedProcedure
    .meta(
      restRoute({
        scope: 'folders:write',
        openapi: {
          method: 'PATCH',
          path: '/folders/{id}/fields/{key}',
          tags,
          summary: 'Change a field: label, type, options or link labels',
          description:
            'A type or options change is refused (400) while stored values would not fit it. A RELATION field keeps its type and target; `relation: { labels }` changes its link labels, on both fields of a pair.',
        },
        errors: [404],
      }),
    )
    .input(changeFieldInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await changeFolderField(ctx.db, ctx.actor, input) })),

  removeField: authedProcedure
    .meta(
      restRoute({
        scope: 'folders:delete',
        openapi: {
          method: 'DELETE',
          path: '/folders/{id}/fields/{key}',
          tags,
          summary: 'Remove a field and its values',
          description:
            "Removes a custom field and its values from every record of the folder. If-Match (the folder's ETag) makes it conditional. A RELATION field that still links records answers 409 unless `force=true`: then its inverse and every link go too, each link with a `record.unlinked` event.",
        },
        errors: [404, 409],
      }),
    )
    .input(removeFieldInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await removeFolderField(ctx.db, ctx.actor, input) })),
});
