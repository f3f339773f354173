import { isScope } from '@crm/domain';
import { describe, expect, it } from 'vitest';
import { builderMiddlewares, proceduresOf } from './internals/trpc.ts';
import { appRouter } from './routers/index.ts';
import { type ApiMeta, authedProcedure, settingsProcedure } from './trpc.ts';

/**
 * Every procedure declares the scope a caller needs (docs/api.md, "Scopes"), the tRPC-only
 * ones (keys, invitations, views, reports, …) as much as those with a REST route, and
 * authedProcedure checks it for REST, /trpc and MCP alike. Read from the router, without a
 * server: a procedure added without a scope, or built on another procedure, fails here.
 */

interface ProcedureDef {
  _def: { meta?: ApiMeta; middlewares: readonly unknown[] };
}

const procedures = proceduresOf(appRouter).map(({ path, meta, middlewares }): [string, ProcedureDef] => [
  path,
  { _def: { meta: meta as ApiMeta | undefined, middlewares } },
]);
/** The middleware that checks the credential and the scope. */
const scopeCheck = builderMiddlewares(authedProcedure)[0];
/** The one that lets only a signed-in owner or admin through, never an API key. */
const settingsCheck = builderMiddlewares(settingsProcedure).at(-1);

/**
 * The procedures any valid credential may call (`scope: 'none'`), each with what keeps it
 * safe. A new one is added here on purpose, or declares a scope.
 */
const NO_SCOPE: Record<string, 'any caller' | 'settings' | 'own rows'> = {
  'workspace.me': 'any caller',
  'workspace.members': 'any caller',
  // Every member may open a sandbox of the workspace: names, allowed URLs and dates only.
  'sandboxes.list': 'any caller',
  'sandboxes.get': 'any caller',
  'workspace.changeRole': 'settings',
  'workspace.removeMember': 'settings',
  'keys.list': 'settings',
  'keys.create': 'settings',
  'keys.revoke': 'settings',
  'invitations.list': 'settings',
  'invitations.create': 'settings',
  'invitations.revoke': 'settings',
  'oauth.apps': 'settings',
  'oauth.registerApp': 'settings',
  'oauth.removeApp': 'settings',
  // A user's own saved views and own connected apps.
  'views.list': 'own rows',
  'views.create': 'own rows',
  'views.update': 'own rows',
  'views.delete': 'own rows',
  'oauth.connectedApps': 'own rows',
  'oauth.revoke': 'own rows',
};

describe('the scope of every procedure', () => {
  it('finds the procedures of every router, the tRPC-only ones too', () => {
    expect(procedures.length).toBeGreaterThan(100);
    const trpcOnly = procedures.filter(([, p]) => !p._def.meta?.openapi).map(([path]) => path);
    expect(trpcOnly).toEqual(
      expect.arrayContaining(['keys.create', 'invitations.create', 'views.list', 'reports.wonLost']),
    );
  });

  it('is declared by each, as `none` or a scope the service knows', () => {
    for (const [path, procedure] of procedures) {
      const scope = procedure._def.meta?.scope;
      expect(scope, `${path}: declares no scope`).toBeDefined();
      if (scope !== 'none') expect(isScope(scope!), `${path}: ${scope} is no scope`).toBe(true);
    }
  });

  it('is checked for each: every procedure passes authedProcedure first', () => {
    for (const [path, procedure] of procedures) {
      expect(procedure._def.middlewares[0] === scopeCheck, `${path}: not built on authedProcedure`).toBe(
        true,
      );
    }
  });

  it('is `none` only where the table above says why, and settings refuse API keys', () => {
    const none = procedures.filter(([, p]) => p._def.meta?.scope === 'none').map(([path]) => path);
    expect(none.sort()).toEqual(Object.keys(NO_SCOPE).sort());
    for (const [path, procedure] of procedures) {
      const settings = procedure._def.middlewares.includes(settingsCheck);
      expect(settings, `${path}: settingsProcedure`).toBe(NO_SCOPE[path] === 'settings');
    }
  });

  it('names the scope of its resource on the tRPC-only reports', () => {
    const scopes = Object.fromEntries(
      procedures
        .filter(([path]) => path.startsWith('reports.'))
        .map(([path, p]) => [path, p._def.meta?.scope]),
    );
    expect(scopes).toEqual({
      'reports.wonLost': 'deals:read',
      'reports.webhookHealth': 'webhooks:read',
      'reports.automationRuns': 'workflows:read',
    });
  });
});
