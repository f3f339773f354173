import { z } from 'zod';
import { DomainError, type ErrorDetail, invalid } from './errors.ts';

/**
 * The filter grammar of lists (docs/api.md, "Filters, sorts and counts"), in its two
 * spellings, and the one tree both become:
 *
 * - the query string: `filter[<field>]=<value>` or `filter[<field>][<op>]=<value>`, ANDed;
 *   the REST layer reads the brackets into `{ filter: { <field>: value | { <op>: value } } }`;
 * - JSON (`POST /records/query`): a node is `{ field, op?, value? }`, `{ and: [nodes] }`,
 *   `{ or: [nodes] }` or `{ not: node }`.
 */
export const FILTER_OPS = ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'contains', 'empty'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** Deepest nesting of a JSON filter, the root node being level 1. */
const MAX_FILTER_DEPTH = 6;
/** Most nodes (conditions and groups) in one filter. */
const MAX_FILTER_NODES = 100;
/** Most values of one `in`. */
export const MAX_IN_VALUES = 100;
/** Longest text value (the longest TEXT custom value). */
export const MAX_FILTER_TEXT = 10_000;

/** A condition as the tree holds it; `path` names it in errors, `fromQuery` says how to read `value`. */
export interface FilterLeaf {
  kind: 'leaf';
  field: string;
  op: FilterOp;
  value: unknown;
  path: string;
  /** A query-string value: `in` is comma-separated, an instant may carry a `+` read as a space. */
  fromQuery: boolean;
}

export type FilterTree =
  | FilterLeaf
  | { kind: 'and' | 'or'; nodes: FilterTree[] }
  | { kind: 'not'; node: FilterTree };

const scalar = z.union([z.string().max(MAX_FILTER_TEXT), z.number(), z.boolean()]);

/**
 * `filter` in a query string. A pipe, so the REST adapter takes an object there (it only
 * accepts strings, numbers, booleans — and pipes — as query parameters); documented as a
 * `deepObject` parameter.
 */
export const filterParam = () =>
  z
    .record(z.string().max(200), z.union([scalar, z.record(z.string().max(20), scalar)]))
    .transform((filter) => filter)
    .meta({
      description:
        'Conditions, all of which must hold: `filter[<field>]=<value>` (equality) or `filter[<field>][<op>]=<value>` with op `eq`, `ne`, `in` (comma-separated), `gt`, `gte`, `lt`, `lte`, `contains`, `empty` (`true`/`false`). See docs/api.md, "Filters, sorts and counts".',
      param: { style: 'deepObject', explode: true },
      example: { 'data.lifecycle': 'Customer', 'data.score': { gte: '50' } },
    });

export type FilterParam = z.infer<ReturnType<typeof filterParam>>;

export interface FilterNodeInput {
  field?: string | undefined;
  op?: FilterOp | undefined;
  value?: unknown;
  and?: FilterNodeInput[] | undefined;
  or?: FilterNodeInput[] | undefined;
  not?: FilterNodeInput | undefined;
}

/**
 * A node of a JSON filter (`POST /records/query`): one object whose keys say which form it
 * is, so that zod names the exact place of a mistake (`filter.or.0.fields`) where a union
 * of four shapes could only say that none of them fit.
 */
export const filterNode: z.ZodType<FilterNodeInput> = z
  .lazy(() =>
    z
      .strictObject({
        field: z.string().max(200).optional().meta({ description: 'A condition: `title`, `data.score` …' }),
        op: z.enum(FILTER_OPS).optional().meta({ description: 'Default `eq`.' }),
        value: z
          .unknown()
          .optional()
          .meta({ description: 'JSON of the field’s type; a list for `in`, true or false for `empty`.' }),
        and: z
          .array(filterNode)
          .min(1, 'must hold at least one condition')
          .optional()
          .meta({ description: 'All of these.' }),
        or: z
          .array(filterNode)
          .min(1, 'must hold at least one condition')
          .optional()
          .meta({ description: 'Any of these.' }),
        not: filterNode.optional().meta({ description: 'Not this.' }),
      })
      .superRefine((node, ctx) => {
        const forms = (['field', 'and', 'or', 'not'] as const).filter((k) => node[k] !== undefined);
        if (forms.length !== 1 || (forms[0] !== 'field' && (node.op !== undefined || 'value' in node))) {
          ctx.addIssue({
            code: 'custom',
            message: 'must be one of { field, op, value }, { and: [ … ] }, { or: [ … ] }, { not: { … } }',
          });
        }
      }),
  )
  .meta({
    id: 'FilterNode',
    description:
      'A condition `{ field, op, value }` or a group `{ and: [ … ] }`, `{ or: [ … ] }`, `{ not: { … } }` (exactly one of `field`, `and`, `or`, `not`).',
  });

