/**
 * The types of the CRM workspace REST API (/api/v1), generated from its OpenAPI document.
 * Do not edit: run `pnpm --filter @crm/client generate` after changing the API.
 */

export interface paths {
    "/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit log
         * @description Changes to keys, webhooks, workflows, members and invitations, and to the fields of folders; sign-ins and failed sign-ins, exports and purges: newest first, each with its actor, surface and request. Narrow by `actorType`, `actorId`, `action` and `since`; page with `cursor`. Kept a year (`AUDIT_RETENTION_DAYS`). Needs `audit:read`: an owner or admin, or a key of one with that scope. Needs the `audit:read` scope.
         */
        get: operations["audit-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a record's call logs
         * @description Oldest logged first. Page with `page` or `cursor`. A record in Trash is not found. Needs the `calls:read` scope.
         */
        get: operations["calls-list"];
        put?: never;
        /**
         * Log a call on a record
         * @description Answers 201 with the call log. Defaults: direction OUTBOUND, outcome CONNECTED, calledAt now, phone the record's phone. Needs the `calls:write` scope.
         */
        post: operations["calls-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/calls/{callId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a call log of a record
         * @description A record in Trash is not found. Needs the `calls:read` scope.
         */
        get: operations["calls-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a record's comments
         * @description Oldest first. Page with `page` or `cursor`. A record in Trash is not found. Needs the `comments:read` scope.
         */
        get: operations["comments-list"];
        put?: never;
        /**
         * Comment on a record
         * @description Answers 201 with the comment; its `author` is the display name of the API key's user. Needs the `comments:write` scope.
         */
        post: operations["comments-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/comments/{commentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a comment of a record
         * @description A record in Trash is not found. Needs the `comments:read` scope.
         */
        get: operations["comments-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the workspace’s configuration
         * @description Folders and fields, pipelines and stages, workflows, webhook subscriptions (never secrets; header values masked) and your saved views, as one document keyed by names (its JSON Schema: `/api/v1/config.schema.json`). The same configuration exports the same document in any workspace. Needs the `config:read` scope.
         */
        get: operations["config-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/config/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Show what applying a configuration would change
         * @description Every change `POST /config/apply` would make, in its order, with what removals do to data (values of a removed field, a relation’s links, a stage’s deals); what the workspace has and the document lacks, under `left`. Writes nothing. A document with problems is a 400 naming each. Needs the `config:read` scope.
         */
        post: operations["config-plan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/config/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a configuration
         * @description Makes the changes of the plan in one transaction: all or none. Applying the same document again changes nothing. Removals only with `prune: true`. The secrets of subscriptions and signed workflows it makes are in the answer, once. Audited as `config.applied`. Needs the `config:write` scope.
         */
        post: operations["config-applyDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create deals in a batch
         * @description Each item is the body of `POST /deals` and is created as that call would create it (201). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `deals:write` scope.
         */
        post: operations["deals-batchCreate"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update deals in a batch
         * @description Each item is `{ id, … }` with the body of `PATCH /deals/{id}`, applied in order as that call would apply it (200; an unknown id: 404). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `deals:write` scope.
         */
        patch: operations["deals-batchUpdate"];
        trace?: never;
    };
    "/deals/batch/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete deals permanently in a batch
         * @description Each id is deleted as `DELETE /deals/{id}` would delete it (200 `{ id, deleted: true }`; an unknown id: 404). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `deals:delete` scope.
         */
        post: operations["deals-batchDelete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a deal's field history
         * @description Every change of a field of the deal, newest first: the field, its value before and after, who made the change (`actor`), through which surface (`source`) and in which request (`requestId`). Kept as long as the deal exists. `field` and `since` narrow it; page with `cursor`. Needs the `deals:read` scope.
         */
        get: operations["deals-history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}/history/{entryId}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a deal's field back to before a change
         * @description Sets the entry's field back to its `from` value, as a new change made by the caller (checked, recorded in the history and announced like a PATCH), and answers the deal as it now is. 409 when the field changed after the entry, unless `force=true`. Needs the `deals:write` scope.
         */
        post: operations["deals-revertHistory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the records a deal involves
         * @description The live records linked to the deal, oldest link first, each with `link: { label, primary, createdAt }`. Page with `page` or `cursor`. Needs the `deals:read` scope.
         */
        get: operations["deals-records"];
        put?: never;
        /**
         * Link a record to a deal
         * @description Adds a live record to the deal's links with an optional `label` ("Decision maker"). Answers 201 with the link, or 200 with the link that was there (its label changed when another is given). The deal's `recordId`, its primary record, is always one of its links. Needs the `deals:write` scope.
         */
        post: operations["deals-linkRecord"];
        /**
         * Unlink a record from a deal (`to` in the query or body)
         * @description As `DELETE /deals/{id}/links/{to}`, the record named by `to` in the query string or in a JSON body `{ "to": "rec_…" }`. Needs the `deals:write` scope.
         */
        delete: operations["deals-unlinkRecordByBody"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}/links/{to}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink a record from a deal
         * @description Removes the record from the deal's links; removing its primary record clears `recordId` (with `deal.updated`). Not linked: 404. If-Match (the deal's ETag) makes it conditional. Needs the `deals:write` scope.
         */
        delete: operations["deals-unlinkRecord"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deals of a pipeline
         * @description `pipelineId` is required (400 without, 404 when unknown). Filter by `stageId`, `recordId`, and any deal field with `filter[<field>]` / `filter[<field>][<op>]` (ANDed). Newest first, or as `sort` says (`amount`, `-closeDate`, `data.<key>` …); `count=true` adds `meta.total`. Needs the `deals:read` scope.
         */
        get: operations["deals-list"];
        put?: never;
        /**
         * Create a deal
         * @description Without `stageId` the deal starts in the pipeline’s first stage. Needs the `deals:write` scope.
         */
        post: operations["deals-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a deal
         * @description The deal with its stage, amount, currency, close date, linked record and data. Carries an ETag; If-None-Match answers 304. Needs the `deals:read` scope.
         */
        get: operations["deals-get"];
        put?: never;
        post?: never;
        /**
         * Delete a deal permanently
         * @description Deletes the deal for good (deals have no Trash) and answers `{ id, deleted: true }`. If-Match makes it conditional. Needs the `deals:delete` scope.
         */
        delete: operations["deals-delete"];
        options?: never;
        head?: never;
        /**
         * Update a deal or move it to another stage
         * @description Fields not given stay; `data` merges. A stage change emits `deal.stage_changed`. Needs the `deals:write` scope.
         */
        patch: operations["deals-update"];
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events (polling feed)
         * @description The workspace’s events, oldest first, with the payloads webhook receivers get; kept 30 days. A polling fallback and a way to catch up after an outage: page with `after` = the returned `meta.nextCursor` and keep it for the next poll. Events are listed once committed and settled (a few seconds after they happen), so paging by the cursor never skips one. `types` filters by comma-separated kinds (an unknown kind is a 400). Needs the `events:read` scope.
         */
        get: operations["events-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List folders with their fields
         * @description The workspace's folders with their custom fields, newest first. Page with `page` or `cursor`. Needs the `folders:read` scope.
         */
        get: operations["folders-list"];
        put?: never;
        /**
         * Create a folder
         * @description Creates a folder with its custom fields (key, label, type, options). Fields of type SELECT, NUMBER, DATE or BOOLEAN get an index for filters and sorts. Answers 201 with Location. Needs the `folders:write` scope.
         */
        post: operations["folders-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/folders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a folder
         * @description The folder and its custom fields. Carries an ETag; If-None-Match answers 304. Needs the `folders:read` scope.
         */
        get: operations["folders-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename a folder
         * @description Renames the folder. If-Match makes it conditional. Needs the `folders:write` scope.
         */
        patch: operations["folders-rename"];
        trace?: never;
    };
    "/folders/{id}/fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a custom field to a folder
         * @description Adds a custom field and answers 201 with the folder; `Location` names the folder, which holds the field. A RELATION field gives `relation: { folderId, cardinality, labels? }`, and with `inverse: { key, label, cardinality }` its paired field is added to the target folder in the same change (docs/api.md, "Relations"). Needs the `folders:write` scope.
         */
        post: operations["folders-addField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/folders/{id}/fields/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a field and its values
         * @description Removes a custom field and its values from every record of the folder. If-Match (the folder's ETag) makes it conditional. A RELATION field that still links records answers 409 unless `force=true`: then its inverse and every link go too, each link with a `record.unlinked` event. Needs the `folders:delete` scope.
         */
        delete: operations["folders-removeField"];
        options?: never;
        head?: never;
        /**
         * Change a field: label, type, options or link labels
         * @description A type or options change is refused (400) while stored values would not fit it. A RELATION field keeps its type and target; `relation: { labels }` changes its link labels, on both fields of a pair. Needs the `folders:write` scope.
         */
        patch: operations["folders-changeField"];
        trace?: never;
    };
    "/jobs/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an import
         * @description Makes an import job AWAITING_FILE: PUT the file to its `uploadUrl`, then follow its progress with `GET /jobs/{id}`. Checks the folder and every field the mapping names first. Needs `records:write` too (docs/jobs.md, "Imports"). Needs the `jobs:write` scope.
         */
        post: operations["jobs-createImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an export
         * @description Makes an export job QUEUED: every record of the folder that `filter` and `q` match, in `sort`’s order (as `POST /records/query` takes them), no cap. Once it SUCCEEDED, GET its `fileUrl` (kept 24 hours). Needs `records:read` too (docs/jobs.md, "Exports"). Needs the `jobs:write` scope.
         */
        post: operations["jobs-createExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change every record a filter matches
         * @description With `dryRun: true`, answers 200 `{ "data": { "matched" } }`: how many records match now. Otherwise makes an update job QUEUED (201) that applies `set` (a `PATCH /records/{id}` body), or moves to Trash (`trash: true`), every record of the folder that matched when it started. Needs `records:write` too (docs/jobs.md, "Updates"). Needs the `jobs:write` scope.
         */
        post: operations["jobs-createUpdate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revert an update job
         * @description Makes a new update job (201) that sets each field the job changed back to what it was, on every record where that field has not changed since, and takes back out of Trash what it moved there. Its results say, per record, what was set back (`setBack`) and what was left because it changed (`left`). 409 for a job that is not an ended update. Needs the `jobs:write` scope.
         */
        post: operations["jobs-revert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export’s file
         * @description The file of an export that SUCCEEDED, as its `format` says, kept 24 hours (410 after). 409 before it has succeeded. Needs the `jobs:read` scope.
         */
        get: operations["jobs-file"];
        /**
         * Upload an import’s file
         * @description The file as the raw body, `text/csv` (RFC 4180, UTF-8 with or without a BOM, a header row, comma or semicolon) or `application/x-ndjson` as the job’s `format` says; up to 1 GiB and 5,000,000 rows. Read as it arrives and checked: a file that is not UTF-8, lacks a mapped column or has a row wider than its header is refused (400, naming the row), and nothing is kept. Answers 202 with the job QUEUED (docs/jobs.md, "Files"). Needs the `jobs:write` scope.
         */
        put: operations["jobs-putFile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a job
         * @description A job with its status and progress (docs/jobs.md, "A job"). Needs the `jobs:read` scope.
         */
        get: operations["jobs-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description The workspace’s jobs, newest first, by `type` and `status`. Needs the `jobs:read` scope.
         */
        get: operations["jobs-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description Ends a job that has not ended as CANCELLED. What it wrote stays; its progress says how far it got. 409 when it has ended. Needs the `jobs:write` scope.
         */
        post: operations["jobs-cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream a job’s results
         * @description NDJSON, one line per row done so far, in row order: `{ "row", "status": "created" | "updated" | "unchanged" | "refused", "recordId", "errors": [{ "path", "message" }] }` (docs/jobs.md, "Results"). Needs the `jobs:read` scope.
         */
        get: operations["jobs-results"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pipelines with their stages
         * @description The workspace's pipelines, newest first, with their stages in order. Page with `page` or `cursor`. Needs the `pipelines:read` scope.
         */
        get: operations["pipelines-list"];
        put?: never;
        /**
         * Create a pipeline
         * @description Creates a pipeline with its stages in order (at most 50). Answers 201 with Location. Needs the `pipelines:write` scope.
         */
        post: operations["pipelines-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a pipeline with its stages in order
         * @description The pipeline and its stages in order. Carries an ETag; If-None-Match answers 304. Needs the `pipelines:read` scope.
         */
        get: operations["pipelines-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename a pipeline
         * @description Renames the pipeline. If-Match makes it conditional. Needs the `pipelines:write` scope.
         */
        patch: operations["pipelines-rename"];
        trace?: never;
    };
    "/pipelines/{id}/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deal counts and amounts by stage, per currency
         * @description Over all deals of the pipeline: for each stage (in order, also those without deals) and for the whole pipeline, how many deals there are and the sum of their amounts in each currency. Amounts in different currencies are never added together. Sums are exact to the cent. Needs the `deals:read` scope.
         */
        get: operations["pipelines-summary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/{id}/stages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a stage (last, or at a position)
         * @description Adds a stage at the end (or at `position`) and answers 201 with the pipeline; `Location` names the pipeline, which holds the stage. Needs the `pipelines:write` scope.
         */
        post: operations["pipelines-addStage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/{id}/stages/{stageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a stage
         * @description A stage that holds deals is removed only with `moveDealsTo`, another stage of the pipeline that takes its deals (400 otherwise). Needs the `pipelines:delete` scope.
         */
        delete: operations["pipelines-removeStage"];
        options?: never;
        head?: never;
        /**
         * Rename a stage
         * @description Renames or moves a stage; positions stay gap-free. If-Match (the pipeline's ETag) makes it conditional. Needs the `pipelines:write` scope.
         */
        patch: operations["pipelines-renameStage"];
        trace?: never;
    };
    "/pipelines/{id}/stages/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reorder the stages
         * @description `stageIds` lists every stage of the pipeline once, in the new order. Needs the `pipelines:write` scope.
         */
        post: operations["pipelines-reorderStages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create records in a batch (or upsert by email)
         * @description Each item is the body of `POST /records` and is created as that call would create it (201). With `?upsert=email` each item updates the live record of its folder with the same email instead (200), items applied in order. Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `records:write` scope.
         */
        post: operations["records-batchCreate"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update records in a batch
         * @description Each item is `{ id, … }` with the body of `PATCH /records/{id}`, applied in order as that call would apply it (200; an unknown or trashed id: 404). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `records:write` scope.
         */
        patch: operations["records-batchUpdate"];
        trace?: never;
    };
    "/records/batch/trash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move records to Trash in a batch
         * @description Each id is moved to Trash as `DELETE /records/{id}` would move it (200 with the record; not found or already in Trash: 404). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `records:delete` scope.
         */
        post: operations["records-batchTrash"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/links/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link records in a batch
         * @description Each item `{ from, field, to, label? }` is linked as `POST /records/{from}/links` would link it (201 new, 200 already linked). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are applied in order (a later item sees what an earlier one linked); one that fails writes nothing. At most 100 items; counts as one request against the rate limit. Needs the `records:write` scope.
         */
        post: operations["records-linkBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/links/batch/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unlink records in a batch
         * @description Each item `{ from, field, to }` is unlinked as `DELETE /records/{from}/links/{field}/{to}` would unlink it (200; no such link: 404). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are applied in order (a later item sees what an earlier one linked); one that fails writes nothing. At most 100 items; counts as one request against the rate limit. Needs the `records:write` scope.
         */
        post: operations["records-unlinkBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link a record to another
         * @description Links the record through one of its RELATION fields to a live record of the field’s folder (`to`: an id, or `{ "email" }` / `{ "title" }` naming one), with one of the field’s `labels` if it has them. Answers 201 with the link, or 200 with the link that was there (its label changed when another is given). On a ONE side the new link replaces the previous one, and the ONE value in `data` follows. A field holds at most 10,000 links (409 beyond). Needs the `records:write` scope.
         */
        post: operations["records-link"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/links/{field}/{to}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a link
         * @description The link between the record and `to` through `field`, with its label. A link to or from a record in Trash is not found. Needs the `records:read` scope.
         */
        get: operations["records-getLink"];
        put?: never;
        post?: never;
        /**
         * Unlink two records
         * @description Removes the link (from both sides of a pair of fields; a ONE value in `data` is cleared). No such link between live records: 404. If-Match (the link’s ETag) makes it conditional. Needs the `records:write` scope.
         */
        delete: operations["records-unlink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/related/{field}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the records a record links to
         * @description The live records linked through the RELATION field, newest first unless sorted, with the same `filter`, `sort`, `q`, `updatedSince`, `count`, `expand` and paging as `GET /records` (the folder is the field’s). Each item adds `link: { label, createdAt }`. A record in Trash, or a field that is not a RELATION field of its folder, is not found. Needs the `records:read` scope.
         */
        get: operations["records-related"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/deals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deals linked to a record
         * @description Deals whose primary record it is or that link it as a participant, newest first unless sorted, with the filters, sorts and paging of `GET /deals` (`pipelineId` optional); each adds `link: { label, primary, createdAt }`. A record in Trash is not found. Needs the `deals:read` scope.
         */
        get: operations["records-deals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tasks linked to a record
         * @description Tasks whose primary record it is or that link it, newest first unless sorted, with the filters, sorts and paging of `GET /tasks`; each adds `link: { label, primary, createdAt }`. A record in Trash is not found. Needs the `tasks:read` scope.
         */
        get: operations["records-tasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a record's field history
         * @description Every change of a field of the record, newest first: the field, its value before and after, who made the change (`actor`), through which surface (`source`) and in which request (`requestId`). Kept as long as the record exists. `field` and `since` narrow it; page with `cursor`. Needs the `records:read` scope.
         */
        get: operations["records-history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/history/{entryId}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a record's field back to before a change
         * @description Sets the entry's field back to its `from` value, as a new change made by the caller (checked, recorded in the history and announced like a PATCH), and answers the record as it now is. 409 when the field changed after the entry, unless `force=true`. Needs the `records:write` scope.
         */
        post: operations["records-revertHistory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export records
         * @description The list of `GET /records` (the same filters, sort, search, paging and `expand`), for a bulk export: the first page of each export is in the audit log, with what was exported. The web app’s CSV export reads through it. Needs the `records:read` scope.
         */
        get: operations["records-export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List records
         * @description Newest first, or as `sort` says. Filter by folder, by text (`search` or `q`), by `updatedSince`, and by any field with `filter[<field>]` / `filter[<field>][<op>]` (ANDed), across a relation too (`filter[company]=rec_…`, `filter[company.data.tier]=Gold`); `trashed=true` lists the Trash; `count=true` adds `meta.total`; `expand=<key>` adds the records ONE relation fields link to. Page with `page` or `cursor`. `sort=-updatedAt&updatedSince=…` polls newest change first. Needs the `records:read` scope.
         */
        get: operations["records-list"];
        put?: never;
        /**
         * Create a record (or upsert by email)
         * @description Answers 201 with the new record. With `?upsert=email` the live record of the folder with the same email is updated instead, and the answer is 200. Needs the `records:write` scope.
         */
        post: operations["records-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query records with a nested filter
         * @description The list with its parameters as JSON and a filter of `and`, `or` and `not`: `{ "filter": { "or": [ { "field": "data.lifecycle", "op": "eq", "value": "Lead" }, … ] }, "sort": "-updatedAt", "pageSize": 50, "cursor": … }`. Answers like `GET /records`. Needs the read scope only. Needs the `records:read` scope.
         */
        post: operations["records-query"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a record
         * @description The record with its custom values; `expand=<key>[,<key>]` adds the records its ONE relation fields link to under `expanded`. A record in Trash is not found. Carries an ETag; If-None-Match answers 304. Needs the `records:read` scope.
         */
        get: operations["records-get"];
        put?: never;
        post?: never;
        /**
         * Move a record to Trash
         * @description Moves the record to Trash and answers it with `trashedAt` set; Trash is purged after 30 days. If-Match makes it conditional. Needs the `records:delete` scope.
         */
        delete: operations["records-trash"];
        options?: never;
        head?: never;
        /**
         * Update a record
         * @description Fields not given stay. `data` merges: keys given replace, a key given as null is removed. Needs the `records:write` scope.
         */
        patch: operations["records-update"];
        trace?: never;
    };
    "/records/{id}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A record's timeline
         * @description What happened to the record, newest first, one entry per thing: created, changed (each field from what to what), moved to Trash and restored, comments, calls, its tasks created and completed, stage moves of deals linked to it, and automation runs for it. `kind` says which; the key named after it holds the details, the others are null. Page with `page` or `cursor`. A record in Trash is not found. Changes, tasks, stage moves and runs are kept 30 days, comments and calls as long as they exist. Needs the `records:read` scope.
         */
        get: operations["records-timeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/records/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a record from Trash
         * @description Brings the record back from Trash. Restoring a live record changes nothing and answers 200, so it is safe to retry. Needs the `records:delete` scope.
         */
        post: operations["records-restore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow run
         * @description One workflow run with its steps: each step's input, output, error and attempts. Needs the `workflows:read` scope.
         */
        get: operations["runs-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a finished run again
         * @description Queues a new run (its `rerunOf` this one) with the same input and context record and the workflow’s current actions. 409 while this run is still QUEUED, RUNNING or WAITING; 400 when the workflow is disabled. Needs the `workflows:write` scope.
         */
        post: operations["runs-rerun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run
         * @description Ends a QUEUED, RUNNING or WAITING run as CANCELLED. A step in flight finishes and is recorded; nothing after it runs. 409 when the run has already ended. Needs the `workflows:write` scope.
         */
        post: operations["runs-cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve the step a run waits on
         * @description Answers the APPROVAL step the run is WAITING on: its output becomes `{ approved: true, by, comment, at }`, its task is completed and the run goes on. Only the assignee, an owner or an admin (403 otherwise); 409 when the run is not waiting for an approval (answered, timed out, cancelled). Needs the `workflows:write` scope.
         */
        post: operations["runs-approve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject the step a run waits on
         * @description As approve, with `approved: false`: the run goes on, and a later BRANCH can read `steps.<name>.output.approved`. Only the assignee, an owner or an admin (403 otherwise); 409 when the run is not waiting for an approval. Needs the `workflows:write` scope.
         */
        post: operations["runs-reject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the sandboxes of the workspace
         * @description Oldest first; at most 10.
         */
        get: operations["sandboxes-list"];
        put?: never;
        /**
         * Make a sandbox of the workspace
         * @description A new workspace with the members of this one, the configuration in `copy` (as `POST /config/apply` applies it), up to `sampleRecords` of the newest records of the copied folders, and a key `crm_test_…` for you, returned only here. Its webhooks and HTTP_REQUEST steps send only to `allowUrls`; everything else is captured and shown, not sent. At most 10 sandboxes. Needs the `config:write` scope.
         */
        post: operations["sandboxes-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandboxes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a sandbox of the workspace
         * @description Carries an ETag; If-None-Match answers 304.
         */
        get: operations["sandboxes-get"];
        put?: never;
        post?: never;
        /**
         * Delete a sandbox
         * @description Its records, configuration, history, keys and sessions go with it; its keys stop working at once. Needs the `config:write` scope.
         */
        delete: operations["sandboxes-delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create tasks in a batch
         * @description Each item is the body of `POST /tasks` and is created as that call would create it (201). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `tasks:write` scope.
         */
        post: operations["tasks-batchCreate"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update tasks in a batch
         * @description Each item is `{ id, … }` with the body of `PATCH /tasks/{id}`, applied in order as that call would apply it (200; an unknown id: 404). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `tasks:write` scope.
         */
        patch: operations["tasks-batchUpdate"];
        trace?: never;
    };
    "/tasks/batch/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete tasks permanently in a batch
         * @description Each id is deleted as `DELETE /tasks/{id}` would delete it (200 `{ id, deleted: true }`; an unknown id: 404). Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit. Needs the `tasks:delete` scope.
         */
        post: operations["tasks-batchDelete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a task's field history
         * @description Every change of a field of the task, newest first: the field, its value before and after, who made the change (`actor`), through which surface (`source`) and in which request (`requestId`). Kept as long as the task exists. `field` and `since` narrow it; page with `cursor`. Needs the `tasks:read` scope.
         */
        get: operations["tasks-history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}/history/{entryId}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a task's field back to before a change
         * @description Sets the entry's field back to its `from` value, as a new change made by the caller (checked, recorded in the history and announced like a PATCH), and answers the task as it now is. 409 when the field changed after the entry, unless `force=true`. Needs the `tasks:write` scope.
         */
        post: operations["tasks-revertHistory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the records a task involves
         * @description The live records linked to the task, oldest link first, each with `link: { label, primary, createdAt }`. Page with `page` or `cursor`. Needs the `tasks:read` scope.
         */
        get: operations["tasks-records"];
        put?: never;
        /**
         * Link a record to a task
         * @description Adds a live record to the task's links with an optional `label` ("Decision maker"). Answers 201 with the link, or 200 with the link that was there (its label changed when another is given). The task's `recordId`, its primary record, is always one of its links. Needs the `tasks:write` scope.
         */
        post: operations["tasks-linkRecord"];
        /**
         * Unlink a record from a task (`to` in the query or body)
         * @description As `DELETE /tasks/{id}/links/{to}`, the record named by `to` in the query string or in a JSON body `{ "to": "rec_…" }`. Needs the `tasks:write` scope.
         */
        delete: operations["tasks-unlinkRecordByBody"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}/links/{to}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink a record from a task
         * @description Removes the record from the task's links; removing its primary record clears `recordId` (with `task.updated`). Not linked: 404. If-Match (the task's ETag) makes it conditional. Needs the `tasks:write` scope.
         */
        delete: operations["tasks-unlinkRecord"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tasks
         * @description Newest first, or with `sort=dueAt` soonest due first (tasks without a due time last), or as `sort` says (`-dueAt`, `title`, `updatedAt` …). Filter by `recordId` (a live record, 404 otherwise), `status` and `assigneeId`, and any task field with `filter[<field>]` / `filter[<field>][<op>]` (ANDed); `count=true` adds `meta.total`. Page with `page` or `cursor`. Needs the `tasks:read` scope.
         */
        get: operations["tasks-list"];
        put?: never;
        /**
         * Create a task
         * @description Answers 201 with the new task, always OPEN. `assigneeId` must be a member of the workspace and `recordId` a live record (400 otherwise). Needs the `tasks:write` scope.
         */
        post: operations["tasks-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a task
         * @description The task. Carries an ETag; If-None-Match answers 304. Needs the `tasks:read` scope.
         */
        get: operations["tasks-get"];
        put?: never;
        post?: never;
        /**
         * Delete a task permanently
         * @description Deletes the task for good and answers `{ id, deleted: true }`. If-Match makes it conditional. Needs the `tasks:delete` scope.
         */
        delete: operations["tasks-delete"];
        options?: never;
        head?: never;
        /**
         * Update a task
         * @description Fields not given stay. `status` DONE sets `completedAt` (OPEN clears it); completing a recurring task creates its next occurrence, OPEN and due one period later. `recurrence` cannot be changed. Needs the `tasks:write` scope.
         */
        patch: operations["tasks-update"];
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description Newest first. Secrets are never listed; custom header values are masked. Needs the `webhooks:read` scope.
         */
        get: operations["webhooks-list"];
        put?: never;
        /**
         * Create a webhook subscription (REST hooks: subscribe)
         * @description Zapier-style REST hooks subscribe is exactly this call. The answer carries the signing `secret`, shown only here and on rotation. The URL must be http(s) and resolve to a public address. At most 50 subscriptions per workspace. Needs the `webhooks:write` scope.
         */
        post: operations["webhooks-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description The subscription without its secret; custom header values are masked. Carries an ETag; If-None-Match answers 304. Needs the `webhooks:read` scope.
         */
        get: operations["webhooks-get"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription (REST hooks: unsubscribe)
         * @description Zapier-style REST hooks unsubscribe is exactly this call. Its deliveries are deleted with it. Needs the `webhooks:delete` scope.
         */
        delete: operations["webhooks-delete"];
        options?: never;
        head?: never;
        /**
         * Update a webhook subscription
         * @description Fields not given stay; `headers` replaces the set. `enabled: true` re-enables a subscription the service disabled and clears `disabledReason`. Needs the `webhooks:write` scope.
         */
        patch: operations["webhooks-update"];
        trace?: never;
    };
    "/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret of a webhook subscription
         * @description Returns the new secret once. For 24 hours the previous secret keeps signing next to it: `X-Service-Signature` is made with the new secret, `X-Service-Signature-Previous` with the previous one, and `webhook-signature` carries both, newest first. Rotating again within them drops the older secret. Needs the `webhooks:write` scope.
         */
        post: operations["webhooks-rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to a webhook subscription
         * @description Queues a `webhook.test` event (no record, `test: true`) to this subscription only and answers with the queued delivery; follow it in the deliveries list. 400 when the subscription is disabled. Needs the `webhooks:write` scope.
         */
        post: operations["webhooks-test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deliveries of a webhook subscription
         * @description Newest first, each with its attempts in order (status, response code, duration, first 4 KiB of the response). Kept 30 days. Needs the `webhooks:read` scope.
         */
        get: operations["webhooks-deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery
         * @description One delivery with its attempts in order, as the deliveries list shows it. Needs the `webhooks:read` scope.
         */
        get: operations["webhooks-delivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deliveries/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Creates a new delivery of the same event (same event id, so the same `webhook-id`) with `redeliveryOf` set, queued now even if the original succeeded. 400 when the subscription is disabled or the event is older than 30 days. Needs the `webhooks:write` scope.
         */
        post: operations["webhooks-redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflows (automations)
         * @description The workspace's workflows, newest first. Page with `page` or `cursor`. Needs the `workflows:read` scope.
         */
        get: operations["workflows-list"];
        put?: never;
        /**
         * Create a workflow
         * @description A trigger (INCOMING_WEBHOOK, whose `trigger.url` is the address to POST to, or an event kind) and up to 20 actions, each `{ type, ...parameters }`, checked now: a bad parameter or template is a 400 naming it. With `requireSignature: true` the answer carries the `secret`, shown only here and on rotation. The answer's `meta.warnings` lists action values that look like a `{{ }}` template another tool (n8n, Make) filled in before sending — "", "undefined", "null" where a value is expected — each `{ path, message }`; it is empty when nothing looks wrong, and the workflow is saved either way. Needs the `workflows:write` scope.
         */
        post: operations["workflows-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow
         * @description The workflow with its trigger URL and actions as saved. Carries an ETag; If-None-Match answers 304. Needs the `workflows:read` scope.
         */
        get: operations["workflows-get"];
        put?: never;
        post?: never;
        /**
         * Delete a workflow
         * @description Permanent; its run history goes with it. Needs the `workflows:delete` scope.
         */
        delete: operations["workflows-delete"];
        options?: never;
        head?: never;
        /**
         * Update a workflow
         * @description Fields not given stay; `actions` replaces the list. Runs already queued keep the actions they started with. `secret` is set only when `requireSignature: true` created one. The answer's `meta.warnings` lists action values that look like a `{{ }}` template another tool (n8n, Make) filled in before sending — "", "undefined", "null" where a value is expected — each `{ path, message }`; it is empty when nothing looks wrong, and the workflow is saved either way. Needs the `workflows:write` scope.
         */
        patch: operations["workflows-update"];
        trace?: never;
    };
    "/workflows/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a workflow
         * @description Enables the workflow: its trigger URL accepts calls again, or its event trigger starts runs again. Needs the `workflows:write` scope.
         */
        post: operations["workflows-enable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a workflow
         * @description Its trigger URL answers 404 and its events start nothing until it is enabled again. Needs the `workflows:write` scope.
         */
        post: operations["workflows-disable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or rotate the signing secret of a workflow
         * @description Returns the new secret once; from now on incoming calls must be signed. A previous secret is still accepted for 24 hours. Needs the `workflows:write` scope.
         */
        post: operations["workflows-rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the runs of a workflow
         * @description Newest first, each with every step’s input, output or error and timings. Kept 30 days. Needs the `workflows:read` scope.
         */
        get: operations["workflows-runs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/test-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a CODE step’s source on a sample input
         * @description Runs the source as a CODE step would — in the sandbox, with its limits (64 MiB, 1 s of CPU, 256 KiB of output) — on `input`, and answers what it returned or why it failed (`syntax`, `throw`, `timeout`, `memory`, `output`, with the line where known). Nothing is saved; a failure of the code is a 200 with `ok: false`. Needs the `workflows:write` scope.
         */
        post: operations["workflows-testCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace, user and key of this request
         * @description Also the workspace rate limit as of this request, the request itself counted: the values of its RateLimit-* headers.
         */
        get: operations["workspace-me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the members of the workspace
         * @description Oldest first. Page with `page` or `cursor`.
         */
        get: operations["workspace-members"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trigger/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a workflow from its trigger URL
         * @description The URL an INCOMING_WEBHOOK workflow shows as `trigger.url` (`<service root>/api/webhooks/trigger/{workflowId}`: this operation's own server followed by its path). Needs no API key: the workflow id in it is the secret, and a workflow with `requireSignature` also needs `X-Service-Signature`. Any JSON object is the run's `trigger.body`; `recordId` in it names the run's context record. Answers once the run is queued; the run itself happens on the background queue. `RateLimit-*` count calls against the workflow's own limit and come with every answer past the signature check.
         */
        post: operations["workflows-trigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "record.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * record.created delivered to a subscription
         * @description A record was created. POSTed to every enabled subscription of the workspace that listens to `record.created` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_record_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "record.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * record.updated delivered to a subscription
         * @description A record changed. POSTed to every enabled subscription of the workspace that listens to `record.updated` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_record_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "record.trashed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * record.trashed delivered to a subscription
         * @description A record went to Trash (`record.trashedAt` set). POSTed to every enabled subscription of the workspace that listens to `record.trashed` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_record_trashed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "record.restored": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * record.restored delivered to a subscription
         * @description A record came back from Trash. POSTed to every enabled subscription of the workspace that listens to `record.restored` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_record_restored"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "record.linked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * record.linked delivered to a subscription
         * @description Two records were linked through a RELATION field, or a link’s label changed (`previousLabel`). Sent once per link, named from the side of the field the relation was defined on. POSTed to every enabled subscription of the workspace that listens to `record.linked` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_record_linked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "record.unlinked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * record.unlinked delivered to a subscription
         * @description A link between two records was removed (by an unlink, a ONE value replaced or cleared, or the removal of its field). Sent once per link. POSTed to every enabled subscription of the workspace that listens to `record.unlinked` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_record_unlinked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deal.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deal.created delivered to a subscription
         * @description A deal was created. POSTed to every enabled subscription of the workspace that listens to `deal.created` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_deal_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deal.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deal.updated delivered to a subscription
         * @description A deal changed. POSTed to every enabled subscription of the workspace that listens to `deal.updated` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_deal_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deal.stage_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deal.stage_changed delivered to a subscription
         * @description A deal moved to another stage. POSTed to every enabled subscription of the workspace that listens to `deal.stage_changed` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_deal_stage_changed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "task.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * task.created delivered to a subscription
         * @description A task was created. POSTed to every enabled subscription of the workspace that listens to `task.created` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_task_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "task.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * task.updated delivered to a subscription
         * @description A task changed (its status too). POSTed to every enabled subscription of the workspace that listens to `task.updated` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_task_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "task.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * task.completed delivered to a subscription
         * @description A task was completed. POSTed to every enabled subscription of the workspace that listens to `task.completed` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_task_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "workflow.run_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * workflow.run_failed delivered to a subscription
         * @description A run of a workflow failed (docs/workflows.md, "Failures"). POSTed to every enabled subscription of the workspace that listens to `workflow.run_failed` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_workflow_run_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.completed delivered to a subscription
         * @description A job ended SUCCEEDED (docs/jobs.md). POSTed to every enabled subscription of the workspace that listens to `job.completed` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_job_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.failed delivered to a subscription
         * @description A job ended FAILED; `job.error` says why (docs/jobs.md). POSTed to every enabled subscription of the workspace that listens to `job.failed` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_job_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test delivered to a subscription
         * @description Sent by `POST /api/v1/webhooks/{id}/test` to that subscription only. POSTed to every enabled subscription of the workspace that listens to `webhook.test` (or `*`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.
         */
        post: operations["on_webhook_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description A record was created. */
        RecordCreatedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "record.created";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string;
            folderId: string;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"];
        };
        Actor: {
            /**
             * @description `user` (the web app), `apiKey`, `workflow` (a run), `import` (the web app’s CSV import), `mcp` (an agent), `system` (the service itself), `job` (an import, export or update job: docs/jobs.md), `app` (an OAuth app acting for a user on the REST API: docs/apps.md).
             * @enum {string}
             */
            type: "user" | "apiKey" | "workflow" | "import" | "mcp" | "system" | "job" | "app";
            /** @description The user, key, run (run_…), job or OAuth app (its client id) that made the change. */
            id: string;
            /** @description Its name when the change was made. */
            name: string;
        };
        /** @description With `expand=<key>,…`: the record each ONE relation field named links to, or null (docs/api.md, "Relations"). */
        ExpandedRecords: {
            [key: string]: components["schemas"]["Record"] | null;
        };
        Record: {
            /** @example rec_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            folderId: string;
            title: string;
            email: string | null;
            phone: string | null;
            data: {
                [key: string]: unknown;
            };
            ownerId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /** @description Set while the record is in Trash. */
            trashedAt: string | null;
            expanded?: components["schemas"]["ExpandedRecords"];
        };
        /** @description A record changed. */
        RecordUpdatedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "record.updated";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string;
            folderId: string;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"];
            /** @description `title`, `email`, `data.<key>` … */
            changedFields: string[];
            /** @description The values of exactly the changed fields before the change */
            previous: {
                [key: string]: unknown;
            };
            /** @description Each changed field with its value before and after (null for none) */
            changes: {
                [key: string]: {
                    from: unknown;
                    to: unknown;
                };
            };
        };
        /** @description A record went to Trash (`record.trashedAt` set). */
        RecordTrashedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "record.trashed";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string;
            folderId: string;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"];
        };
        /** @description A record came back from Trash. */
        RecordRestoredEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "record.restored";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string;
            folderId: string;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"];
        };
        /** @description Two records were linked through a RELATION field, or a link’s label changed (`previousLabel`). Sent once per link, named from the side of the field the relation was defined on. */
        RecordLinkedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "record.linked";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            /** @description The `from` record */
            recordId: string;
            folderId: string;
            /** @description The `from` record as `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            /** @description The record whose field the relation was defined on */
            from: string;
            /** @description That RELATION field */
            field: string;
            /** @description The linked record */
            to: string;
            label: string | null;
            /** @description The paired field of `to`’s folder, or null when the relation has no inverse */
            inverseField: string | null;
            /** @description Present when an existing link’s label changed: the label before */
            previousLabel?: string | null;
        };
        /** @description A link between two records was removed (by an unlink, a ONE value replaced or cleared, or the removal of its field). Sent once per link. */
        RecordUnlinkedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "record.unlinked";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            /** @description The `from` record */
            recordId: string;
            folderId: string;
            /** @description The `from` record as `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            /** @description The record whose field the relation was defined on */
            from: string;
            /** @description That RELATION field */
            field: string;
            /** @description The linked record */
            to: string;
            label: string | null;
            /** @description The paired field of `to`’s folder, or null when the relation has no inverse */
            inverseField: string | null;
        };
        /** @description A deal was created. */
        DealCreatedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "deal.created";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string | null;
            folderId: string | null;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            dealId: string;
            pipelineId: string;
            /** @description As `GET /api/v1/deals/{id}` answers it, as of the event */
            deal: components["schemas"]["Deal"];
        };
        Deal: {
            /** @example deal_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            pipelineId: string;
            stageId: string;
            title: string | null;
            amount: number | null;
            currency: string;
            /**
             * @description YYYY-MM-DD
             * @example 2026-12-31
             */
            closeDate: string | null;
            data: {
                [key: string]: unknown;
            };
            recordId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        /** @description A deal changed. */
        DealUpdatedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "deal.updated";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string | null;
            folderId: string | null;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            dealId: string;
            pipelineId: string;
            /** @description As `GET /api/v1/deals/{id}` answers it, as of the event */
            deal: components["schemas"]["Deal"];
            /** @description `title`, `email`, `data.<key>` … */
            changedFields: string[];
            /** @description The values of exactly the changed fields before the change */
            previous: {
                [key: string]: unknown;
            };
            /** @description Each changed field with its value before and after (null for none) */
            changes: {
                [key: string]: {
                    from: unknown;
                    to: unknown;
                };
            };
        };
        /** @description A deal moved to another stage. */
        DealStageChangedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "deal.stage_changed";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string | null;
            folderId: string | null;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            dealId: string;
            pipelineId: string;
            /** @description As `GET /api/v1/deals/{id}` answers it, as of the event */
            deal: components["schemas"]["Deal"];
            fromStageId: string;
            toStageId: string;
        };
        /** @description A task was created. */
        TaskCreatedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "task.created";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string | null;
            folderId: string | null;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            taskId: string;
            /** @description As `GET /api/v1/tasks/{id}` answers it, as of the event */
            task: components["schemas"]["Task"];
            /** @description For the next occurrence of a recurring task: the task that was completed */
            previousTaskId: string | null;
        };
        Task: {
            /** @example task_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            title: string;
            dueAt: string | null;
            assigneeId: string | null;
            recordId: string | null;
            /** @enum {string} */
            status: "OPEN" | "DONE";
            /** @enum {string} */
            priority: "LOW" | "MEDIUM" | "HIGH" | "URGENT";
            /** @enum {string} */
            type: "TODO" | "CALL" | "EMAIL" | "MEETING";
            recurrence: ("DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY") | null;
            /** @description Set while the task is DONE. */
            completedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        /** @description A task changed (its status too). */
        TaskUpdatedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "task.updated";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string | null;
            folderId: string | null;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            taskId: string;
            /** @description As `GET /api/v1/tasks/{id}` answers it, as of the event */
            task: components["schemas"]["Task"];
            /** @description `title`, `email`, `data.<key>` … */
            changedFields: string[];
            /** @description The values of exactly the changed fields before the change */
            previous: {
                [key: string]: unknown;
            };
            /** @description Each changed field with its value before and after (null for none) */
            changes: {
                [key: string]: {
                    from: unknown;
                    to: unknown;
                };
            };
        };
        /** @description A task was completed. */
        TaskCompletedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "task.completed";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: string | null;
            folderId: string | null;
            /** @description As `GET /api/v1/records/{id}` answers it, as of the event */
            record: components["schemas"]["Record"] | null;
            taskId: string;
            /** @description As `GET /api/v1/tasks/{id}` answers it, as of the event */
            task: components["schemas"]["Task"];
            /** @description For a recurring task: the next occurrence, created now */
            nextTaskId: string | null;
        };
        /** @description A run of a workflow failed (docs/workflows.md, "Failures"). */
        WorkflowRunFailedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "workflow.run_failed";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            workflowId: string;
            workflowName: string;
            runId: string;
            /** @description The run’s context record, if any */
            recordId: string | null;
            /** @description The step that failed (null when the run failed before any step) */
            step: {
                path: string;
                name: string | null;
            } | null;
            /** @description Why it failed */
            error: string;
        };
        /** @description A job ended SUCCEEDED (docs/jobs.md). */
        JobCompletedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "job.completed";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: null;
            folderId: null;
            record: null;
            jobId: string;
            /** @description As `GET /api/v1/jobs/{id}` answers it, as it ended */
            job: components["schemas"]["Job"];
        };
        JobProgress: {
            /** @description Rows (or records) done so far */
            rowsRead: number;
            created: number;
            updated: number;
            unchanged: number;
            refused: number;
            /** @description Rows of the file, or records the job covers; null until known */
            total: number | null;
        };
        Job: {
            /** @example job_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /** @enum {string} */
            type: "IMPORT" | "EXPORT" | "UPDATE";
            /** @enum {string} */
            status: "AWAITING_FILE" | "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            folderId: string | null;
            format: ("csv" | "ndjson") | null;
            progress: components["schemas"]["JobProgress"];
            /** @description Why the job FAILED; null otherwise */
            error: {
                code: string;
                message: string;
            } | null;
            /** @description Who made the job */
            actor: components["schemas"]["Actor"];
            /** @description Where to PUT the file, while the job is AWAITING_FILE (a path under /api/v1) */
            uploadUrl: string | null;
            /** @description Where to GET an export’s file once it SUCCEEDED (a path under /api/v1) */
            fileUrl: string | null;
            /** @description When an export’s file stops being served (410 after) */
            expiresAt: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
        };
        /** @description A job ended FAILED; `job.error` says why (docs/jobs.md). */
        JobFailedEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "job.failed";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: null;
            folderId: null;
            record: null;
            jobId: string;
            /** @description As `GET /api/v1/jobs/{id}` answers it, as it ended */
            job: components["schemas"]["Job"];
        };
        /** @description Sent by `POST /api/v1/webhooks/{id}/test` to that subscription only. */
        WebhookTestEvent: {
            /**
             * @description The event id: the same on every retry and redelivery
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /** @constant */
            event: "webhook.test";
            workspaceId: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Who made the change (docs/api.md, "History and provenance") */
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work */
            requestId: string | null;
            recordId: null;
            folderId: null;
            record: null;
            webhookId: string;
            /** @constant */
            test: true;
        };
        /** Workspace configuration */
        ConfigDocument: {
            /** @constant */
            version: 1;
            folders: components["schemas"]["ConfigFolder"][];
            pipelines: components["schemas"]["ConfigPipeline"][];
            workflows: components["schemas"]["ConfigWorkflow"][];
            webhooks: components["schemas"]["ConfigWebhook"][];
            /** @description The saved views of the user who exports or applies */
            views: components["schemas"]["ConfigView"][];
        };
        ConfigFolder: {
            /** @description The key of the object in the document: unique among its kind */
            name: string;
            /** @description In display order */
            fields: components["schemas"]["ConfigField"][];
        };
        ConfigField: {
            /** @description The key of the value in record `data`: the field’s key */
            key: string;
            label: string;
            /** @enum {string} */
            type: "TEXT" | "SELECT" | "NUMBER" | "BOOLEAN" | "DATE" | "EMAIL" | "URL" | "MULTI_SELECT" | "RELATION";
            options?: string[];
            relation?: components["schemas"]["ConfigRelation"];
        };
        ConfigRelation: {
            /** @description The name of the folder of the linked records */
            folder: string;
            /** @enum {string} */
            cardinality: "ONE" | "MANY";
            labels?: string[];
            /** @description The paired field of the target folder, when the relation has one */
            inverseKey?: string;
        };
        ConfigPipeline: {
            /** @description The key of the object in the document: unique among its kind */
            name: string;
            /** @description In order */
            stages: string[];
        };
        ConfigWorkflow: {
            /** @description The key of the object in the document: unique among its kind */
            name: string;
            enabled: boolean;
            trigger: components["schemas"]["ConfigTrigger"];
            /** @description The actions as `POST /workflows` takes them, with `{ "$folder": name }`, `{ "$pipeline": name }`, `{ "$stage": [pipeline, stage] }` and `{ "$user": email }` where they name a folder, pipeline, stage or member */
            actions: {
                [key: string]: unknown;
            }[];
            requireSignature: boolean;
            rateLimitPerMinute: number;
            notifyOnFailure: {
                $user: string;
            }[];
        };
        ConfigTrigger: {
            /** @enum {string} */
            type: "INCOMING_WEBHOOK" | "SCHEDULE" | "record.created" | "record.updated" | "record.trashed" | "record.restored" | "record.linked" | "record.unlinked" | "deal.created" | "deal.updated" | "deal.stage_changed" | "task.created" | "task.updated" | "task.completed" | "workflow.run_failed" | "job.completed" | "job.failed";
            cron?: string;
            timezone?: string;
        };
        ConfigWebhook: {
            url: string;
            events: string[];
            fields: string[];
            /** @description Custom headers; values are exported masked (they may be tokens). A masked value keeps the value a subscription already has; a new subscription needs the full value. */
            headers: {
                [key: string]: string;
            };
            description: string;
            enabled: boolean;
        };
        ConfigView: {
            /** @description The name of the view’s folder */
            folder: string;
            /** @description The key of the object in the document: unique among its kind */
            name: string;
            columns: string[];
            sort: string | null;
            filters: {
                field: string;
                op: string;
                value: string;
            }[];
        };
        /** @description A condition `{ field, op, value }` or a group `{ and: [ … ] }`, `{ or: [ … ] }`, `{ not: { … } }` (exactly one of `field`, `and`, `or`, `not`). */
        FilterNode: {
            /** @description A condition: `title`, `data.score` … */
            field?: string;
            /**
             * @description Default `eq`.
             * @enum {string}
             */
            op?: "eq" | "ne" | "in" | "gt" | "gte" | "lt" | "lte" | "contains" | "empty";
            /** @description JSON of the field’s type; a list for `in`, true or false for `empty`. */
            value?: unknown;
            /** @description All of these. */
            and?: components["schemas"]["FilterNode"][];
            /** @description Any of these. */
            or?: components["schemas"]["FilterNode"][];
            /** @description Not this. */
            not?: components["schemas"]["FilterNode"];
        };
        WorkflowTriggerInput: {
            /**
             * @description INCOMING_WEBHOOK (a URL to POST to), SCHEDULE (a cron expression), or an event kind (runs on every such event)
             * @enum {string}
             */
            type: "INCOMING_WEBHOOK" | "SCHEDULE" | "record.created" | "record.updated" | "record.trashed" | "record.restored" | "record.linked" | "record.unlinked" | "deal.created" | "deal.updated" | "deal.stage_changed" | "task.created" | "task.updated" | "task.completed" | "workflow.run_failed" | "job.completed" | "job.failed";
            /** @description For SCHEDULE: 5 fields (minute hour day-of-month month day-of-week), e.g. `0 9 * * 1-5` */
            cron?: string;
            /** @description For SCHEDULE: an IANA time zone (default UTC) */
            timezone?: string;
        };
        /** @description Creates a record (or upserts it by email); it becomes the context record. */
        CreateRecordAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "CREATE_RECORD";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description Folder of the new record (fld_…) */
            folderId: string;
            title: string;
            email?: string;
            phone?: string;
            /** @description Custom field values by field key; string values may hold templates. */
            data?: {
                [key: string]: unknown;
            };
            /** @description A user of the workspace (usr_…) */
            ownerId?: string;
            /**
             * @description With `email`: update the live record of the folder with that email instead of creating one
             * @constant
             */
            upsertBy?: "email";
        };
        /** @description Updates the context record; `data` merges. */
        UpdateRecordAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "UPDATE_RECORD";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description A record id; default the run’s context record */
            recordId?: string;
            title?: string;
            email?: string | null;
            phone?: string | null;
            /** @description Custom field values by field key; string values may hold templates. */
            data?: {
                [key: string]: unknown;
            };
        };
        /** @description Sets the owner of the context record. */
        AssignOwnerAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "ASSIGN_OWNER";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description A user of the workspace (usr_…) */
            ownerId: string;
            /** @description A record id; default the run’s context record */
            recordId?: string;
        };
        /** @description Moves a deal to a stage (fires deal.stage_changed). */
        MoveDealStageAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "MOVE_DEAL_STAGE";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description The deal (deal_…), e.g. {{ steps.2.output.id }} or [[ steps.2.output.id ]] */
            dealId: string;
            /** @description A stage of the deal’s pipeline (st_…) */
            stageId: string;
        };
        /** @description Creates a deal linked to the context record, if any. */
        CreateDealAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "CREATE_DEAL";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description Pipeline of the deal (pl_…) */
            pipelineId: string;
            /** @description A stage of the pipeline; default its first stage */
            stageId?: string;
            title?: string;
            /** @description Decimal ≥ 0 with at most 2 decimals */
            amount?: number | string;
            currency?: string;
            closeDate?: string;
            data?: {
                [key: string]: unknown;
            };
            /** @description A record id; default the run’s context record */
            recordId?: string;
        };
        /** @description Creates a task linked to the context record, if any. */
        CreateTaskAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "CREATE_TASK";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            title: string;
            /** @description An ISO 8601 instant */
            dueAt?: string;
            /** @description Due this many days after the step runs (instead of dueAt) */
            dueInDays?: number | string;
            /** @description A user of the workspace (usr_…) */
            assigneeId?: string;
            /** @description One of LOW, MEDIUM, HIGH, URGENT, or a template */
            priority?: string;
            /** @description One of TODO, CALL, EMAIL, MEETING, or a template */
            taskType?: string;
            /** @description A record id; default the run’s context record */
            recordId?: string;
        };
        /** @description Adds a comment to the context record. */
        AddCommentAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "ADD_COMMENT";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            text: string;
            /** @description A record id; default the run’s context record */
            recordId?: string;
        };
        /** @description Links the context record to another through a RELATION field (docs/api.md, "Relations"), as `POST /records/{id}/links` does; linking again changes nothing but the label. Output: the link and `created`. */
        LinkRecordsAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "LINK_RECORDS";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description A RELATION field of the context record’s folder */
            field: string;
            /** @description The record to link: its id (rec_…), or its email or title with `by`; may hold templates */
            to: string;
            /**
             * @description How `to` names the record (default `id`): by email or title, the one live record of the field’s folder that has it
             * @enum {string}
             */
            by?: "id" | "email" | "title";
            /** @description One of the field’s labels */
            label?: string;
            /** @description A record id; default the run’s context record */
            recordId?: string;
        };
        /** @description Calls an external URL (same address rules and timeouts as webhooks); a non-2xx answer fails the step. Output: `{ status, headers, body }`. */
        HttpRequestAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "HTTP_REQUEST";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /**
             * @description Default POST
             * @enum {string}
             */
            method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
            /** @description http(s) URL; may hold templates */
            url: string;
            /** @description Up to 20 headers; not host, content-length, connection, transfer-encoding, keep-alive, upgrade, te, trailer, expect, which the service sets. */
            headers?: {
                [key: string]: string;
            };
            /** @description JSON sent as the body (strings inside may hold templates); not with GET */
            body?: unknown;
        };
        /** @description Stops the run (SUCCEEDED, later steps SKIPPED) when false. */
        ConditionAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "CONDITION";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description A value or a template, e.g. {{ trigger.body.country }} or [[ trigger.body.country ]] */
            left: unknown;
            /** @enum {string} */
            operator: "EQUALS" | "NOT_EQUALS" | "CONTAINS" | "NOT_CONTAINS" | "EXISTS" | "NOT_EXISTS" | "GREATER_THAN" | "LESS_THAN";
            right?: unknown;
        };
        /** @description Runs `then` when the condition holds, else `else`, then goes on. Output: `{ passed }`. */
        BranchAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "BRANCH";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            if: components["schemas"]["WorkflowCondition"];
            /** @description Run when the condition holds */
            then: components["schemas"]["WorkflowAction"][];
            /** @description Run when it does not (default none) */
            else?: components["schemas"]["WorkflowAction"][];
        };
        /** @description A leaf `{ left, operator, right }`, or `{ all: [...] }`, `{ any: [...] }`, `{ not: ... }`; at most 5 deep. */
        WorkflowCondition: {
            /** @description A value or a template */
            left: unknown;
            /** @enum {string} */
            operator: "EQUALS" | "NOT_EQUALS" | "CONTAINS" | "NOT_CONTAINS" | "EXISTS" | "NOT_EXISTS" | "GREATER_THAN" | "LESS_THAN";
            /** @description A value or a template; not for EXISTS and NOT_EXISTS */
            right?: unknown;
        } | {
            all: components["schemas"]["WorkflowCondition"][];
        } | {
            any: components["schemas"]["WorkflowCondition"][];
        } | {
            not: components["schemas"]["WorkflowCondition"];
        };
        /** @description Makes the run wait (`WAITING`, with `resumeAt`) for a duration or until a moment; a waiting run holds no worker. Output: `{ resumeAt }`. */
        DelayAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "DELAY";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description How long to wait: an ISO 8601 duration such as PT2H or P3D, 1 second to 365 days */
            for?: string;
            /** @description Wait until an instant with its offset (`2026-12-01T08:00:00Z`) or a date (`2026-12-01`, with `at` and `timezone`); may hold a template. A moment past goes on at once. */
            until?: string;
            /** @description With a date: the local time, `HH:MM` (default 00:00) */
            at?: string;
            /** @description With a date: an IANA time zone (default UTC) */
            timezone?: string;
        };
        /** @description Runs its actions once per item (at most 1000): `items` or `records`. Output: `{ count, failed }`. */
        ForEachAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "FOR_EACH";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description A template giving a list (`{{ trigger.body.lines }}`), or a list */
            items?: string | unknown[];
            records?: components["schemas"]["ForEachRecords"];
            /** @description true: an item whose step fails is recorded and the loop goes on */
            continueOnError?: boolean;
            /** @description Run for each item; templates read `item.*` and `loop.index` */
            actions: components["schemas"]["WorkflowAction"][];
        };
        /** @description The records of `POST /records/query` with this body, as the workflow’s maker sees them */
        ForEachRecords: {
            /** @description Only records of this folder */
            folderId?: string;
            /** @description A condition `{ field, op, value }` or a group `{ and: [...] }`, `{ or: [...] }`, `{ not: {...} }`; values as JSON of the field’s type. At most 6 levels and 100 nodes. */
            filter?: components["schemas"]["FilterNode"];
            /** @description Same as `search` */
            q?: string;
            /** @description `createdAt`, `updatedAt`, `title` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; records without a value come last. */
            sort?: string;
        };
        /** @description Runs JavaScript in a sandbox: no network, files, process or timers, 64 MiB and 1 s of CPU. A throw, a timeout or too much memory fails the step (not retried). */
        CodeAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "CODE";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description The body of a JavaScript function of `input` (`{ trigger, record, steps, item, loop }`); what it returns (JSON, at most 256 KiB) is the output */
            source: string;
        };
        /** @description Creates a task for a member and waits (`WAITING`) for `POST /runs/{id}/approve` or `/reject`. Output: `{ approved, by, comment, at }`. */
        ApprovalAction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "APPROVAL";
            /** @description A name unique in the workflow; templates read `steps.<name>.output.*` */
            name?: string;
            /** @description The member who answers (usr_…); may hold a template */
            assigneeId: string;
            /** @description The task’s title (default “Approve: <workflow name>”) */
            title?: string;
            /** @description How long to wait for an answer: an ISO 8601 duration such as PT2H or P3D */
            timeout?: string;
            /**
             * @description What a timeout does: REJECT (default), APPROVE or FAIL the step
             * @enum {string}
             */
            onTimeout?: "REJECT" | "APPROVE" | "FAIL";
        };
        WorkflowAction: components["schemas"]["CreateRecordAction"] | components["schemas"]["UpdateRecordAction"] | components["schemas"]["AssignOwnerAction"] | components["schemas"]["MoveDealStageAction"] | components["schemas"]["CreateDealAction"] | components["schemas"]["CreateTaskAction"] | components["schemas"]["AddCommentAction"] | components["schemas"]["LinkRecordsAction"] | components["schemas"]["HttpRequestAction"] | components["schemas"]["ConditionAction"] | components["schemas"]["BranchAction"] | components["schemas"]["DelayAction"] | components["schemas"]["ForEachAction"] | components["schemas"]["CodeAction"] | components["schemas"]["ApprovalAction"];
        AuditEntry: {
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            at: string;
            /** @enum {string} */
            action: "api_key.created" | "api_key.revoked" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated" | "workflow.created" | "workflow.updated" | "workflow.enabled" | "workflow.disabled" | "workflow.deleted" | "workflow.secret_rotated" | "run.cancelled" | "run.approved" | "run.rejected" | "invitation.created" | "invitation.revoked" | "member.joined" | "member.role_changed" | "member.removed" | "oauth_app.authorized" | "oauth_app.revoked" | "oauth_app.registered" | "oauth_app.removed" | "user.signed_in" | "user.sign_in_failed" | "records.exported" | "records.purged" | "job.created" | "job.cancelled" | "folder.created" | "folder.renamed" | "folder.field_added" | "folder.field_changed" | "folder.field_removed" | "config.applied" | "sandbox.created" | "sandbox.deleted";
            actor: components["schemas"]["Actor"];
            /** @enum {string} */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            requestId: string | null;
            /** @description What the action was on (`api_key` and its id, `webhook`, `folder`, `user` …). */
            target: {
                type: string;
                id: string;
            } | null;
            /** @description The particulars of the action: a key’s scopes, a field’s key and type, a count. Never a secret. */
            details: {
                [key: string]: unknown;
            };
        };
        PageMeta: {
            /** @description Page number when paging by `page`; null when paging by cursor. */
            page: number | null;
            pageSize: number;
            hasMore: boolean;
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            nextCursor: string | null;
            /**
             * @description The absolute URL of the next page (this URL with `cursor` set to `nextCursor`, the `Link: rel="next"` target); null on the last page, and over tRPC.
             * @example https://crm.example.com/api/v1/records?pageSize=50&cursor=eyJ2IjoxfQ
             */
            nextUrl: string | null;
        };
        CallLog: {
            /** @example call_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            recordId: string;
            /** @enum {string} */
            direction: "INBOUND" | "OUTBOUND";
            /** @enum {string} */
            outcome: "CONNECTED" | "NO_ANSWER" | "BUSY" | "VOICEMAIL" | "FAILED";
            /** @description Whole seconds. */
            duration: number | null;
            phone: string | null;
            notes: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            calledAt: string;
            /** @description The user (usr_…) who logged the call; null once that user is deleted. */
            authorId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        Comment: {
            /** @example note_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            recordId: string;
            text: string;
            /** @description Display name of the user who wrote the comment. */
            author: string;
            /** @description The user (usr_…) who wrote it; null once that user is deleted. */
            authorId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        ConfigPlan: {
            /** @description In the order apply makes them */
            changes: components["schemas"]["ConfigChange"][];
            /** @description What the workspace has and the document lacks that stays: everything without `prune`; folders and pipelines, which the API does not remove, with it */
            left: components["schemas"]["ConfigLeft"][];
        };
        ConfigChange: {
            /** @enum {string} */
            op: "create" | "update" | "remove";
            /** @enum {string} */
            kind: "folder" | "field" | "pipeline" | "stage" | "workflow" | "webhook" | "view";
            /** @description The object: a folder, pipeline, workflow or view by name (`People`, `People/VIPs`), a field as `folder.key`, a stage as `pipeline/stage`, a webhook by its URL */
            key: string;
            /** @description For an update: what changes (`label`, `options`, `actions` …) */
            changes?: string[];
            /** @description What else the change does to data: values removed, links dropped, deals moved */
            cascade?: string[];
        };
        ConfigLeft: {
            /** @enum {string} */
            kind: "folder" | "field" | "pipeline" | "stage" | "workflow" | "webhook" | "view";
            key: string;
            reason: string;
        };
        ConfigApplied: {
            /** @description In the order apply makes them */
            changes: components["schemas"]["ConfigChange"][];
            /** @description What the workspace has and the document lacks that stays: everything without `prune`; folders and pipelines, which the API does not remove, with it */
            left: components["schemas"]["ConfigLeft"][];
            /** @description The secrets of subscriptions and signed workflows made by this apply: shown once */
            secrets: {
                /** @enum {string} */
                kind: "webhook" | "workflow";
                key: string;
                secret: string;
            }[];
        };
        DealBatchAnswer: {
            data: ({
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 201 created, 200 otherwise */
                status: number;
                data: components["schemas"]["Deal"];
            } | {
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 400 invalid, 404 not found */
                status: number;
                error: {
                    /** @enum {string} */
                    code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                    message: string;
                    details?: {
                        /** @description Relative to the item, as the single call names it */
                        path: string;
                        message: string;
                    }[];
                    /** @description The id of the batch request (X-Request-Id) */
                    requestId: string;
                };
            })[];
            meta: {
                /** @description Items answered with data */
                succeeded: number;
                /** @description Items answered with an error */
                failed: number;
            };
        };
        DealDeleteBatchAnswer: {
            data: ({
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 201 created, 200 otherwise */
                status: number;
                data: {
                    id: string;
                    /** @constant */
                    deleted: true;
                };
            } | {
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 400 invalid, 404 not found */
                status: number;
                error: {
                    /** @enum {string} */
                    code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                    message: string;
                    details?: {
                        /** @description Relative to the item, as the single call names it */
                        path: string;
                        message: string;
                    }[];
                    /** @description The id of the batch request (X-Request-Id) */
                    requestId: string;
                };
            })[];
            meta: {
                /** @description Items answered with data */
                succeeded: number;
                /** @description Items answered with an error */
                failed: number;
            };
        };
        HistoryEntry: {
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            at: string;
            /** @description `title`, `stageId`, `data.<key>` … as `changes` of the `*.updated` event names it. */
            field: string;
            /** @description The value before the change; null when there was none. */
            from: unknown;
            /** @description The value after the change; null when it was removed. */
            to: unknown;
            actor: components["schemas"]["Actor"];
            /**
             * @description The surface the change came through.
             * @enum {string}
             */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            /** @description The X-Request-Id of the request that made it; null for the service’s own work. */
            requestId: string | null;
        };
        ParticipantLink: {
            /**
             * @description The deal or task
             * @example deal_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            from: string;
            /** @description The linked record */
            to: string;
            label: string | null;
            /** @description True for the record its `recordId` names */
            primary: boolean;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
        };
        ParticipantRecord: {
            /** @example rec_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            folderId: string;
            title: string;
            email: string | null;
            phone: string | null;
            data: {
                [key: string]: unknown;
            };
            ownerId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /** @description Set while the record is in Trash. */
            trashedAt: string | null;
            expanded?: components["schemas"]["ExpandedRecords"];
            link: {
                label: string | null;
                primary: boolean;
                /**
                 * Format: date-time
                 * @example 2026-11-21T09:30:00.000Z
                 */
                createdAt: string;
            };
        };
        ListMeta: {
            /** @description Page number when paging by `page`; null when paging by cursor. */
            page: number | null;
            pageSize: number;
            hasMore: boolean;
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            nextCursor: string | null;
            /**
             * @description The absolute URL of the next page (this URL with `cursor` set to `nextCursor`, the `Link: rel="next"` target); null on the last page, and over tRPC.
             * @example https://crm.example.com/api/v1/records?pageSize=50&cursor=eyJ2IjoxfQ
             */
            nextUrl: string | null;
            /** @description With `count=true`: how many items the filters match, on every page. */
            total?: number;
            /** @description With `count=estimate`: the planner's estimate of how many items the filters match, from the table's statistics; it may be off, by a lot for a rare text search. */
            totalEstimate?: number;
        };
        Deleted: {
            data: {
                id: string;
                /** @constant */
                deleted: true;
            };
        };
        /** @description An event: `type` is its kind, and `payload` the body webhook receivers get for it. */
        Event: components["schemas"]["RecordCreatedFeedEvent"] | components["schemas"]["RecordUpdatedFeedEvent"] | components["schemas"]["RecordTrashedFeedEvent"] | components["schemas"]["RecordRestoredFeedEvent"] | components["schemas"]["RecordLinkedFeedEvent"] | components["schemas"]["RecordUnlinkedFeedEvent"] | components["schemas"]["DealCreatedFeedEvent"] | components["schemas"]["DealUpdatedFeedEvent"] | components["schemas"]["DealStageChangedFeedEvent"] | components["schemas"]["TaskCreatedFeedEvent"] | components["schemas"]["TaskUpdatedFeedEvent"] | components["schemas"]["TaskCompletedFeedEvent"] | components["schemas"]["WorkflowRunFailedFeedEvent"] | components["schemas"]["JobCompletedFeedEvent"] | components["schemas"]["JobFailedFeedEvent"];
        /** @description A `record.created` event of the feed. */
        RecordCreatedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "record.created";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["RecordCreatedEvent"];
        };
        /** @description A `record.updated` event of the feed. */
        RecordUpdatedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "record.updated";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["RecordUpdatedEvent"];
        };
        /** @description A `record.trashed` event of the feed. */
        RecordTrashedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "record.trashed";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["RecordTrashedEvent"];
        };
        /** @description A `record.restored` event of the feed. */
        RecordRestoredFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "record.restored";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["RecordRestoredEvent"];
        };
        /** @description A `record.linked` event of the feed. */
        RecordLinkedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "record.linked";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["RecordLinkedEvent"];
        };
        /** @description A `record.unlinked` event of the feed. */
        RecordUnlinkedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "record.unlinked";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["RecordUnlinkedEvent"];
        };
        /** @description A `deal.created` event of the feed. */
        DealCreatedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "deal.created";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["DealCreatedEvent"];
        };
        /** @description A `deal.updated` event of the feed. */
        DealUpdatedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "deal.updated";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["DealUpdatedEvent"];
        };
        /** @description A `deal.stage_changed` event of the feed. */
        DealStageChangedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "deal.stage_changed";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["DealStageChangedEvent"];
        };
        /** @description A `task.created` event of the feed. */
        TaskCreatedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "task.created";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["TaskCreatedEvent"];
        };
        /** @description A `task.updated` event of the feed. */
        TaskUpdatedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "task.updated";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["TaskUpdatedEvent"];
        };
        /** @description A `task.completed` event of the feed. */
        TaskCompletedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "task.completed";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["TaskCompletedEvent"];
        };
        /** @description A `workflow.run_failed` event of the feed. */
        WorkflowRunFailedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "workflow.run_failed";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["WorkflowRunFailedEvent"];
        };
        /** @description A `job.completed` event of the feed. */
        JobCompletedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "job.completed";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["JobCompletedEvent"];
        };
        /** @description A `job.failed` event of the feed. */
        JobFailedFeedEvent: {
            /** @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "job.failed";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            occurredAt: string;
            /** @description Exactly the body webhook receivers get for this event */
            payload: components["schemas"]["JobFailedEvent"];
        };
        EventFeedMeta: {
            /** @description Always null: the feed pages by cursor only (`after`). */
            page: null;
            pageSize: number;
            /** @description Pass as `after` next time. Set whenever events were returned (also on the last page, so a poller resumes from it); when none were, the `after` given (null without one). */
            nextCursor: string | null;
            /** @description More events are listable right now: call again at once. */
            hasMore: boolean;
            /** @description The absolute URL of the next call (this URL with `after` set to `nextCursor`, the `Link: rel="next"` target); null when `nextCursor` is, and over tRPC. */
            nextUrl: string | null;
        };
        Folder: {
            /** @example fld_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            name: string;
            /** @enum {string} */
            type: "CUSTOM";
            fields: components["schemas"]["FieldDefinition"][];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        FieldDefinition: {
            key: string;
            label: string;
            /** @enum {string} */
            type: "TEXT" | "SELECT" | "NUMBER" | "BOOLEAN" | "DATE" | "EMAIL" | "URL" | "MULTI_SELECT" | "RELATION";
            options?: string[];
            /** @description For RELATION fields: what they link to */
            relation?: components["schemas"]["Relation"];
        };
        Relation: {
            folderId: string;
            /** @enum {string} */
            cardinality: "ONE" | "MANY";
            labels?: string[];
            /** @description The paired field of the target folder, or null when the relation has no inverse */
            inverseKey: string | null;
        };
        JobDryRun: {
            data: {
                /** @description Records that match now */
                matched: number;
            };
        };
        Pipeline: {
            /** @example pl_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            name: string;
            /** @description In pipeline order */
            stages: components["schemas"]["Stage"][];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        Stage: {
            /** @example st_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            name: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        PipelineSummary: {
            /** @example pl_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            pipelineId: string;
            /** @description Deals in the pipeline */
            count: number;
            /** @description Per currency, by code; amounts of different currencies are never added */
            totals: components["schemas"]["CurrencyTotal"][];
            /** @description Every stage, in pipeline order, also those without deals */
            stages: {
                stageId: string;
                name: string;
                /** @description Deals in the stage */
                count: number;
                /** @description Per currency, by code */
                totals: components["schemas"]["CurrencyTotal"][];
            }[];
        };
        CurrencyTotal: {
            /**
             * @description ISO 4217 code
             * @example USD
             */
            currency: string;
            /** @description Deals in this currency */
            count: number;
            /**
             * @description Sum of their amounts, to the cent; a deal without an amount adds nothing
             * @example 12500.5
             */
            amount: number;
        };
        RecordBatchAnswer: {
            data: ({
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 201 created, 200 otherwise */
                status: number;
                data: components["schemas"]["Record"];
            } | {
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 400 invalid, 404 not found */
                status: number;
                error: {
                    /** @enum {string} */
                    code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                    message: string;
                    details?: {
                        /** @description Relative to the item, as the single call names it */
                        path: string;
                        message: string;
                    }[];
                    /** @description The id of the batch request (X-Request-Id) */
                    requestId: string;
                };
            })[];
            meta: {
                /** @description Items answered with data */
                succeeded: number;
                /** @description Items answered with an error */
                failed: number;
            };
        };
        LinkBatchAnswer: {
            data: ({
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 201 created, 200 otherwise */
                status: number;
                data: components["schemas"]["Link"];
            } | {
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 400 invalid, 404 not found */
                status: number;
                error: {
                    /** @enum {string} */
                    code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                    message: string;
                    details?: {
                        /** @description Relative to the item, as the single call names it */
                        path: string;
                        message: string;
                    }[];
                    /** @description The id of the batch request (X-Request-Id) */
                    requestId: string;
                };
            })[];
            meta: {
                /** @description Items answered with data */
                succeeded: number;
                /** @description Items answered with an error */
                failed: number;
            };
        };
        Link: {
            /**
             * @description The record the link was read or made from
             * @example rec_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            from: string;
            /** @description Its RELATION field */
            field: string;
            /** @description The linked record */
            to: string;
            label: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
        };
        UnlinkBatchAnswer: {
            data: ({
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 201 created, 200 otherwise */
                status: number;
                data: components["schemas"]["DeletedLink"];
            } | {
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 400 invalid, 404 not found */
                status: number;
                error: {
                    /** @enum {string} */
                    code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                    message: string;
                    details?: {
                        /** @description Relative to the item, as the single call names it */
                        path: string;
                        message: string;
                    }[];
                    /** @description The id of the batch request (X-Request-Id) */
                    requestId: string;
                };
            })[];
            meta: {
                /** @description Items answered with data */
                succeeded: number;
                /** @description Items answered with an error */
                failed: number;
            };
        };
        DeletedLink: {
            from: string;
            field: string;
            to: string;
            /** @constant */
            deleted: true;
        };
        LinkedRecord: {
            /** @example rec_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            folderId: string;
            title: string;
            email: string | null;
            phone: string | null;
            data: {
                [key: string]: unknown;
            };
            ownerId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /** @description Set while the record is in Trash. */
            trashedAt: string | null;
            expanded?: components["schemas"]["ExpandedRecords"];
            /** @description The link that leads to this record */
            link: {
                label: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-21T09:30:00.000Z
                 */
                createdAt: string;
            };
        };
        LinkedDeal: {
            /** @example deal_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            pipelineId: string;
            stageId: string;
            title: string | null;
            amount: number | null;
            currency: string;
            /**
             * @description YYYY-MM-DD
             * @example 2026-12-31
             */
            closeDate: string | null;
            data: {
                [key: string]: unknown;
            };
            recordId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /** @description The link to the record the list was asked for */
            link: {
                label: string | null;
                /** @description True when the record is its `recordId` */
                primary: boolean;
                /**
                 * Format: date-time
                 * @example 2026-11-21T09:30:00.000Z
                 */
                createdAt: string;
            };
        };
        LinkedTask: {
            /** @example task_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            title: string;
            dueAt: string | null;
            assigneeId: string | null;
            recordId: string | null;
            /** @enum {string} */
            status: "OPEN" | "DONE";
            /** @enum {string} */
            priority: "LOW" | "MEDIUM" | "HIGH" | "URGENT";
            /** @enum {string} */
            type: "TODO" | "CALL" | "EMAIL" | "MEETING";
            recurrence: ("DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY") | null;
            /** @description Set while the task is DONE. */
            completedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /** @description The link to the record the list was asked for */
            link: {
                label: string | null;
                /** @description True when the record is its `recordId` */
                primary: boolean;
                /**
                 * Format: date-time
                 * @example 2026-11-21T09:30:00.000Z
                 */
                createdAt: string;
            };
        };
        TimelineEntry: {
            /**
             * @description What the entry stands for: the event (evt_…), comment (note_…), call (call_…) or run (run_…); the record itself for `record.created`.
             * @example evt_01jq3v6f6ve7s9t8m1k2c3d4e5
             */
            id: string;
            /**
             * Format: date-time
             * @description When it happened; entries are newest first.
             * @example 2026-11-21T09:30:00.000Z
             */
            at: string;
            /** @enum {string} */
            kind: "record.created" | "record.updated" | "record.trashed" | "record.restored" | "comment.added" | "call.logged" | "task.created" | "task.completed" | "deal.stage_changed" | "workflow.run" | "record.linked" | "record.unlinked";
            /** @description Set on `comment.added` and `call.logged`; null otherwise. */
            actor: components["schemas"]["TimelineActor"] | null;
            by: components["schemas"]["TimelineProvenance"];
            /** @description `record.updated`: each changed field, from what to what. */
            changes: components["schemas"]["TimelineChange"][] | null;
            /** @description `comment.added` */
            comment: components["schemas"]["TimelineComment"] | null;
            /** @description `call.logged` */
            call: components["schemas"]["TimelineCall"] | null;
            /** @description `task.created`, `task.completed` */
            task: components["schemas"]["TimelineTask"] | null;
            /** @description `deal.stage_changed`: a deal linked to the record moved. */
            deal: components["schemas"]["TimelineDeal"] | null;
            /** @description `workflow.run`: an automation run for the record. */
            run: components["schemas"]["TimelineRun"] | null;
            /** @description `record.linked`, `record.unlinked`: a link of this record, made or removed. */
            link: components["schemas"]["TimelineLink"] | null;
        };
        /** @description Who wrote the comment or logged the call. */
        TimelineActor: {
            /** @description The user (usr_…); null once that user is deleted. */
            userId: string | null;
            /** @description Display name of the user at the time. */
            name: string;
        };
        /** @description Who made the change, through which surface, in which request (docs/api.md, "History and provenance"): on the entries of changes (record.*, links, tasks, deal moves); null on comments, calls and runs, and on changes made before provenance was kept. */
        TimelineProvenance: {
            actor: components["schemas"]["Actor"];
            /** @enum {string} */
            source: "web" | "rest" | "trpc" | "mcp" | "workflow" | "import" | "system" | "job";
            requestId: string | null;
        } | null;
        TimelineChange: {
            /** @description `title`, `email`, `phone`, `ownerId` or `data.<key>` */
            field: string;
            /** @description The value before the change; null when there was none. */
            from: unknown;
            /** @description The value after the change; null when it was removed. */
            to: unknown;
        };
        TimelineComment: {
            /** @example note_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            text: string;
        };
        TimelineCall: {
            /** @example call_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            /** @enum {string} */
            direction: "INBOUND" | "OUTBOUND";
            /** @enum {string} */
            outcome: "CONNECTED" | "NO_ANSWER" | "BUSY" | "VOICEMAIL" | "FAILED";
            /** @description Whole seconds. */
            duration: number | null;
            notes: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            calledAt: string;
        };
        TimelineTask: {
            id: string;
            /** @description As of the entry. */
            title: string;
        };
        TimelineDeal: {
            id: string;
            /** @description As of the move. */
            title: string | null;
            pipelineId: string;
            from: components["schemas"]["TimelineStage"];
            to: components["schemas"]["TimelineStage"];
        };
        TimelineStage: {
            id: string;
            /** @description The stage's current name; null once the stage is removed. */
            name: string | null;
        };
        TimelineRun: {
            /** @description The run (run_…), as `GET /api/v1/runs/{id}` shows it. */
            id: string;
            workflowId: string;
            workflowName: string;
            /**
             * @description As of now: a run still going is QUEUED, RUNNING or WAITING.
             * @enum {string}
             */
            status: "QUEUED" | "RUNNING" | "WAITING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            /** @description Why the run failed, when it did. */
            error: string | null;
        };
        TimelineLink: {
            /** @description The RELATION field of this record; null when the relation has no field on this side. */
            field: string | null;
            /** @description The other record of the link */
            recordId: string;
            /** @description The other record's current title; null once it is gone. */
            title: string | null;
            label: string | null;
        };
        Run: {
            /** @example run_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            workflowId: string;
            /** @enum {string} */
            status: "QUEUED" | "RUNNING" | "WAITING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            /** @enum {string} */
            trigger: "INCOMING_WEBHOOK" | "EVENT" | "SCHEDULE" | "RERUN";
            /** @description While WAITING: when the run goes on (a delay’s end, an approval’s timeout) */
            resumeAt: string | null;
            /** @description The trigger payload: the incoming JSON body, or the event */
            input: unknown;
            /** @description The context record given by the trigger */
            recordId: string | null;
            /** @description Every step in the order it runs: those done with their results, those to come PENDING, the arm a branch did not take SKIPPED, and each item of a loop */
            steps: components["schemas"]["RunStep"][];
            /** @description Why the run failed */
            error: string | null;
            rerunOf: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
        };
        RunStep: {
            /**
             * @description Where the step is: `2`, `2.then.0` (a branch’s arm), `3.items.17.1` (item 17 of a loop)
             * @example 2.then.0
             */
            path: string;
            /** @description The action’s name, if it has one */
            name: string | null;
            /** @description The index of the action in its list */
            index: number;
            action: string;
            /** @enum {string} */
            status: "PENDING" | "RUNNING" | "WAITING" | "SUCCEEDED" | "FAILED" | "SKIPPED";
            /** @description The parameters after templates were rendered */
            input: unknown;
            output: unknown;
            error: string | null;
            attempts: number;
            /** @description When a failed step will be tried again (5 attempts in all); null otherwise */
            nextAttemptAt: string | null;
            /** @description A waiting step’s end (DELAY) or timeout (APPROVAL); null otherwise */
            resumeAt: string | null;
            startedAt: string | null;
            finishedAt: string | null;
        };
        Sandbox: {
            /** @example ws_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            name: string;
            sourceWorkspaceId: string;
            allowUrls: string[];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
        };
        CreatedSandbox: {
            /** @example ws_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            name: string;
            sourceWorkspaceId: string;
            allowUrls: string[];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /** @description A key of the sandbox (`crm_test_…`) for the member who made it, with every scope: shown only here */
            apiKey: string;
            copied: {
                folders: number;
                pipelines: number;
                workflows: number;
                webhooks: number;
                views: number;
                records: number;
            };
        };
        TaskBatchAnswer: {
            data: ({
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 201 created, 200 otherwise */
                status: number;
                data: components["schemas"]["Task"];
            } | {
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 400 invalid, 404 not found */
                status: number;
                error: {
                    /** @enum {string} */
                    code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                    message: string;
                    details?: {
                        /** @description Relative to the item, as the single call names it */
                        path: string;
                        message: string;
                    }[];
                    /** @description The id of the batch request (X-Request-Id) */
                    requestId: string;
                };
            })[];
            meta: {
                /** @description Items answered with data */
                succeeded: number;
                /** @description Items answered with an error */
                failed: number;
            };
        };
        TaskDeleteBatchAnswer: {
            data: ({
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 201 created, 200 otherwise */
                status: number;
                data: {
                    id: string;
                    /** @constant */
                    deleted: true;
                };
            } | {
                /** @description Position of the item in the request */
                index: number;
                /** @description What the single call would have answered: 400 invalid, 404 not found */
                status: number;
                error: {
                    /** @enum {string} */
                    code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                    message: string;
                    details?: {
                        /** @description Relative to the item, as the single call names it */
                        path: string;
                        message: string;
                    }[];
                    /** @description The id of the batch request (X-Request-Id) */
                    requestId: string;
                };
            })[];
            meta: {
                /** @description Items answered with data */
                succeeded: number;
                /** @description Items answered with an error */
                failed: number;
            };
        };
        Webhook: {
            /** @example wh_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            url: string;
            events: string[];
            fields: string[];
            /**
             * @description Custom headers, values masked
             * @example {
             *       "Authorization": "Bear…"
             *     }
             */
            headers: {
                [key: string]: string;
            };
            description: string;
            enabled: boolean;
            /** @description Why the service disabled the subscription; null unless it did */
            disabledReason: string | null;
            lastSuccessAt: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        WebhookWithSecret: {
            /** @example wh_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            url: string;
            events: string[];
            fields: string[];
            /**
             * @description Custom headers, values masked
             * @example {
             *       "Authorization": "Bear…"
             *     }
             */
            headers: {
                [key: string]: string;
            };
            description: string;
            enabled: boolean;
            /** @description Why the service disabled the subscription; null unless it did */
            disabledReason: string | null;
            lastSuccessAt: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /**
             * @description Signing secret (`whsec_…`). Shown only in this response: store it now.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        Delivery: {
            /** @example dlv_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            webhookId: string;
            eventId: string;
            /** @description Event kind; null once the event is no longer kept */
            event: string | null;
            /**
             * @description CAPTURED: a sandbox kept it instead of sending it (docs/operations.md, "Sandboxes")
             * @enum {string}
             */
            status: "PENDING" | "SUCCEEDED" | "FAILED" | "CAPTURED";
            attemptCount: number;
            nextAttemptAt: string | null;
            /** @description The delivery this one repeats */
            redeliveryOf: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /** @description Every attempt, in order */
            attempts: components["schemas"]["DeliveryAttempt"][];
            /** @description For a CAPTURED delivery: the JSON body it would have sent (null once the event is no longer kept); null otherwise */
            body: unknown | null;
        };
        DeliveryAttempt: {
            attempt: number;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            startedAt: string;
            durationMs: number;
            /** @description null when no response came */
            responseStatus: number | null;
            error: string | null;
            /** @description First 4 KiB of the response body */
            responseExcerpt: string | null;
        };
        Workflow: {
            /** @example wf_7ztm1m0ny2bk3r2yj0jvbxg0qa */
            id: string;
            name: string;
            enabled: boolean;
            trigger: components["schemas"]["WorkflowTrigger"];
            /** @description As saved: `{ type, ...parameters }` */
            actions: components["schemas"]["WorkflowAction"][];
            requireSignature: boolean;
            rateLimitPerMinute: number;
            /** @description Members given a task when a run fails */
            notifyOnFailure: string[];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
        };
        WorkflowTrigger: {
            /** @enum {string} */
            type: "INCOMING_WEBHOOK" | "SCHEDULE" | "record.created" | "record.updated" | "record.trashed" | "record.restored" | "record.linked" | "record.unlinked" | "deal.created" | "deal.updated" | "deal.stage_changed" | "task.created" | "task.updated" | "task.completed" | "workflow.run_failed" | "job.completed" | "job.failed";
            /** @description For INCOMING_WEBHOOK: the URL to POST to (its id is the secret); null otherwise */
            url: string | null;
            /** @description For SCHEDULE: the cron expression; null otherwise */
            cron: string | null;
            /** @description For SCHEDULE: the IANA time zone; null otherwise */
            timezone: string | null;
            /** @description For an enabled SCHEDULE: its next firing; null otherwise */
            nextRunAt: string | null;
        };
        WorkflowSaveAnswer: {
            data: components["schemas"]["WorkflowWithSecret"];
            meta: components["schemas"]["WorkflowSaveMeta"];
        };
        WorkflowWithSecret: {
            /** @example wf_7ztm1m0ny2bk3r2yj0jvbxg0qa */
            id: string;
            name: string;
            enabled: boolean;
            trigger: components["schemas"]["WorkflowTrigger"];
            /** @description As saved: `{ type, ...parameters }` */
            actions: components["schemas"]["WorkflowAction"][];
            requireSignature: boolean;
            rateLimitPerMinute: number;
            /** @description Members given a task when a run fails */
            notifyOnFailure: string[];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updatedAt: string;
            /** @description Signing secret for incoming calls (`whsec_…`), shown only when created or rotated; null when none is required */
            secret: string | null;
        };
        WorkflowSaveMeta: {
            /** @description Action values that look like a `{{ }}` template another tool (n8n, Make) filled in before sending: "", "undefined", "null", "[object Object]" where a value is expected. The workflow is saved as given; empty when nothing looks wrong. */
            warnings: components["schemas"]["WorkflowWarning"][];
        };
        WorkflowWarning: {
            /** @example actions.2.body.email */
            path: string;
            /** @example is empty: was a {{ }} template here filled in by the tool that sent the automation? Write it as [[ … ]] */
            message: string;
        };
        CodeTestResult: {
            ok: boolean;
            /** @description What the code returned (when ok) */
            output: unknown;
            /** @description Why it failed (when not ok), with the line of the source where known */
            error: {
                /** @enum {string} */
                kind: "syntax" | "throw" | "timeout" | "memory" | "output";
                message: string;
                line: number | null;
            } | null;
            durationMs: number;
        };
        Me: {
            workspace: {
                /** @example ws_01jq3v6f6ve7s9t8m1k2c3d4e5 */
                id: string;
                name: string;
                /** @description ISO 4217 code used for deals that name none. */
                defaultCurrency: string;
                rateLimitPerMinute: number;
            };
            user: {
                id: string;
                name: string;
                email: string;
                /** @enum {string} */
                role: "OWNER" | "ADMIN" | "MEMBER";
            };
            /** @description The API key of this request; null for a signed-in session. */
            key: {
                id: string;
                name: string;
                /** @description First characters of the secret, for recognising it */
                prefix: string;
                /** @description The scopes the key lists. */
                scopes: ("read" | "write" | "records:read" | "records:write" | "records:delete" | "folders:read" | "folders:write" | "folders:delete" | "comments:read" | "comments:write" | "calls:read" | "calls:write" | "pipelines:read" | "pipelines:write" | "pipelines:delete" | "deals:read" | "deals:write" | "deals:delete" | "tasks:read" | "tasks:write" | "tasks:delete" | "webhooks:read" | "webhooks:write" | "webhooks:delete" | "workflows:read" | "workflows:write" | "workflows:delete" | "events:read" | "audit:read" | "jobs:read" | "jobs:write" | "config:read" | "config:write")[];
                /** @description The folders the key reaches; null for every folder. */
                folderIds: string[] | null;
                expiresAt: string | null;
            } | null;
            /** @description What this caller may do now, scope by scope: the key's scopes within its maker's role, or a signed-in user's role (docs/api.md, "Scopes"). */
            scopes: ("records:read" | "records:write" | "records:delete" | "folders:read" | "folders:write" | "folders:delete" | "comments:read" | "comments:write" | "calls:read" | "calls:write" | "pipelines:read" | "pipelines:write" | "pipelines:delete" | "deals:read" | "deals:write" | "deals:delete" | "tasks:read" | "tasks:write" | "tasks:delete" | "webhooks:read" | "webhooks:write" | "webhooks:delete" | "workflows:read" | "workflows:write" | "workflows:delete" | "events:read" | "audit:read" | "jobs:read" | "jobs:write" | "config:read" | "config:write")[];
            /** @description The workspace rate limit as of this request (this request counted), read from the same window as the RateLimit-* headers. */
            rateLimit: {
                limit: number;
                remaining: number;
                resetSeconds: number;
            };
        };
        Member: {
            /** @example usr_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            id: string;
            name: string;
            email: string;
            /** @enum {string} */
            role: "OWNER" | "ADMIN" | "MEMBER";
            /**
             * Format: date-time
             * @description When the user joined this workspace.
             * @example 2026-11-21T09:30:00.000Z
             */
            createdAt: string;
        };
        TriggerAccepted: {
            /** @constant */
            ok: true;
            /** @example wf_7ztm1m0ny2bk3r2yj0jvbxg0qa */
            workflowId: string;
            /** @example run_01jq3v6f6ve7s9t8m1k2c3d4e5 */
            runId: string;
        };
        /** @description Every error answer: a code from the registry, a message for people and the request id. */
        Error: {
            error: {
                /** @enum {string} */
                code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                message: string;
                /** @description Present for validation errors: one entry per offending field. */
                details?: {
                    /** @example data.stage */
                    path: string;
                    message: string;
                }[];
                requestId: string;
            };
        };
        /** @description Every error answer of a trigger URL: `ok: false` and the error body of the REST API (a code from the registry, a message for people and the request id). */
        TriggerError: {
            /** @constant */
            ok: false;
            error: {
                /** @enum {string} */
                code: "VALIDATION_FAILED" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
                message: string;
                /** @description Present for validation errors: one entry per offending field. */
                details?: {
                    /** @example data.stage */
                    path: string;
                    message: string;
                }[];
                requestId: string;
            };
        };
    };
    responses: {
        /** @description The body or query failed validation (details name each field) */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "VALIDATION_FAILED";
                    };
                };
            };
        };
        /** @description No, unknown, revoked or expired API key */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
        };
        /** @description The API key lacks the scope for this call */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
        };
        /** @description No such resource in this workspace */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
        };
        /** @description A request with the same Idempotency-Key is still running; or a conflict the operation names (a field at its 10,000 links, a RELATION field that still has links) */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "CONFLICT";
                    };
                };
            };
        };
        /** @description What was asked for was kept for a while and is gone (an export’s file after 24 hours) */
        Gone: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "GONE";
                    };
                };
            };
        };
        /** @description If-Match names a version that is no longer current; read the resource again */
        PreconditionFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "PRECONDITION_FAILED";
                    };
                };
            };
        };
        /** @description The body is larger than 1 MiB (a job’s file: 1 GiB) */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
        };
        /** @description The body is not application/json (a job’s file: not the job’s format) */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
        };
        /** @description The Idempotency-Key was used with another body */
        IdempotencyKeyReused: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "IDEMPOTENCY_KEY_REUSED";
                    };
                };
            };
        };
        /** @description Over the rate limit; wait Retry-After seconds */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
        };
        /** @description Unexpected error; quote the requestId when reporting it */
        Internal: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
        };
        /** @description The database cannot be reached; retry after Retry-After seconds */
        Unavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "UNAVAILABLE";
                    };
                };
            };
        };
    };
    parameters: {
        /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
        "Idempotency-Key": string;
        /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
        "If-None-Match": string;
        /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
        "If-Match": string;
    };
    requestBodies: never;
    headers: {
        /** @description Identifies the request in the service logs; echoes the client’s X-Request-Id. */
        "X-Request-Id": string;
        /** @description Requests allowed per minute for the workspace */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window frees requests */
        "RateLimit-Reset": number;
        /** @description The next page: `<URL of the same list with cursor set>; rel="next"`, when there is one. */
        Link: string;
        /** @description Present (`true`) when this is the stored response of an earlier request with the same Idempotency-Key. */
        "Idempotent-Replayed": "true";
        /** @description The URL of the new resource, where a GET reads it */
        Location: string;
        /** @description A strong entity tag of this representation; send it in If-None-Match or If-Match */
        ETag: string;
        /** @description Whole seconds to wait before retrying (at least 1) */
        "Retry-After": number;
        /** @description The authentication scheme to use: `Bearer` */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "audit-list": {
        parameters: {
            query?: {
                /** @description Only actions of this kind of actor. */
                actorType?: "user" | "apiKey" | "workflow" | "import" | "mcp" | "system" | "job" | "app";
                /** @description Only actions of this user, key, run or job. */
                actorId?: string;
                /** @description Only this action. */
                action?: "api_key.created" | "api_key.revoked" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated" | "workflow.created" | "workflow.updated" | "workflow.enabled" | "workflow.disabled" | "workflow.deleted" | "workflow.secret_rotated" | "run.cancelled" | "run.approved" | "run.rejected" | "invitation.created" | "invitation.revoked" | "member.joined" | "member.role_changed" | "member.removed" | "oauth_app.authorized" | "oauth_app.revoked" | "oauth_app.registered" | "oauth_app.removed" | "user.signed_in" | "user.sign_in_failed" | "records.exported" | "records.purged" | "job.created" | "job.cancelled" | "folder.created" | "folder.renamed" | "folder.field_added" | "folder.field_changed" | "folder.field_removed" | "config.applied" | "sandbox.created" | "sandbox.deleted";
                /** @description Only actions at or after this instant. */
                since?: string;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditEntry"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "calls-list": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CallLog"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "calls-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description Default OUTBOUND.
                     * @enum {string}
                     */
                    direction?: "INBOUND" | "OUTBOUND";
                    /**
                     * @description Default CONNECTED.
                     * @enum {string}
                     */
                    outcome?: "CONNECTED" | "NO_ANSWER" | "BUSY" | "VOICEMAIL" | "FAILED";
                    /** @description Whole seconds, 0 to 604800. */
                    duration?: number | null;
                    /** @description Defaults to the record's phone; null or empty stores none. */
                    phone?: string | null;
                    /** @description At most 10000 characters; null or empty stores none. */
                    notes?: string | null;
                    /**
                     * Format: date-time
                     * @description When the call took place; default now.
                     */
                    calledAt?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CallLog"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "calls-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Record id */
                id: string;
                /** @description Call log id */
                callId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CallLog"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "comments-list": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Comment"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "comments-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The comment, 1 to 10000 characters after trimming. */
                    text: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Comment"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "comments-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Record id */
                id: string;
                /** @description Comment id */
                commentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Comment"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "config-get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConfigDocument"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "config-plan": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    document: components["schemas"]["ConfigDocument"];
                    /** @description true: remove what the workspace has and the document lacks (default false) */
                    prune?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConfigPlan"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "config-applyDocument": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    document: components["schemas"]["ConfigDocument"];
                    /** @description true: remove what the workspace has and the document lacks (default false) */
                    prune?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConfigApplied"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-batchCreate": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 bodies of `POST /deals`, each created as that call would. */
                    items: {
                        pipelineId: string;
                        /** @description A stage of the pipeline; default its first stage */
                        stageId?: string;
                        title?: string;
                        /**
                         * @description Decimal from 0 to 999999999999.99 with at most 2 decimals (a third decimal is refused).
                         * @example 1250.5
                         */
                        amount?: number;
                        /**
                         * @description ISO 4217 code in capitals; defaults to the workspace currency (USD)
                         * @example EUR
                         * @enum {string}
                         */
                        currency?: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HRK" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SLL" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XDR" | "XOF" | "XPF" | "XSU" | "YER" | "ZAR" | "ZMW" | "ZWG" | "ZWL";
                        /** Format: date */
                        closeDate?: string;
                        /** @description Free JSON object */
                        data?: {
                            [key: string]: unknown;
                        };
                        /** @description A live record to link the deal to */
                        recordId?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DealBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-batchUpdate": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 changes, each `{ id, … }` with the body of `PATCH /deals/{id}`. */
                    items: {
                        /** @description Deal id */
                        id: string;
                        /** @description Move the deal to this stage of its pipeline */
                        stageId?: string;
                        title?: string | null;
                        /** @description Decimal from 0 to 999999999999.99 with at most 2 decimals (a third decimal is refused); null clears it. */
                        amount?: number | null;
                        /**
                         * @description ISO 4217 code in capitals; defaults to the workspace currency (USD)
                         * @example EUR
                         * @enum {string}
                         */
                        currency?: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HRK" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SLL" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XDR" | "XOF" | "XPF" | "XSU" | "YER" | "ZAR" | "ZMW" | "ZWG" | "ZWL";
                        closeDate?: string | null;
                        /** @description Merged: keys given replace, a key given as null is removed */
                        data?: {
                            [key: string]: unknown;
                        };
                        recordId?: string | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DealBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-batchDelete": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 ids of deals to delete permanently. */
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DealDeleteBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-history": {
        parameters: {
            query?: {
                /** @description Only changes of this field (`title`, `data.stage` …). */
                field?: string;
                /** @description Only changes made at or after this instant. */
                since?: string;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Id of the record, deal or task */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HistoryEntry"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-revertHistory": {
        parameters: {
            query?: {
                /** @description `true` sets the field back even though it changed after this entry (otherwise 409). */
                force?: "true" | "false";
            };
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Id of the record, deal or task */
                id: string;
                /** @description The history entry (hst_…) whose change is undone */
                entryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deal"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-records": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Deal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantRecord"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-linkRecord": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Deal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The record to link (`rec_…`), a live record of the workspace */
                    to: string;
                    /** @description What the record is to it ("Decision maker"); linking again changes it */
                    label?: string | null;
                };
            };
        };
        responses: {
            /** @description Already linked: the existing link */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantLink"];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantLink"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-unlinkRecordByBody": {
        parameters: {
            query: {
                /** @description Id of the linked record */
                to: string;
            };
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Deal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            from: string;
                            to: string;
                            /** @constant */
                            deleted: true;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-unlinkRecord": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Deal id */
                id: string;
                /** @description Id of the linked record */
                to: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            from: string;
                            to: string;
                            /** @constant */
                            deleted: true;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-list": {
        parameters: {
            query: {
                /** @description Required: the pipeline whose deals to list */
                pipelineId: string;
                /** @description Only deals in this stage of the pipeline */
                stageId?: string;
                /** @description Only deals linked to this record */
                recordId?: string;
                /** @description Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts". */
                filter?: {
                    [key: string]: (string | number | boolean) | {
                        [key: string]: string | number | boolean;
                    };
                };
                /** @description `createdAt`, `updatedAt`, `title`, `amount`, `closeDate` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; deals without a value come last. */
                sort?: string;
                /** @description `true` adds `meta.total`, the exact number of deals the filters match (a count of them); `estimate` adds `meta.totalEstimate` instead, PostgreSQL's estimate of that number, which costs no count. */
                count?: "true" | "false" | "estimate";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deal"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    pipelineId: string;
                    /** @description A stage of the pipeline; default its first stage */
                    stageId?: string;
                    title?: string;
                    /**
                     * @description Decimal from 0 to 999999999999.99 with at most 2 decimals (a third decimal is refused).
                     * @example 1250.5
                     */
                    amount?: number;
                    /**
                     * @description ISO 4217 code in capitals; defaults to the workspace currency (USD)
                     * @example EUR
                     * @enum {string}
                     */
                    currency?: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HRK" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SLL" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XDR" | "XOF" | "XPF" | "XSU" | "YER" | "ZAR" | "ZMW" | "ZWG" | "ZWL";
                    /** Format: date */
                    closeDate?: string;
                    /** @description Free JSON object */
                    data?: {
                        [key: string]: unknown;
                    };
                    /** @description A live record to link the deal to */
                    recordId?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deal"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Deal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deal"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-delete": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Deal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "deals-update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Deal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Move the deal to this stage of its pipeline */
                    stageId?: string;
                    title?: string | null;
                    /** @description Decimal from 0 to 999999999999.99 with at most 2 decimals (a third decimal is refused); null clears it. */
                    amount?: number | null;
                    /**
                     * @description ISO 4217 code in capitals; defaults to the workspace currency (USD)
                     * @example EUR
                     * @enum {string}
                     */
                    currency?: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HRK" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SLL" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XDR" | "XOF" | "XPF" | "XSU" | "YER" | "ZAR" | "ZMW" | "ZWG" | "ZWL";
                    closeDate?: string | null;
                    /** @description Merged: keys given replace, a key given as null is removed */
                    data?: {
                        [key: string]: unknown;
                    };
                    recordId?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Deal"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "events-list": {
        parameters: {
            query?: {
                /** @description The `meta.nextCursor` of the previous call: events after it. Omit (or leave empty, `after=`) to start from the oldest kept. */
                after?: string;
                /** @description Comma-separated event kinds to list, e.g. `record.created,deal.stage_changed`; blanks around a kind are ignored. Default (also empty or `*`): all. */
                types?: string;
                /** @description Events per call, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description Same as `pageSize` (kept for pollers written against it). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Event"][];
                        meta: components["schemas"]["EventFeedMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "folders-list": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Folder"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "folders-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Up to 200 field definitions; no key twice. */
                    fields?: {
                        /**
                         * @description Key of the value inside record `data`.
                         * @example company
                         */
                        key: string;
                        label: string;
                        /** @enum {string} */
                        type: "TEXT" | "SELECT" | "NUMBER" | "BOOLEAN" | "DATE" | "EMAIL" | "URL" | "MULTI_SELECT" | "RELATION";
                        /** @description Allowed values; required for SELECT and MULTI_SELECT. */
                        options?: string[];
                        /** @description Required for RELATION fields, refused on any other. */
                        relation?: {
                            /** @description The folder of the linked records (this folder too) */
                            folderId: string;
                            /**
                             * @description `ONE`: at most one linked record, kept in `data`; `MANY`: any number, as links.
                             * @enum {string}
                             */
                            cardinality: "ONE" | "MANY";
                            /** @description The labels a link may carry ("Decision maker", "Billing"); without them links carry none. */
                            labels?: string[];
                        };
                        /** @description Creates the paired field on the target folder in the same change: linking A to B through this field shows A in B’s inverse field, and the reverse. */
                        inverse?: {
                            /**
                             * @description Key of the value inside record `data`.
                             * @example company
                             */
                            key: string;
                            label: string;
                            /**
                             * @description `ONE`: at most one linked record, kept in `data`; `MANY`: any number, as links.
                             * @enum {string}
                             */
                            cardinality: "ONE" | "MANY";
                        };
                    }[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Folder"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "folders-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Folder id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Folder"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "folders-rename": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Folder id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Folder"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "folders-addField": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Folder id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Key of the value inside record `data`.
                     * @example company
                     */
                    key: string;
                    label: string;
                    /** @enum {string} */
                    type: "TEXT" | "SELECT" | "NUMBER" | "BOOLEAN" | "DATE" | "EMAIL" | "URL" | "MULTI_SELECT" | "RELATION";
                    /** @description Allowed values; required for SELECT and MULTI_SELECT. */
                    options?: string[];
                    /** @description Required for RELATION fields, refused on any other. */
                    relation?: {
                        /** @description The folder of the linked records (this folder too) */
                        folderId: string;
                        /**
                         * @description `ONE`: at most one linked record, kept in `data`; `MANY`: any number, as links.
                         * @enum {string}
                         */
                        cardinality: "ONE" | "MANY";
                        /** @description The labels a link may carry ("Decision maker", "Billing"); without them links carry none. */
                        labels?: string[];
                    };
                    /** @description Creates the paired field on the target folder in the same change: linking A to B through this field shows A in B’s inverse field, and the reverse. */
                    inverse?: {
                        /**
                         * @description Key of the value inside record `data`.
                         * @example company
                         */
                        key: string;
                        label: string;
                        /**
                         * @description `ONE`: at most one linked record, kept in `data`; `MANY`: any number, as links.
                         * @enum {string}
                         */
                        cardinality: "ONE" | "MANY";
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Folder"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "folders-removeField": {
        parameters: {
            query?: {
                /** @description A RELATION field that still has links is only removed with `true`: then its inverse and every link go too, each with a `record.unlinked` event. */
                force?: "true" | "false";
            };
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Folder id */
                id: string;
                /** @description Key of the field to remove; its values are removed from the records */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Folder"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "folders-changeField": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Folder id */
                id: string;
                /** @description Key of the field to change */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    label?: string;
                    /** @enum {string} */
                    type?: "TEXT" | "SELECT" | "NUMBER" | "BOOLEAN" | "DATE" | "EMAIL" | "URL" | "MULTI_SELECT" | "RELATION";
                    options?: string[];
                    /** @description A RELATION field’s labels (null: none), changed on both fields of a pair. Links keep a label taken off the list. */
                    relation?: {
                        labels: string[] | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Folder"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-createImport": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The folder the records go to */
                    folderId: string;
                    /**
                     * @description The file’s format: CSV with a header row, or one JSON object a line
                     * @enum {string}
                     */
                    format: "csv" | "ndjson";
                    /** @description Each column of the file (a CSV header, or a key of the NDJSON objects) to where its value goes. Columns not named are left out; one must go to `title`. */
                    mapping: {
                        [key: string]: string;
                    };
                    /** @description Update the live record of the folder whose value this is instead of creating one: `email` (case-insensitive), `title` or `data.<key>`. */
                    upsertBy?: string;
                    /** @description How a RELATION column names its records: by `id` (the default), `title` or `email`. A MANY relation’s names are separated by `;`. */
                    relations?: {
                        [key: string]: "id" | "title" | "email";
                    };
                    /** @description `false`: the job’s changes send no webhooks and start no event-triggered workflows; history and the event feed keep them. Default `true`. */
                    notify?: boolean;
                    /** @description `true`: every row is checked and its result written, and nothing is kept. */
                    dryRun?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-createExport": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The folder whose records are exported */
                    folderId: string;
                    /** @description As `POST /records/query`’s `filter` */
                    filter?: components["schemas"]["FilterNode"];
                    /** @description A text search, as `POST /records/query`’s `q` */
                    q?: string;
                    /** @description As `POST /records/query`’s `sort` (default `-createdAt`) */
                    sort?: string;
                    /** @description The custom fields to write (`data.<key>`); default every field of the folder */
                    fields?: string[];
                    /** @enum {string} */
                    format: "csv" | "ndjson";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-createUpdate": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The folder whose records change */
                    folderId: string;
                    /** @description As `POST /records/query`’s `filter` */
                    filter?: components["schemas"]["FilterNode"];
                    /** @description A text search, as `POST /records/query`’s `q` */
                    q?: string;
                    /** @description What every matching record gets, as a `PATCH /records/{id}` body. Give `set` or `trash`, one of the two. */
                    set?: {
                        title?: string;
                        ownerId?: string | null;
                        /** @description Merged into each record’s values as `PATCH /records/{id}` merges them (null removes a key) */
                        data?: {
                            [key: string]: unknown;
                        };
                    };
                    /**
                     * @description `true`: move every matching record to Trash; instead of `set`, not with it
                     * @constant
                     */
                    trash?: true;
                    /** @description `true`: answer 200 with how many records match now, and change nothing */
                    dryRun?: boolean;
                };
            };
        };
        responses: {
            /** @description A dry run: how many records match now */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    } | components["schemas"]["JobDryRun"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    } | components["schemas"]["JobDryRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-revert": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Job id (job_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-file": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Job id (job_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-putFile": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Job id (job_…) */
                id: string;
            };
            cookie?: never;
        };
        /** @description The file, as the raw body */
        requestBody: {
            content: {
                "text/csv": string;
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Job id (job_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-list": {
        parameters: {
            query?: {
                /** @description Only jobs of this type */
                type?: "IMPORT" | "EXPORT" | "UPDATE";
                /** @description Only jobs in this status */
                status?: "AWAITING_FILE" | "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-cancel": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Job id (job_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "jobs-results": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Job id (job_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-list": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Stage names in order; default Lead, Qualified, Proposal, Won, Lost */
                    stages?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-rename": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-summary": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PipelineSummary"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-addStage": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description 0-based place of the new stage; default last */
                    position?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-removeStage": {
        parameters: {
            query?: {
                /** @description Another stage of the pipeline that takes the stage’s deals; required when it holds deals */
                moveDealsTo?: string;
            };
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Pipeline id */
                id: string;
                /** @description Stage id */
                stageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-renameStage": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Pipeline id */
                id: string;
                /** @description Stage id */
                stageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "pipelines-reorderStages": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Every stage id of the pipeline, once each, in the new order */
                    stageIds: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Pipeline"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-batchCreate": {
        parameters: {
            query?: {
                /** @description With `email`: update the live record of the folder with that email instead of creating one (200). */
                upsert?: "email";
            };
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 bodies of `POST /records`, each created (or upserted) as that call would. */
                    items: {
                        /** @description Folder that holds the record */
                        folderId: string;
                        title: string;
                        email?: string | null;
                        phone?: string | null;
                        /** @description Custom field values keyed by the folder field `key`. */
                        data?: {
                            [key: string]: unknown;
                        };
                        /** @description A user (usr_…) of the workspace */
                        ownerId?: string | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-batchUpdate": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 changes, each `{ id, … }` with the body of `PATCH /records/{id}`. */
                    items: {
                        /** @description Record id */
                        id: string;
                        title?: string;
                        email?: string | null;
                        phone?: string | null;
                        /** @description Merged into the stored values: keys given replace, a key given as null is removed. */
                        data?: {
                            [key: string]: unknown;
                        };
                        ownerId?: string | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-batchTrash": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 ids of records to move to Trash. */
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-linkBatch": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 links `{ from, field, to, label? }`, each made as `POST /records/{from}/links` would. */
                    items: {
                        /** @description The record to link from (`rec_…`) */
                        from: string;
                        /**
                         * @description Key of a RELATION field of the record’s folder
                         * @example company
                         */
                        field: string;
                        /** @description The record to link: its id (`rec_…`), or `{ "email": … }` / `{ "title": … }` naming the one live record of the field’s folder that has it. */
                        to: string | {
                            email: string;
                        } | {
                            title: string;
                        };
                        /** @description One of the field’s `labels`; null or left out: none. Linking again changes it. */
                        label?: string | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-unlinkBatch": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 links `{ from, field, to }`, each removed as `DELETE /records/{from}/links/{field}/{to}` would. */
                    items: {
                        /** @description The record to unlink from (`rec_…`) */
                        from: string;
                        /**
                         * @description Key of a RELATION field of the record’s folder
                         * @example company
                         */
                        field: string;
                        /** @description The linked record (`rec_…`) */
                        to: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnlinkBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-link": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Key of a RELATION field of the record’s folder
                     * @example company
                     */
                    field: string;
                    /** @description The record to link: its id (`rec_…`), or `{ "email": … }` / `{ "title": … }` naming the one live record of the field’s folder that has it. */
                    to: string | {
                        email: string;
                    } | {
                        title: string;
                    };
                    /** @description One of the field’s `labels`; null or left out: none. Linking again changes it. */
                    label?: string | null;
                };
            };
        };
        responses: {
            /** @description Already linked: the existing link */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Link"];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Link"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-getLink": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Record id */
                id: string;
                /** @description Key of the RELATION field */
                field: string;
                /** @description Id of the linked record */
                to: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Link"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-unlink": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Record id */
                id: string;
                /** @description Key of the RELATION field */
                field: string;
                /** @description Id of the linked record */
                to: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DeletedLink"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-related": {
        parameters: {
            query?: {
                /** @description Case-insensitive substring of title, email, phone or a TEXT value */
                search?: string;
                /** @description Same as `search` */
                q?: string;
                /** @description Only records changed at or after this instant. An offset whose `+` was sent unencoded (read as a space, `2026-11-22T10:00:00 01:00`) means `+01:00`. */
                updatedSince?: string;
                /** @description Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts". */
                filter?: {
                    [key: string]: (string | number | boolean) | {
                        [key: string]: string | number | boolean;
                    };
                };
                /** @description `createdAt`, `updatedAt`, `title` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; records without a value come last. */
                sort?: string;
                /** @description `true` adds `meta.total`, the exact number of records the filters match (a count of them); `estimate` adds `meta.totalEstimate` instead, PostgreSQL's estimate of that number, which costs no count. */
                count?: "true" | "false" | "estimate";
                /** @description ONE relation fields whose linked records to add under `expanded`, comma-separated (at most 5, one level deep). */
                expand?: string;
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Record id */
                id: string;
                /** @description Key of a RELATION field of the record’s folder */
                field: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LinkedRecord"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-deals": {
        parameters: {
            query?: {
                /** @description Only deals in this stage of the pipeline */
                stageId?: string;
                /** @description Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts". */
                filter?: {
                    [key: string]: (string | number | boolean) | {
                        [key: string]: string | number | boolean;
                    };
                };
                /** @description `createdAt`, `updatedAt`, `title`, `amount`, `closeDate` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; deals without a value come last. */
                sort?: string;
                /** @description `true` adds `meta.total`, the exact number of deals the filters match (a count of them); `estimate` adds `meta.totalEstimate` instead, PostgreSQL's estimate of that number, which costs no count. */
                count?: "true" | "false" | "estimate";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
                /** @description Only deals of this pipeline */
                pipelineId?: string;
            };
            header?: never;
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LinkedDeal"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-tasks": {
        parameters: {
            query?: {
                status?: "OPEN" | "DONE";
                /** @description Only tasks assigned to this user */
                assigneeId?: string;
                /** @description Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts". */
                filter?: {
                    [key: string]: (string | number | boolean) | {
                        [key: string]: string | number | boolean;
                    };
                };
                /** @description `dueAt`: soonest due first. `-dueAt`, `createdAt`, `updatedAt`, `title`, `completedAt` ascending, `-` before one for descending; `createdAt` alone means newest first, as before (the default). The id breaks ties; tasks without a value come last. */
                sort?: string;
                /** @description `true` adds `meta.total`, the exact number of tasks the filters match (a count of them); `estimate` adds `meta.totalEstimate` instead, PostgreSQL's estimate of that number, which costs no count. */
                count?: "true" | "false" | "estimate";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LinkedTask"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-history": {
        parameters: {
            query?: {
                /** @description Only changes of this field (`title`, `data.stage` …). */
                field?: string;
                /** @description Only changes made at or after this instant. */
                since?: string;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Id of the record, deal or task */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HistoryEntry"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-revertHistory": {
        parameters: {
            query?: {
                /** @description `true` sets the field back even though it changed after this entry (otherwise 409). */
                force?: "true" | "false";
            };
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Id of the record, deal or task */
                id: string;
                /** @description The history entry (hst_…) whose change is undone */
                entryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-export": {
        parameters: {
            query?: {
                /** @description Only records of this folder */
                folderId?: string;
                /** @description Case-insensitive substring of title, email, phone or a TEXT value */
                search?: string;
                /** @description Same as `search` */
                q?: string;
                /** @description Only records changed at or after this instant. An offset whose `+` was sent unencoded (read as a space, `2026-11-22T10:00:00 01:00`) means `+01:00`. */
                updatedSince?: string;
                /** @description `true` lists only the Trash */
                trashed?: "true" | "false";
                /** @description Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts". */
                filter?: {
                    [key: string]: (string | number | boolean) | {
                        [key: string]: string | number | boolean;
                    };
                };
                /** @description ONE relation fields whose linked records to add under `expanded`, comma-separated (at most 5, one level deep). */
                expand?: string;
                /** @description `createdAt`, `updatedAt`, `title` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; records without a value come last. */
                sort?: string;
                /** @description `true` adds `meta.total`, the exact number of records the filters match (a count of them); `estimate` adds `meta.totalEstimate` instead, PostgreSQL's estimate of that number, which costs no count. */
                count?: "true" | "false" | "estimate";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-list": {
        parameters: {
            query?: {
                /** @description Only records of this folder */
                folderId?: string;
                /** @description Case-insensitive substring of title, email, phone or a TEXT value */
                search?: string;
                /** @description Same as `search` */
                q?: string;
                /** @description Only records changed at or after this instant. An offset whose `+` was sent unencoded (read as a space, `2026-11-22T10:00:00 01:00`) means `+01:00`. */
                updatedSince?: string;
                /** @description `true` lists only the Trash */
                trashed?: "true" | "false";
                /** @description Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts". */
                filter?: {
                    [key: string]: (string | number | boolean) | {
                        [key: string]: string | number | boolean;
                    };
                };
                /** @description ONE relation fields whose linked records to add under `expanded`, comma-separated (at most 5, one level deep). */
                expand?: string;
                /** @description `createdAt`, `updatedAt`, `title` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; records without a value come last. */
                sort?: string;
                /** @description `true` adds `meta.total`, the exact number of records the filters match (a count of them); `estimate` adds `meta.totalEstimate` instead, PostgreSQL's estimate of that number, which costs no count. */
                count?: "true" | "false" | "estimate";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-create": {
        parameters: {
            query?: {
                /** @description With `email`: update the live record of the folder with that email instead of creating one (200). */
                upsert?: "email";
            };
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Folder that holds the record */
                    folderId: string;
                    title: string;
                    email?: string | null;
                    phone?: string | null;
                    /** @description Custom field values keyed by the folder field `key`. */
                    data?: {
                        [key: string]: unknown;
                    };
                    /** @description A user (usr_…) of the workspace */
                    ownerId?: string | null;
                };
            };
        };
        responses: {
            /** @description Upserted: an existing record was updated */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-query": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description A condition `{ field, op, value }` or a group `{ and: [...] }`, `{ or: [...] }`, `{ not: {...} }`; values as JSON of the field’s type. At most 6 levels and 100 nodes. */
                    filter?: components["schemas"]["FilterNode"];
                    /** @description `createdAt`, `updatedAt`, `title` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; records without a value come last. */
                    sort?: string;
                    /** @description `true` adds `meta.total`. */
                    count?: boolean;
                    /** @description Only records of this folder */
                    folderId?: string;
                    /** @description Case-insensitive substring of title, email, phone or a TEXT value */
                    search?: string;
                    /** @description Same as `search` */
                    q?: string;
                    /**
                     * Format: date-time
                     * @description Only records changed at or after this instant
                     */
                    updatedSince?: string;
                    /** @description `true` lists only the Trash */
                    trashed?: boolean;
                    page?: number;
                    pageSize?: number;
                    /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                    cursor?: string;
                    /**
                     * @description ONE relation fields whose linked records to add under `expanded`, comma-separated (at most 5, one level deep).
                     * @example company
                     */
                    expand?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-get": {
        parameters: {
            query?: {
                /** @description ONE relation fields whose linked records to add under `expanded`, comma-separated (at most 5, one level deep). */
                expand?: string;
            };
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-trash": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    title?: string;
                    email?: string | null;
                    phone?: string | null;
                    /** @description Merged into the stored values: keys given replace, a key given as null is removed. */
                    data?: {
                        [key: string]: unknown;
                    };
                    ownerId?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-timeline": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TimelineEntry"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "records-restore": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Record id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Record"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "runs-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "runs-rerun": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "runs-cancel": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "runs-approve": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Kept in the step’s output */
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "runs-reject": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Kept in the step’s output */
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "sandboxes-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Sandbox"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "sandboxes-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description What of this workspace’s configuration to copy (default all of it). Workflows need folders and pipelines; views need folders. */
                    copy?: ("folders" | "pipelines" | "workflows" | "webhooks" | "views")[];
                    /** @description How many of the newest records to copy, from the folders copied (default 0) */
                    sampleRecords?: number;
                    /** @description Where the sandbox’s webhooks and HTTP_REQUEST steps may send; everything else is captured, not sent (default none) */
                    allowUrls?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedSandbox"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "sandboxes-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description The sandbox (a workspace id, ws_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Sandbox"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "sandboxes-delete": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description The sandbox (a workspace id, ws_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-batchCreate": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 bodies of `POST /tasks`, each created as that call would. */
                    items: {
                        title: string;
                        dueAt?: string | null;
                        assigneeId?: string | null;
                        recordId?: string | null;
                        /**
                         * @description Default MEDIUM
                         * @enum {string}
                         */
                        priority?: "LOW" | "MEDIUM" | "HIGH" | "URGENT";
                        /**
                         * @description Default TODO
                         * @enum {string}
                         */
                        type?: "TODO" | "CALL" | "EMAIL" | "MEETING";
                        /** @description Set on create only. When the task becomes DONE its next occurrence is created OPEN, `dueAt` advanced by the period. */
                        recurrence?: ("DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY") | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-batchUpdate": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 changes, each `{ id, … }` with the body of `PATCH /tasks/{id}`. */
                    items: {
                        /** @description Task id */
                        id: string;
                        title?: string;
                        dueAt?: string | null;
                        assigneeId?: string | null;
                        recordId?: string | null;
                        /**
                         * @description DONE sets `completedAt`; OPEN again clears it.
                         * @enum {string}
                         */
                        status?: "OPEN" | "DONE";
                        /** @enum {string} */
                        priority?: "LOW" | "MEDIUM" | "HIGH" | "URGENT";
                        /** @enum {string} */
                        type?: "TODO" | "CALL" | "EMAIL" | "MEETING";
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-batchDelete": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 100 ids of tasks to delete permanently. */
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDeleteBatchAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-history": {
        parameters: {
            query?: {
                /** @description Only changes of this field (`title`, `data.stage` …). */
                field?: string;
                /** @description Only changes made at or after this instant. */
                since?: string;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Id of the record, deal or task */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HistoryEntry"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-revertHistory": {
        parameters: {
            query?: {
                /** @description `true` sets the field back even though it changed after this entry (otherwise 409). */
                force?: "true" | "false";
            };
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Id of the record, deal or task */
                id: string;
                /** @description The history entry (hst_…) whose change is undone */
                entryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-records": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Task id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantRecord"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-linkRecord": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Task id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The record to link (`rec_…`), a live record of the workspace */
                    to: string;
                    /** @description What the record is to it ("Decision maker"); linking again changes it */
                    label?: string | null;
                };
            };
        };
        responses: {
            /** @description Already linked: the existing link */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantLink"];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantLink"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-unlinkRecordByBody": {
        parameters: {
            query: {
                /** @description Id of the linked record */
                to: string;
            };
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Task id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            from: string;
                            to: string;
                            /** @constant */
                            deleted: true;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-unlinkRecord": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Task id */
                id: string;
                /** @description Id of the linked record */
                to: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            from: string;
                            to: string;
                            /** @constant */
                            deleted: true;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-list": {
        parameters: {
            query?: {
                /** @description Only tasks linked to this live record */
                recordId?: string;
                status?: "OPEN" | "DONE";
                /** @description Only tasks assigned to this user */
                assigneeId?: string;
                /** @description Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts". */
                filter?: {
                    [key: string]: (string | number | boolean) | {
                        [key: string]: string | number | boolean;
                    };
                };
                /** @description `dueAt`: soonest due first. `-dueAt`, `createdAt`, `updatedAt`, `title`, `completedAt` ascending, `-` before one for descending; `createdAt` alone means newest first, as before (the default). The id breaks ties; tasks without a value come last. */
                sort?: string;
                /** @description `true` adds `meta.total`, the exact number of tasks the filters match (a count of them); `estimate` adds `meta.totalEstimate` instead, PostgreSQL's estimate of that number, which costs no count. */
                count?: "true" | "false" | "estimate";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Task"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    dueAt?: string | null;
                    assigneeId?: string | null;
                    recordId?: string | null;
                    /**
                     * @description Default MEDIUM
                     * @enum {string}
                     */
                    priority?: "LOW" | "MEDIUM" | "HIGH" | "URGENT";
                    /**
                     * @description Default TODO
                     * @enum {string}
                     */
                    type?: "TODO" | "CALL" | "EMAIL" | "MEETING";
                    /** @description Set on create only. When the task becomes DONE its next occurrence is created OPEN, `dueAt` advanced by the period. */
                    recurrence?: ("DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY") | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Task id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Task"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-delete": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Task id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "tasks-update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Task id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    title?: string;
                    dueAt?: string | null;
                    assigneeId?: string | null;
                    recordId?: string | null;
                    /**
                     * @description DONE sets `completedAt`; OPEN again clears it.
                     * @enum {string}
                     */
                    status?: "OPEN" | "DONE";
                    /** @enum {string} */
                    priority?: "LOW" | "MEDIUM" | "HIGH" | "URGENT";
                    /** @enum {string} */
                    type?: "TODO" | "CALL" | "EMAIL" | "MEETING";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-list": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description http(s) URL the events are POSTed to. Also refused, which the pattern cannot say: a URL that does not parse, one with a user name or password (send them as a custom header), and an address the service will not call (private, loopback and link-local networks unless the operator allows them).
                     * @example https://hooks.example.com/crm
                     */
                    url: string;
                    /**
                     * @description Event kinds to receive, or `["*"]` for all
                     * @example [
                     *       "deal.stage_changed"
                     *     ]
                     */
                    events: ("record.created" | "record.updated" | "record.trashed" | "record.restored" | "record.linked" | "record.unlinked" | "deal.created" | "deal.updated" | "deal.stage_changed" | "task.created" | "task.updated" | "task.completed" | "workflow.run_failed" | "job.completed" | "job.failed" | "*")[];
                    /**
                     * @description Only with `record.updated`, `deal.updated`, `task.updated` or `*`: deliver those events only when one of these fields changed (a record’s `title`, `email`, `phone`, `ownerId`, `folderId`; a deal’s `stageId`, `title`, `amount`, `currency`, `closeDate`, `recordId`; a task’s `title`, `dueAt`, `assigneeId`, `recordId`, `status`, `priority`, `type`; `data.<key>` of records and deals). Empty: any change. Other events are sent as usual.
                     * @example [
                     *       "title",
                     *       "data.lifecycle",
                     *       "stageId"
                     *     ]
                     */
                    fields?: string[];
                    /**
                     * @description Up to 20 static headers sent with every delivery (e.g. a token for receivers that cannot check the signature). Values are printable ASCII, at most 1000 characters, and are returned masked. Not Content-Type, Content-Length, User-Agent, Host, Connection, Keep-Alive, Transfer-Encoding, TE, Trailer, Upgrade, Expect, Proxy-Connection or a name starting X-Service- or Webhook-, which the service sets, and no name twice in different letter case.
                     * @example {
                     *       "Authorization": "Bearer abc123"
                     *     }
                     */
                    headers?: {
                        [key: string]: string;
                    };
                    description?: string;
                    /** @description Default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookWithSecret"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Webhook subscription id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-delete": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Webhook subscription id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Webhook subscription id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description http(s) URL the events are POSTed to. Also refused, which the pattern cannot say: a URL that does not parse, one with a user name or password (send them as a custom header), and an address the service will not call (private, loopback and link-local networks unless the operator allows them).
                     * @example https://hooks.example.com/crm
                     */
                    url?: string;
                    /**
                     * @description Event kinds to receive, or `["*"]` for all
                     * @example [
                     *       "deal.stage_changed"
                     *     ]
                     */
                    events?: ("record.created" | "record.updated" | "record.trashed" | "record.restored" | "record.linked" | "record.unlinked" | "deal.created" | "deal.updated" | "deal.stage_changed" | "task.created" | "task.updated" | "task.completed" | "workflow.run_failed" | "job.completed" | "job.failed" | "*")[];
                    /**
                     * @description Only with `record.updated`, `deal.updated`, `task.updated` or `*`: deliver those events only when one of these fields changed (a record’s `title`, `email`, `phone`, `ownerId`, `folderId`; a deal’s `stageId`, `title`, `amount`, `currency`, `closeDate`, `recordId`; a task’s `title`, `dueAt`, `assigneeId`, `recordId`, `status`, `priority`, `type`; `data.<key>` of records and deals). Empty: any change. Other events are sent as usual.
                     * @example [
                     *       "title",
                     *       "data.lifecycle",
                     *       "stageId"
                     *     ]
                     */
                    fields?: string[];
                    /**
                     * @description Replaces all custom headers. A value sent back exactly as shown (masked) keeps the stored one.
                     * @example {
                     *       "Authorization": "Bearer abc123"
                     *     }
                     */
                    headers?: {
                        [key: string]: string;
                    };
                    description?: string;
                    /** @description true re-enables a subscription the service disabled and clears `disabledReason` */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-rotateSecret": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Webhook subscription id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookWithSecret"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-test": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Webhook subscription id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Delivery"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-deliveries": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Webhook subscription id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Delivery"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-delivery": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Delivery id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Delivery"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "webhooks-redeliver": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Delivery id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Delivery"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-list": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Workflow"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Default true */
                    enabled?: boolean;
                    trigger: components["schemas"]["WorkflowTriggerInput"];
                    /** @description Run in order. Each is `{ type, ...parameters }`; BRANCH and FOR_EACH hold actions of their own (at most 50 actions in all, 5 deep). String parameters may hold `{{ trigger.body.* }}`, `{{ record.* }}`, `{{ steps.<index or name>.output.* }}` and, in a loop, `{{ item.* }}` and `{{ loop.index }}` templates, or the same written `[[ trigger.body.* ]]`, which n8n, Make and Zapier leave alone. */
                    actions: components["schemas"]["WorkflowAction"][];
                    /** @description When true, incoming calls must carry `X-Service-Signature: sha256=<hex HMAC of the body>` made with the workflow secret (returned once). */
                    requireSignature?: boolean;
                    /** @description Incoming calls accepted per minute (default 600) */
                    rateLimitPerMinute?: number;
                    /** @description Members given a task when a run fails (docs/workflows.md, "Failures") */
                    notifyOnFailure?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowSaveAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body. */
                "If-None-Match"?: components["parameters"]["If-None-Match"];
            };
            path: {
                /** @description Workflow id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Workflow"];
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-delete": {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Workflow id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written. */
                "If-Match"?: components["parameters"]["If-Match"];
            };
            path: {
                /** @description Workflow id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                    enabled?: boolean;
                    trigger?: components["schemas"]["WorkflowTriggerInput"];
                    /** @description Run in order. Each is `{ type, ...parameters }`; BRANCH and FOR_EACH hold actions of their own (at most 50 actions in all, 5 deep). String parameters may hold `{{ trigger.body.* }}`, `{{ record.* }}`, `{{ steps.<index or name>.output.* }}` and, in a loop, `{{ item.* }}` and `{{ loop.index }}` templates, or the same written `[[ trigger.body.* ]]`, which n8n, Make and Zapier leave alone. */
                    actions?: components["schemas"]["WorkflowAction"][];
                    /** @description true creates a secret (returned once) if there is none; false removes it */
                    requireSignature?: boolean;
                    /** @description Incoming calls accepted per minute (default 600) */
                    rateLimitPerMinute?: number;
                    /** @description Members given a task when a run fails (docs/workflows.md, "Failures") */
                    notifyOnFailure?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowSaveAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-enable": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Workflow id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-disable": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Workflow id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Workflow"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-rotateSecret": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description Workflow id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WorkflowWithSecret"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-runs": {
        parameters: {
            query?: {
                status?: "QUEUED" | "RUNNING" | "WAITING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Workflow id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Run"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-testCode": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The body of a JavaScript function of `input` (`{ trigger, record, steps, item, loop }`); what it returns (JSON, at most 256 KiB) is the output */
                    source: string;
                    /** @description A sample `input` (`{ trigger, record, steps, item, loop }`); default `{}` */
                    input?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CodeTestResult"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workspace-me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Me"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workspace-members": {
        parameters: {
            query?: {
                /** @description 1-based page number (default 1). Not together with `cursor`. */
                page?: number;
                /** @description Items per page, 1 to 200 (default 50). */
                pageSize?: number;
                /** @description The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Member"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    "workflows-trigger": {
        parameters: {
            query?: never;
            header?: {
                /** @description sha256=<lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the workflow secret>; required when the workflow has requireSignature. */
                "X-Service-Signature"?: string;
                /** @description The same key and body within 24 h answer the first runId again (Idempotent-Replayed: true) and queue nothing. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The workflow id (wf_…) */
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description A live record of the workflow's workspace: the run's context record. */
                    recordId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The run is queued */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`) */
                    "RateLimit-Limit": number;
                    /** @description Calls left in the workflow's current window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window frees calls */
                    "RateLimit-Reset": number;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerAccepted"];
                };
            };
            /** @description Malformed JSON, a body that is not an object or holds what cannot be stored, a recordId that is not a string */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`); present when the call was counted */
                    "RateLimit-Limit"?: number;
                    /** @description Calls left in the workflow's current window; present when the call was counted */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees calls; present when the call was counted */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_FAILED";
                        };
                    };
                };
            };
            /** @description The workflow requires a signature and X-Service-Signature is missing or wrong */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                    };
                };
            };
            /** @description No enabled incoming-webhook workflow has this id, or recordId is not a live record of its workspace */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`); present when the call was counted */
                    "RateLimit-Limit"?: number;
                    /** @description Calls left in the workflow's current window; present when the call was counted */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees calls; present when the call was counted */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                    };
                };
            };
            /** @description Another call with this Idempotency-Key was rolled back meanwhile: retry */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`) */
                    "RateLimit-Limit": number;
                    /** @description Calls left in the workflow's current window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window frees calls */
                    "RateLimit-Reset": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "CONFLICT";
                        };
                    };
                };
            };
            /** @description The body is larger than 1 MiB */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "PAYLOAD_TOO_LARGE";
                        };
                    };
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNSUPPORTED_MEDIA_TYPE";
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another body */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`) */
                    "RateLimit-Limit": number;
                    /** @description Calls left in the workflow's current window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window frees calls */
                    "RateLimit-Reset": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "IDEMPOTENCY_KEY_REUSED";
                        };
                    };
                };
            };
            /** @description Over the workflow's limit; wait Retry-After seconds */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`) */
                    "RateLimit-Limit": number;
                    /** @description Calls left in the workflow's current window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window frees calls */
                    "RateLimit-Reset": number;
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMITED";
                        };
                    };
                };
            };
            /** @description Unexpected error; quote the requestId when reporting it */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`); present when the call was counted */
                    "RateLimit-Limit"?: number;
                    /** @description Calls left in the workflow's current window; present when the call was counted */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees calls; present when the call was counted */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL";
                        };
                    };
                };
            };
            /** @description The database cannot be reached; retry after Retry-After seconds */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Calls the workflow accepts per minute (its `rateLimitPerMinute`); present when the call was counted */
                    "RateLimit-Limit"?: number;
                    /** @description Calls left in the workflow's current window; present when the call was counted */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees calls; present when the call was counted */
                    "RateLimit-Reset"?: number;
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerError"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAVAILABLE";
                        };
                    };
                };
            };
        };
    };
    on_record_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordCreatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_record_updated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordUpdatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_record_trashed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordTrashedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_record_restored: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordRestoredEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_record_linked: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordLinkedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_record_unlinked: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordUnlinkedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_deal_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DealCreatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_deal_updated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DealUpdatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_deal_stage_changed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DealStageChangedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_task_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskCreatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_task_updated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskUpdatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_task_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_workflow_run_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowRunFailedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_job_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_job_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobFailedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_webhook_test: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind */
                "X-Service-Event": string;
                /** @description The delivery id (dlv_…); a redelivery has a new one */
                "X-Service-Delivery": string;
                /** @description `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret */
                "X-Service-Signature": string;
                /** @description During the 24 hours after a secret rotation: the same, made with the previous secret */
                "X-Service-Signature-Previous"?: string;
                /** @description The event id (Standard Webhooks): the same on every retry and redelivery */
                "webhook-id": string;
                /** @description Unix seconds of this attempt (Standard Webhooks) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer within 15 s acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: disables the subscription at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
