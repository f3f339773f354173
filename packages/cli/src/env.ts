/**
 * The CLI's environment, read here only (CONTRIBUTING.md, "Habits"): DATABASE_URL or DATA_DIR
 * and the secrets keys to open the database (docs/operations.md), CRM_OWNER_PASSWORD and
 * CRM_PASSWORD for the commands that set a password, CRM_URL and CRM_API_KEY for `config`. The commands take it as a parameter,
 * so tests hand them an environment of their own.
 */
export const cliEnv: NodeJS.ProcessEnv = process.env;