/** The query-string form as a tree: one condition per field and operator, ANDed. */
export function treeFromParam(filter: FilterParam | undefined): FilterTree | undefined {
  if (filter === undefined) return undefined;
  const nodes: FilterTree[] = [];
  for (const [field, given] of Object.entries(filter)) {
    if (typeof given === 'object') {
      const ops = Object.entries(given);
      if (ops.length === 0) throw invalid(`filter[${field}]`, `${field}: give a value or [op]=value`);
      for (const [op, value] of ops) {
        const path = `filter[${field}][${op}]`;
        nodes.push({ kind: 'leaf', field, op: knownOp(op, path, field), value, path, fromQuery: true });
      }
    } else {
      nodes.push({ kind: 'leaf', field, op: 'eq', value: given, path: `filter[${field}]`, fromQuery: true });
    }
  }
  if (nodes.length > MAX_FILTER_NODES) {
    throw invalid('filter', `holds ${nodes.length} conditions; at most ${MAX_FILTER_NODES} are allowed`);
  }
  if (nodes.length === 0) return undefined;
  return nodes.length === 1 ? nodes[0] : { kind: 'and', nodes };
}

/** A JSON filter as a tree, refused (400) beyond MAX_FILTER_DEPTH levels or MAX_FILTER_NODES nodes. */
export function treeFromNode(root: FilterNodeInput | undefined): FilterTree | undefined {
  if (root === undefined) return undefined;
  let count = 0;
  const walk = (node: FilterNodeInput, path: string, depth: number): FilterTree => {
    count++;
    if (depth > MAX_FILTER_DEPTH) {
      throw invalid(path, `nests deeper than ${MAX_FILTER_DEPTH} levels (the filter itself is level 1)`);
    }
    if (count > MAX_FILTER_NODES) {
      throw invalid('filter', `holds more than ${MAX_FILTER_NODES} conditions and groups`);
    }
    if (node.and)
      return { kind: 'and', nodes: node.and.map((n, i) => walk(n, `${path}.and.${i}`, depth + 1)) };
    if (node.or) return { kind: 'or', nodes: node.or.map((n, i) => walk(n, `${path}.or.${i}`, depth + 1)) };
    if (node.not) return { kind: 'not', node: walk(node.not, `${path}.not`, depth + 1) };
    return {
      kind: 'leaf',
      field: node.field ?? '',
      op: node.op ?? 'eq',
      value: node.value,
      path,
      fromQuery: false,
    };
  };
  return walk(root, 'filter', 1);
}

function knownOp(op: string, path: string, field: string): FilterOp {
  if ((FILTER_OPS as readonly string[]).includes(op)) return op as FilterOp;
  throw invalid(path, `${field}: unknown operator ${op}; use one of ${FILTER_OPS.join(', ')}`);
}

/** Every field a tree names, once each. */
export function fieldsOf(tree: FilterTree | undefined): string[] {
  const names = new Set<string>();
  const walk = (node: FilterTree) => {
    if (node.kind === 'leaf') names.add(node.field);
    else if (node.kind === 'not') walk(node.node);
    else for (const n of node.nodes) walk(n);
  };
  if (tree) walk(tree);
  return [...names];
}

/** The tree without paths: what a cursor's fingerprint is made of. */
export function canonicalTree(tree: FilterTree | undefined): unknown {
  if (tree === undefined) return null;
  if (tree.kind === 'leaf') return [tree.field, tree.op, tree.value, tree.fromQuery];
  if (tree.kind === 'not') return ['not', canonicalTree(tree.node)];
  return [tree.kind, tree.nodes.map(canonicalTree)];
}

/** A 400 naming a condition: its path, then the field and operator in the message. */
export function conditionError(leaf: FilterLeaf, problem: string): DomainError {
  const message = `${leaf.field} ${leaf.op}: ${problem}`;
  const details: ErrorDetail[] = [{ path: leaf.path, message }];
  return new DomainError('VALIDATION_FAILED', `Invalid filter: ${message}`, { details });
}
