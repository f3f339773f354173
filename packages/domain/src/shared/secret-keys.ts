import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configureSecretKeys, parseSecretKey, type SecretKeys } from './secret-box.ts';

/** The key file a service without SECRETS_KEY makes in its data folder. */
export const SECRET_KEY_FILE = 'secrets.key';

export interface LoadedSecretKeys {
  keys: SecretKeys;
  /** `env`: SECRETS_KEY; `file`: the key file in the data folder. */
  source: 'env' | 'file';
  /** The key file, when the key came from one. */
  keyFile?: string;
  /** Whether this call made the key file. */
  created: boolean;
}

/**
 * The keyring of a process (docs/operations.md, "Secrets at rest"): SECRETS_KEY seals and
 * opens, SECRETS_KEY_PREVIOUS (comma-separated) only opens. Without SECRETS_KEY the key is
 * read from `<dataDir>/secrets.key`; `create` makes that file (a random 32-byte key, base64,
 * mode 0600) when it is missing, once even when several processes start together. Returns
 * null when there is no key and `create` is false. Malformed keys throw.
 */
export async function loadSecretKeys(options: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  create: boolean;
}): Promise<LoadedSecretKeys | null> {
  const env = options.env;
  const previous = env.SECRETS_KEY_PREVIOUS || undefined;
  if (previous) for (const key of previous.split(/[\s,]+/).filter(Boolean)) parseSecretKey(key);
  if (env.SECRETS_KEY) {
    parseSecretKey(env.SECRETS_KEY);
    return { keys: { current: env.SECRETS_KEY, previous }, source: 'env', created: false };
  }
  const keyFile = join(options.dataDir, SECRET_KEY_FILE);
  let current = await readKeyFile(keyFile);
  let created = false;
  if (current === null) {
    if (!options.create) return null;
    created = await createKeyFile(options.dataDir, keyFile);
    current = await readKeyFile(keyFile);
    if (current === null) throw new Error(`Could not read the secrets key file ${keyFile}`);
  }
  return { keys: { current, previous }, source: 'file', keyFile, created };
}

/** `loadSecretKeys`, then `configureSecretKeys` with what it found. */
export async function configureSecretKeysFrom(options: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  create: boolean;
}): Promise<LoadedSecretKeys | null> {
  const loaded = await loadSecretKeys(options);
  if (loaded) configureSecretKeys(loaded.keys);
  return loaded;
}

async function readKeyFile(keyFile: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(keyFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    parseSecretKey(text);
  } catch {
    throw new Error(`The secrets key file ${keyFile} does not hold a key (32 bytes as base64 or hex)`);
  }
  // Nobody but the service's user reads it, whatever made it.
  if (((await stat(keyFile)).mode & 0o077) !== 0) await chmod(keyFile, 0o600);
  return text.trim();
}

/**
 * Writes a new key to a private temporary file and links it into place: the link fails if
 * another process made the file first, and a reader never sees a half-written one.
 */
async function createKeyFile(dataDir: string, keyFile: string): Promise<boolean> {
  await mkdir(dataDir, { recursive: true });
  const temporary = `${keyFile}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, keyFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary);
  }
}
