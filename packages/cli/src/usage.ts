/** What `crm --help` prints: every command and its options (README lists each command). */
export const USAGE = `Usage: crm <command> [options]
       crm --help | --version

Commands:
  bootstrap [--workspace NAME] [--email EMAIL] [--name NAME] [--rate-limit N] [--password PASSWORD]
      Create a workspace, its owner and an API key; prints {"workspaceId","userId","apiKey"}.
      With a password (at least 10 characters; or CRM_OWNER_PASSWORD in the environment) the
      owner signs in to the web app with EMAIL and that password.
  users set-password --email EMAIL [--password PASSWORD]
      Set a user's web sign-in password (or take it from CRM_OWNER_PASSWORD); every session
      of the user ends.
  keys create --workspace WS_ID [--user USR_ID] [--name NAME] [--scopes read,write|records:read,…] [--folders FLD_ID,…] [--expires-at ISO]
  keys list --workspace WS_ID
  keys revoke KEY_ID --workspace WS_ID
  workspaces set-rate-limit WS_ID --rate-limit N
      Let the workspace's keys make N requests a minute together; running servers count with
      the new limit from their next request.
  import --workspace WS_ID --folder FLD_ID --file PATH --map COLUMN=TARGET,… [--format csv|ndjson] [--upsert-by email|title|data.KEY] [--dry-run] [--quiet]
      Import a CSV or NDJSON file through an import job (docs/jobs.md), run here, its progress
      on stderr; TARGET is title, email, phone, ownerId or data.KEY. --quiet: no webhooks and
      no event-triggered workflows. Exits 2 when rows were refused (see the job's results).
  export --workspace WS_ID --folder FLD_ID --out PATH [--format csv|ndjson] [--q TEXT] [--sort FIELD]
      Export a folder's records through an export job, run here, to PATH.
  config pull --url URL --key KEY [--out PATH]
  config plan --url URL --key KEY --file PATH [--prune]
  config apply --url URL --key KEY --file PATH [--prune]
      The workspace's configuration as a document (docs/operations.md, "Configuration as
      code"), through the REST API of the service at URL (or CRM_URL) with the key KEY (or
      CRM_API_KEY): pull writes it, plan shows what applying it would change, apply makes the
      changes (removals only with --prune). Exits 1 when the service refused.
  migrate
      Apply database migrations.
  secrets reencrypt
      Encrypt every stored secret with SECRETS_KEY, so the keys in SECRETS_KEY_PREVIOUS can
      be dropped (see docs/operations.md, "Secrets at rest").

The database is DATABASE_URL, or the embedded one in DATA_DIR (default .data at the repository root);
\`config\` talks to a running service instead.
Output is JSON on stdout.`;
