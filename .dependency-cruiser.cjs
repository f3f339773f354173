// @ts-check
/**
 * The layers (docs/architecture.md, "Layers"), checked by `pnpm lint:deps` (part of `pnpm lint`):
 * apps → mcp / api / workflows / webhooks / cli → domain → db → constants, with sandbox beside
 * them (api and workflows use it; it imports nothing of the workspace), and inside the
 * domain, feature folders that never import each other in a circle. Test files are left out of
 * the cruise; test helpers (`testing/` folders) are in it, with rules of their own. Each rule is
 * shown to fire on a planted violation in tooling/lint/layers.test.ts.
 */

/**
 * What each workspace package may import at run time, the table of docs/architecture.md
 * ("Layers"). Keys and values are folders of the repository; a package may always import
 * itself. Packages not listed here (tooling/typescript, tooling/scripts) import none.
 * @type {Record<string, string[]>}
 */
const mayImport = {
  'apps/server': [
    'packages/api',
    'packages/mcp',
    'packages/webhooks',
    'packages/workflows',
    'packages/sandbox',
    'packages/domain',
    'packages/db',
    'packages/constants',
  ],
  // apps/web's one way into the domain and its types of the api are rules of their own below.
  'apps/web': ['packages/constants', 'packages/domain', 'packages/api'],
  'packages/mcp': ['packages/api', 'packages/domain'],
  'packages/api': ['packages/sandbox', 'packages/domain', 'packages/db'],
  'packages/workflows': ['packages/webhooks', 'packages/sandbox', 'packages/domain', 'packages/db'],
  'packages/webhooks': ['packages/domain', 'packages/db'],
  'packages/cli': ['packages/domain', 'packages/db'],
  'packages/client': [],
  // CODE steps' QuickJS sandbox (docs/decisions/0012-code-sandbox.md): nothing of the service.
  'packages/sandbox': [],
  'packages/domain': ['packages/db', 'packages/constants'],
  'packages/db': ['packages/constants'],
  'packages/constants': [],
  bench: ['packages/db', 'packages/domain'],
  'tooling/vitest': ['packages/db'],
  'tooling/citus': ['packages/db'],
  'tooling/scripts': [],
};

/**
 * Files of a package that run at build or start time, with what else they may import: the
 * client's generator reads the api's document (a devDependency), and the server's start script
 * builds the web app first (`@crm/web/build`).
 * @type {Record<string, string>}
 */
const tools = {
  'packages/client': '^packages/client/scripts/',
  'apps/server': '^apps/server/scripts/start\\.mjs$',
};

/** Every workspace package's folder. */
const workspace = [
  'apps/server',
  'apps/web',
  ...Object.keys(mayImport).filter((p) => !p.startsWith('apps/')),
];

const escapeRegExp = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const under = (/** @type {string[]} */ folders) => `^(${folders.map(escapeRegExp).join('|')})/`;

/** A package's test helpers (`<package>/src/testing/`), which may also use the test tooling. */
const TESTING = '/src/testing/';
const TEST_TOOLING = 'tooling/vitest';

/**
 * One rule per package for its code, and one for its test helpers (`testing/` folders), which
 * import what the package may and the test tooling (tooling/vitest: the processes tests start,
 * the suite's setup) besides.
 * @type {import('dependency-cruiser').IForbiddenRuleType[]}
 */
const layerRules = Object.entries(mayImport).flatMap(([from, allowed]) => {
  const forbidden = workspace.filter((p) => p !== from && !allowed.includes(p));
  const what = allowed.length ? allowed.join(', ') : 'no other workspace package';
  const code = {
    name: `layer-${from.replace('/', '-')}`,
    comment: `${from} imports only ${what} (docs/architecture.md, "Layers")`,
    severity: /** @type {const} */ ('error'),
    from: { path: under([from]), pathNot: [TESTING, ...(tools[from] ? [tools[from]] : [])] },
    to: { path: under(forbidden) },
  };
  const helpers = forbidden.filter((p) => p !== TEST_TOOLING);
  if (helpers.length === forbidden.length || helpers.length === 0) return [code];
  return [
    code,
    {
      name: `layer-${from.replace('/', '-')}-testing`,
      comment: `${from}'s test helpers import only ${what} and ${TEST_TOOLING} (docs/architecture.md, "Layers")`,
      severity: /** @type {const} */ ('error'),
      from: { path: `${under([from])}src/testing/` },
      to: { path: under(helpers) },
    },
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'packages-import-no-app',
      comment: 'Nothing in packages/ imports apps/ (docs/architecture.md, "Layers")',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'client-imports-no-workspace-package',
      comment:
        'packages/client, the REST client for integrators, imports no other workspace package at run time; its types come from the generated schema.d.ts',
      severity: 'error',
      from: { path: '^packages/client/src/' },
      to: { path: under(workspace.filter((p) => p !== 'packages/client')) },
    },
    {
      name: 'web-imports-api-as-types-only',
      comment: "apps/web takes the api package's types (AppRouter) with `import type`, never its code",
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^packages/api/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'web-imports-only-record-values-of-the-domain',
      comment:
        'apps/web reaches into the domain at one place only, @crm/domain/record-values, which runs in the browser',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^packages/domain/', pathNot: '^packages/domain/src/record-model/record-values\\.ts$' },
    },
    {
      name: 'domain-shared-imports-no-feature',
      comment:
        'packages/domain/src/shared is what every feature folder builds on: it imports no feature folder',
      severity: 'error',
      from: { path: '^packages/domain/src/shared/' },
      to: { path: '^packages/domain/src/', pathNot: '^packages/domain/src/shared/' },
    },
    {
      name: 'domain-no-folder-cycles',
      comment:
        "No circle of imports between the domain's feature folders (packages/domain/src/<feature>): a piece two features need lives in one of them, or in a module both import",
      severity: 'error',
      scope: 'folder',
      from: { path: '^packages/domain/src/[^/]+$' },
      to: { path: '^packages/domain/src/[^/]+$', circular: true },
    },
  ],
  options: {
    // Production code and test helpers (`testing/` folders, rules of their own above); test
    // files themselves may reach across (apps/server's tests import @crm/client and @crm/web),
    // which package.json's devDependencies allow.
    exclude: {
      path: ['\\.test\\.tsx?$', '(^|/)node_modules/', '/dist/', '(^|/)\\.data/'],
    },
    doNotFollow: { path: ['(^|/)node_modules/'] },
    // `import type` is an import to check too (apps/web and AppRouter).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default', 'node'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    skipAnalysisNotInRules: true,
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
