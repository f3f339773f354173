#!/usr/bin/env bash
# `pnpm test:citus`: the schema and the HTTP test suite on a sharded database (docs/scaling.md).
#
# 1. Installs the Citus extension for the machine's PostgreSQL 15 when it is missing, with the
#    build script of CITUS_SOURCE_DIR (Debian packages no Citus; this machine keeps its source
#    and a build script there; needs root).
# 2. Starts a coordinator and two workers on loopback (that folder's cluster.sh), on free ports.
# 3. Migrates the coordinator and shards it: tooling/citus/distribute.ts.
# 4. Runs the HTTP test suite against the coordinator, one file at a time, every test app with
#    its worker where the test asks for one.
# The cluster is removed at the end, whatever happened.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source_dir=${CITUS_SOURCE_DIR:-$root/../shared/citus}
pg_config=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
cd "$root"

if [ ! -f "$("$pg_config" --pkglibdir)/citus.so" ]; then
  if [ ! -f "$source_dir/build.sh" ]; then
    echo "Citus is not installed and $source_dir/build.sh is missing: set CITUS_SOURCE_DIR" >&2
    exit 2
  fi
  bash "$source_dir/build.sh"
fi

# Three consecutive free ports for the coordinator and its workers.
port=$(node -e '
  const net = require("node:net");
  const free = (p) => new Promise((ok) => { const s = net.createServer(); s.once("error", () => ok(false));
    s.listen(p, "127.0.0.1", () => s.close(() => ok(true))); });
  (async () => { for (let p = 25400 + Math.floor(Math.random() * 2000); ; p += 3)
    if ((await free(p)) && (await free(p + 1)) && (await free(p + 2))) { console.log(p); return; } })();')
cluster=$(mktemp -d)
# The nodes run as the postgres user, which must reach their folders.
chmod 755 "$cluster"
trap 'bash "$source_dir/cluster.sh" stop "$cluster/nodes" >/dev/null 2>&1 || true; rm -rf "$cluster"' EXIT
url=$(bash "$source_dir/cluster.sh" start "$cluster/nodes" "$port")
echo "Citus coordinator: $url"

export DATABASE_URL=$url
node --import tsx packages/db/src/migrate-cli.ts
node --import tsx tooling/citus/distribute.ts

# One database for every file (no cloning on a coordinator), so files run one at a time.
CRM_TEST_DATABASE_URL=$url npx vitest run --no-file-parallelism \
  apps/server/src/rest apps/server/src/webhooks apps/server/src/workflows "$@"
