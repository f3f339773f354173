/**
 * One action per file (CONTRIBUTING.md, "Add an endpoint"; docs/architecture.md): a domain
 * action lives in `packages/domain/src/<resource>/<verb>-<noun>.ts`, the file named after the
 * one action it exports (`rename-stage.ts` exports `renameStage`), so that the action a router
 * calls is found by its name, and what two actions share goes into a module named after what
 * it does. An action is a function of @crm/domain that packages/api/src imports and whose
 * first parameter is the database (`db` or `tx`); the helpers the routers also import (the
 * batch envelope, the schema builders) take something else first and are left out.
 * This reads the domain's sources (tests and `testing/` aside) and the API's imports, and
 * names each action in a file named otherwise, and each file that holds two actions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const domain = join(repo, 'packages', 'domain', 'src');
const api = join(repo, 'packages', 'api', 'src');

/** The parameter names that say a function takes the database first. */
const DATABASE = new Set(['db', 'tx']);

function parse(text: string): ts.SourceFile {
  return ts.createSourceFile('source.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
}

function exported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function firstParameter(fn: ts.SignatureDeclarationBase): string {
  const first = fn.parameters[0];
  return first && ts.isIdentifier(first.name) ? first.name.text : '';
}

/**
 * The functions a source text exports, `export function f(…)` or `export const f = (…) =>`,
 * each with the name of its first parameter ('' when it has none).
 */
export function exportedFunctionsIn(text: string): { name: string; first: string }[] {
  const found: { name: string; first: string }[] = [];
  for (const statement of parse(text).statements) {
    if (!exported(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      found.push({ name: statement.name.text, first: firstParameter(statement) });
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        if (!ts.isIdentifier(declaration.name) || !value) continue;
        if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
          found.push({ name: declaration.name.text, first: firstParameter(value) });
        }
      }
    }
  }
  return found;
}

/** The names a source text imports from `@crm/domain` or one of its entry points, types included. */
export function domainImportsIn(text: string): string[] {
  const names: string[] = [];
  for (const statement of parse(text).statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const module = statement.moduleSpecifier.text;
    if (module !== '@crm/domain' && !module.startsWith('@crm/domain/')) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
    }
  }
  return names;
}

/** `rename-stage.ts` → `renameStage`. */
function camelCaseOf(path: string): string {
  return basename(path, '.ts').replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** The actions of a source text: the functions it exports that the API imports, the database first. */
function actionsIn(text: string, imported: Set<string>): string[] {
  return exportedFunctionsIn(text)
    .filter((fn) => imported.has(fn.name) && DATABASE.has(fn.first))
    .map((fn) => fn.name);
}

/**
 * The breaches of the rule among the domain's sources (path → text) for the names the API
 * imports: an action in a file named otherwise, a file that holds two actions.
 */
export function offendersIn(sources: Map<string, string>, imported: Set<string>): string[] {
  const found: string[] = [];
  for (const [path, text] of sources) {
    const actions = actionsIn(text, imported);
    if (actions.length > 1) found.push(`${path} holds ${actions.length} actions: ${actions.join(', ')}`);
    for (const action of actions) {
      if (action !== camelCaseOf(path)) found.push(`${path}: ${action} is not in a file named after it`);
    }
  }
  return found;
}

/** The source files under a folder (tests and `testing/` folders aside), path → text. */
function sources(root: string, folder = root, into = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing') sources(root, path, into);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      into.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  }
  return into;
}

describe('one action per file', () => {
  it('finds an action in a file named otherwise and two in one file, and not a helper', () => {
    const planted = new Map([
      [
        'calls/find-calls.ts',
        'export function findCalls(db: Database, actor: Actor, input: FindCallsInput) {}\n' +
          'export async function getCall(\n  db: Database,\n  actor: Actor,\n  input: GetCallInput,\n) {}\n',
      ],
      [
        'tasks/batch-delete-tasks.ts',
        'export const deleteTasks = async (tx: Executor, actor: Actor) => {};\n',
      ],
      ['stages/rename-stage.ts', 'export async function renameStage(db: Database, actor: Actor) {}\n'],
      ['shared/batch.ts', 'export function batchEnvelope<T extends { id: string }>(item: T) {}\n'],
      ['shared/unused.ts', 'export function pruneAll(db: Database) {}\n'],
    ]);
    const imported = new Set(['findCalls', 'getCall', 'deleteTasks', 'renameStage', 'batchEnvelope']);
    expect(offendersIn(planted, imported)).toEqual([
      'calls/find-calls.ts holds 2 actions: findCalls, getCall',
      'calls/find-calls.ts: getCall is not in a file named after it',
      'tasks/batch-delete-tasks.ts: deleteTasks is not in a file named after it',
    ]);
    expect(
      domainImportsIn(
        "import {\n  a,\n  type B,\n  c as d,\n} from '@crm/domain';\nimport { e } from 'zod';",
      ),
    ).toEqual(['a', 'B', 'c']);
  });

  it('holds in the domain', () => {
    const imported = new Set([...sources(api).values()].flatMap(domainImportsIn));
    const domainSources = sources(domain);
    // The check reads something: the API calls well over a hundred actions.
    const actions = [...domainSources.values()].flatMap((text) => actionsIn(text, imported));
    expect(actions.length).toBeGreaterThan(100);
    expect(offendersIn(domainSources, imported)).toEqual([]);
  });
});
