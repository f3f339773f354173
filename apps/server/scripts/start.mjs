#!/usr/bin/env node
// `npm start` and `npm run worker`: the service in this very process, so a signal sent to it
// (or relayed by npm and the install wrapper) reaches the server, which stops its embedded
// database itself (docs/operations.md, "Start, stop, migrate").
//
//   node apps/server/scripts/start.mjs [--role all|api|worker]
//
// The role may also come from ROLE. Roles that serve the API first build the web app when its
// sources are newer than its build.
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const { values } = parseArgs({ options: { role: { type: 'string' } }, strict: true });
if (values.role !== undefined) process.env.ROLE = values.role;
if ((process.env.ROLE ?? 'all') !== 'worker') {
  const { ensureBuilt } = await import('../../web/scripts/ensure-built.mjs');
  await ensureBuilt();
}
register();
await import('../src/main.ts');
