import type { conditionOperators } from '@crm/domain';

type Operator = (typeof conditionOperators)[number];

const isBlank = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

function asComparable(value: unknown): number | string {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return String(value ?? '');
}

function equal(left: unknown, right: unknown): boolean {
  if (typeof left === 'object' || typeof right === 'object')
    return JSON.stringify(left) === JSON.stringify(right);
  // "42" from a form equals 42 from a config; text compares case-sensitively.
  return asComparable(left) === asComparable(right);
}

function contains(left: unknown, right: unknown): boolean {
  if (Array.isArray(left)) return left.some((item) => equal(item, right));
  if (typeof left === 'string') return left.toLowerCase().includes(String(right ?? '').toLowerCase());
  return false;
}

/** Evaluates a CONDITION step on rendered values. */
export function evaluateCondition(left: unknown, operator: Operator, right: unknown): boolean {
  switch (operator) {
    case 'EQUALS':
      return equal(left, right);
    case 'NOT_EQUALS':
      return !equal(left, right);
    case 'CONTAINS':
      return contains(left, right);
    case 'NOT_CONTAINS':
      return !contains(left, right);
    case 'EXISTS':
      return !isBlank(left);
    case 'NOT_EXISTS':
      return isBlank(left);
    case 'GREATER_THAN':
    case 'LESS_THAN': {
      const a = asComparable(left);
      const b = asComparable(right);
      if (typeof a !== typeof b) return false;
      return operator === 'GREATER_THAN' ? a > b : a < b;
    }
  }
}

/**
 * Evaluates a BRANCH condition whose values are rendered: a leaf as CONDITION does, `all`
 * when every one holds, `any` when one does, `not` when it does not.
 */
export function evaluateExpression(expression: unknown): boolean {
  const node = expression as Record<string, unknown>;
  if (Array.isArray(node.all)) return node.all.every(evaluateExpression);
  if (Array.isArray(node.any)) return node.any.some(evaluateExpression);
  if ('not' in node) return !evaluateExpression(node.not);
  return evaluateCondition(node.left, node.operator as Operator, node.right);
}
