#!/usr/bin/env node
// `npm start` and `npm run worker`: the service in this very process, so a signal sent to it
// (or relayed by npm and the install wrapper) reaches the server, which stops its embedded
// database itself (docs/operations.md, "Start, stop, migrate").
//
//   node apps/server/scripts/start.mjs [--role all|api|worker]
//
// The role may also come from ROLE. The server runs from its build (dist/main.mjs, made by
// build-server.mjs when a source is newer than it); roles that serve the API first build the
// web app likewise.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureServerBuilt, SERVER_BUNDLE } from './build-server.mjs';

const { values } = parseArgs({ options: { role: { type: 'string' } }, strict: true });
if (values.role !== undefined) process.env.ROLE = values.role;
if ((process.env.ROLE ?? 'all') !== 'worker') {
  const { ensureBuilt } = await import('../../web/scripts/ensure-built.mjs');
  await ensureBuilt();
}
await ensureServerBuilt();
await import(pathToFileURL(SERVER_BUNDLE).href);
