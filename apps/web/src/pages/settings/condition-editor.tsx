import { conditionOperators } from '@crm/constants';
import { Field, SelectField } from '../../lib/components.tsx';
import {
  type ConditionDraft,
  type ConditionKind,
  convertCondition,
  newLeaf,
  type Operator,
  takesRight,
} from './action-draft.ts';

/**
 * A BRANCH's condition (docs/workflows.md, "BRANCH"): a comparison of two values, or a group:
 * all of its conditions hold, any of them does, or the one inside does not. Groups nest; the
 * server allows 5 levels. Each node is a group named by where it is (`Step 1 › if › 2`), so a
 * screen reader says which "Value" it is in.
 */
export function ConditionEditor({
  label,
  value,
  error,
  onChange,
}: {
  /** The step's label, e.g. "Step 1". */
  label: string;
  value: ConditionDraft;
  error: string | undefined;
  onChange: (value: ConditionDraft) => void;
}) {
  return (
    <fieldset className="condition-editor">
      <legend>If</legend>
      <ConditionNode label={`${label} › if`} node={value} onChange={onChange} />
      {error ? <small className="field-error">{error}</small> : null}
    </fieldset>
  );
}

const KINDS: { value: ConditionKind; label: string }[] = [
  { value: 'leaf', label: 'A comparison' },
  { value: 'all', label: 'All of these hold (and)' },
  { value: 'any', label: 'Any of these holds (or)' },
  { value: 'not', label: 'This does not hold (not)' },
];

function ConditionNode({
  label,
  node,
  onChange,
  onRemove,
}: {
  label: string;
  node: ConditionDraft;
  onChange: (node: ConditionDraft) => void;
  onRemove?: () => void;
}) {
  return (
    <fieldset aria-label={label} className={`condition ${node.kind}`}>
      <div className="row condition-head">
        <SelectField
          label="Condition"
          value={node.kind}
          onChange={(e) => onChange(convertCondition(node, e.target.value as ConditionKind))}
          options={KINDS}
        />
        {onRemove ? (
          <button type="button" className="danger" onClick={onRemove} aria-label={`Remove ${label}`}>
            Remove
          </button>
        ) : null}
      </div>
      {node.kind === 'leaf' ? (
        <div className="row">
          <Field
            label="Value"
            hint="e.g. {{ trigger.body.country }}"
            value={node.left}
            onChange={(e) => onChange({ ...node, left: e.target.value })}
          />
          <SelectField
            label="Operator"
            value={node.operator}
            onChange={(e) => onChange({ ...node, operator: e.target.value as Operator })}
            options={conditionOperators.map((o) => ({ value: o, label: o.toLowerCase().replace(/_/g, ' ') }))}
          />
          {takesRight(node.operator) ? (
            <Field
              label="Compared with"
              value={node.right}
              onChange={(e) => onChange({ ...node, right: e.target.value })}
            />
          ) : null}
        </div>
      ) : node.kind === 'not' ? (
        <ConditionNode
          label={`${label} › not`}
          node={node.inner}
          onChange={(inner) => onChange({ ...node, inner })}
        />
      ) : (
        <>
          <ol className="conditions">
            {node.items.map((item, index) => (
              <li key={item.key}>
                <ConditionNode
                  label={`${label} › ${index + 1}`}
                  node={item}
                  onChange={(changed) =>
                    onChange({ ...node, items: node.items.map((it, i) => (i === index ? changed : it)) })
                  }
                  onRemove={
                    node.items.length > 1
                      ? () => onChange({ ...node, items: node.items.filter((_, i) => i !== index) })
                      : undefined
                  }
                />
              </li>
            ))}
          </ol>
          <div className="actions">
            <button
              type="button"
              onClick={() => onChange({ ...node, items: [...node.items, newLeaf()] })}
              aria-label={`Add a comparison to ${label}`}
            >
              Add a comparison
            </button>
            <button
              type="button"
              onClick={() =>
                onChange({ ...node, items: [...node.items, convertCondition(newLeaf(), 'all')] })
              }
              aria-label={`Add a group to ${label}`}
            >
              Add a group
            </button>
          </div>
        </>
      )}
    </fieldset>
  );
}
