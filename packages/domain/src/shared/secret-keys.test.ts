import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSecretKey } from './secret-box.ts';
import { loadSecretKeys, SECRET_KEY_FILE } from './secret-keys.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'crm-keys-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('the keys for secrets at rest', () => {
  it('take SECRETS_KEY and SECRETS_KEY_PREVIOUS from the environment first, and write no file', async () => {
    const current = randomBytes(32).toString('hex');
    const previous = `${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64url')}`;
    const loaded = await loadSecretKeys({
      env: { SECRETS_KEY: current, SECRETS_KEY_PREVIOUS: previous },
      dataDir,
      create: true,
    });
    expect(loaded).toEqual({ keys: { current, previous }, source: 'env', created: false });
    await expect(stat(join(dataDir, SECRET_KEY_FILE))).rejects.toThrow();
    await expect(
      loadSecretKeys({ env: { SECRETS_KEY: 'too short' }, dataDir, create: true }),
    ).rejects.toThrow(/32 bytes/);
    await expect(
      loadSecretKeys({ env: { SECRETS_KEY: current, SECRETS_KEY_PREVIOUS: 'nope' }, dataDir, create: true }),
    ).rejects.toThrow(/32 bytes/);
  });

  it('without SECRETS_KEY, make a key file once (mode 0600), also when processes race, and read it after', async () => {
    expect(await loadSecretKeys({ env: {}, dataDir, create: false })).toBeNull();
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        loadSecretKeys({ env: {}, dataDir: join(dataDir, 'data'), create: true }),
      ),
    );
    expect(racing.filter((loaded) => loaded?.created)).toHaveLength(1);
    expect(new Set(racing.map((loaded) => loaded?.keys.current)).size).toBe(1);
    const keyFile = join(dataDir, 'data', SECRET_KEY_FILE);
    expect(racing[0]).toMatchObject({ source: 'file', keyFile });
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(await readFile(keyFile, 'utf8'))).toHaveLength(32);

    const again = await loadSecretKeys({
      env: { SECRETS_KEY_PREVIOUS: '' },
      dataDir: join(dataDir, 'data'),
      create: false,
    });
    expect(again).toMatchObject({ keys: { current: racing[0]!.keys.current }, created: false });
  });

  it('tighten a key file others could read, and refuse one that holds no key', async () => {
    const keyFile = join(dataDir, SECRET_KEY_FILE);
    await writeFile(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o644 });
    await chmod(keyFile, 0o644);
    await loadSecretKeys({ env: {}, dataDir, create: false });
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    await writeFile(keyFile, 'not a key');
    await expect(loadSecretKeys({ env: {}, dataDir, create: true })).rejects.toThrow(/does not hold a key/);
  });
});
