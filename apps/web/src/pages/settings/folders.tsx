import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { Dialog, Field, FolderList, PageHeader, ProblemMessage, SelectField } from '../../lib/components.tsx';
import { optionsFromText } from '../../lib/format.ts';
import { api, type Inputs, type Outputs, problemOf, queryClient } from '../../lib/query.ts';
import { navigate, useLocation } from '../../lib/router.tsx';

type Folder = Outputs['folders']['list']['data'][number];
type FieldDef = Folder['fields'][number];
type FieldType = FieldDef['type'];
type Cardinality = NonNullable<FieldDef['relation']>['cardinality'];

/**
 * A folder's fields change its records everywhere: the folders, the records (a removed field
 * takes its values, a removed relation its links) and what is listed from them are read again.
 */
function invalidateFolders() {
  return Promise.all([
    queryClient.invalidateQueries(api.folders.pathFilter()),
    queryClient.invalidateQueries(api.records.pathFilter()),
  ]);
}

/** The field types in the order the form offers them. */
const TYPES: FieldType[] = [
  'TEXT',
  'NUMBER',
  'DATE',
  'BOOLEAN',
  'SELECT',
  'MULTI_SELECT',
  'EMAIL',
  'URL',
  'RELATION',
];

/** Each type as the page names it. */
const TYPE_LABELS: Record<FieldType, string> = {
  TEXT: 'Text',
  NUMBER: 'Number',
  DATE: 'Date',
  BOOLEAN: 'Yes or no',
  SELECT: 'Choice',
  MULTI_SELECT: 'Several choices',
  EMAIL: 'Email',
  URL: 'Web address',
  RELATION: 'Relation',
};

const CARDINALITIES: { value: Cardinality; label: string }[] = [
  { value: 'ONE', label: 'One record' },
  { value: 'MANY', label: 'Several records' },
];

/** A field key made from a label: `Work email` → `work_email` (what FIELD_KEY takes). */
function keyFrom(label: string): string {
  const key = label
    .normalize('NFKD')
    .replace(/[^\w\s]/g, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '_')
    .replace(/[^a-z0-9_]/g, '')
    .slice(0, 63);
  return /^[a-z]/.test(key) ? key : key ? `f_${key}`.slice(0, 63) : '';
}

/** Labels or options as typed: split at commas, blanks dropped. */
const listFrom = optionsFromText;

/**
 * Folders and their fields (docs/web-app.md, "Folders and fields"): every member may change
 * them, as the API lets any key with the write scope. The folders on the left (and a form for a
 * new one), the chosen folder's fields on the right: each with its type and what it holds
 * (options, or for a relation its target folder, one or several records, its link labels and
 * its paired field), a form to change its label, options or link labels, and removal behind a
 * confirmation. The form below adds a field of any type; a relation may add its paired field to
 * the target folder in the same change.
 */
export function FoldersPage() {
  const { query } = useLocation();
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const all = folders.data?.data ?? [];
  const folder = all.find((f) => f.id === query.get('folder')) ?? all[0];
  const choose = (id: string) => navigate(`/settings/folders?folder=${encodeURIComponent(id)}`);
  return (
    <>
      <PageHeader title="Folders and fields" />
      <ProblemMessage problem={problemOf(folders.error)} />
      <div className="split">
        <nav aria-label="Folders" className="folders">
          <h2>Folders</h2>
          <FolderList folders={folders.data ? all : undefined} current={folder?.id} onChoose={choose} />
          <NewFolderForm onCreated={choose} />
        </nav>
        {folder ? <FolderFields key={folder.id} folder={folder} folders={all} /> : null}
      </div>
    </>
  );
}

function NewFolderForm({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const create = useMutation(
    api.folders.create.mutationOptions({
      onSuccess: async (answer) => {
        setName('');
        announce(`Created the folder “${answer.data.name}”.`);
        await queryClient.invalidateQueries(api.folders.pathFilter());
        onCreated(answer.data.id);
      },
    }),
  );
  const problem = problemOf(create.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name });
  };
  return (
    <form onSubmit={onSubmit} aria-label="Create a folder" noValidate>
      <ProblemMessage problem={problem} paths={['name']} />
      <Field
        label="New folder"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={problem?.fields.name}
        required
      />
      <button type="submit" disabled={create.isPending}>
        Create folder
      </button>
    </form>
  );
}

/** What a field holds, in words: its options, or where a relation leads. */
function describeField(field: FieldDef, folders: Folder[]): string {
  const name = (id: string) => folders.find((f) => f.id === id)?.name ?? id;
  if (field.relation) {
    const r = field.relation;
    const parts = [
      `${r.cardinality === 'ONE' ? 'One record' : 'Several records'} of ${name(r.folderId)}`,
      r.labels?.length ? `labels: ${r.labels.join(', ')}` : 'no labels',
    ];
    if (r.inverseKey) {
      const target = folders.find((f) => f.id === r.folderId);
      const pair = target?.fields.find((f) => f.key === r.inverseKey);
      parts.push(`paired with ${name(r.folderId)} › ${pair?.label ?? r.inverseKey}`);
    }
    return parts.join(' · ');
  }
  return field.options ? field.options.join(', ') : '';
}

function FolderFields({ folder, folders }: { folder: Folder; folders: Folder[] }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<FieldDef | null>(null);
  return (
    <section aria-label={`Fields of ${folder.name}`} className="grow">
      <h2>Fields of {folder.name}</h2>
      <p className="hint">
        Every record of {folder.name} has a title, an email, a phone and an owner; these are its own fields.
      </p>
      {folder.fields.length === 0 ? (
        <p className="empty">No fields yet.</p>
      ) : (
        <table className="fields-table">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Key</th>
              <th scope="col">Type</th>
              <th scope="col">Holds</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {folder.fields.map((field) =>
              editing === field.key ? (
                <tr key={field.key} className="editing">
                  <td colSpan={5}>
                    <ChangeFieldForm folder={folder} field={field} onDone={() => setEditing(null)} />
                  </td>
                </tr>
              ) : (
                <tr key={field.key} data-field={field.key}>
                  <th scope="row">{field.label}</th>
                  <td>
                    <code>{field.key}</code>
                  </td>
                  <td>
                    {TYPE_LABELS[field.type]}
                    {field.relation ? ` (${field.relation.cardinality === 'ONE' ? 'one' : 'many'})` : ''}
                  </td>
                  <td>{describeField(field, folders)}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      aria-label={`Change the field ${field.label}`}
                      onClick={() => setEditing(field.key)}
                    >
                      Change
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Remove the field ${field.label}`}
                      onClick={() => setRemoving(field)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
      <AddFieldForm folder={folder} folders={folders} />
      {removing ? (
        <RemoveFieldDialog
          folder={folder}
          folders={folders}
          field={removing}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </section>
  );
}

/**
 * A field's label, and the options of a SELECT or MULTI_SELECT, or the link labels of a
 * relation (on both fields of a pair; links keep a label taken off the list). Only what
 * changed is sent.
 */
function ChangeFieldForm({ folder, field, onDone }: { folder: Folder; field: FieldDef; onDone: () => void }) {
  const [label, setLabel] = useState(field.label);
  const [options, setOptions] = useState((field.options ?? []).join(', '));
  const [labels, setLabels] = useState((field.relation?.labels ?? []).join(', '));
  const first = useRef<HTMLDivElement>(null);
  useEffect(() => first.current?.querySelector('input')?.focus(), []);
  const change = useMutation(
    api.folders.changeField.mutationOptions({
      onSuccess: async () => {
        announce(`Saved the field “${label}”.`);
        await invalidateFolders();
        onDone();
      },
    }),
  );
  const problem = problemOf(change.error);
  const hasOptions = field.type === 'SELECT' || field.type === 'MULTI_SELECT';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input: Inputs['folders']['changeField'] = { id: folder.id, key: field.key };
    if (label !== field.label) input.label = label;
    if (hasOptions && options !== (field.options ?? []).join(', ')) input.options = listFrom(options);
    if (field.relation) {
      const next = listFrom(labels);
      const before = field.relation.labels ?? [];
      if (next.join('\n') !== before.join('\n')) input.relation = { labels: next.length > 0 ? next : null };
    }
    if (Object.keys(input).length === 2) {
      onDone();
      return;
    }
    change.mutate(input);
  };
  return (
    <form onSubmit={onSubmit} aria-label={`Change the field ${field.label}`} noValidate>
      <ProblemMessage problem={problem} paths={['label', 'options', 'relation.labels']} />
      <div className="row" ref={first}>
        <Field
          label="Label"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          error={problem?.fields.label}
        />
        {hasOptions ? (
          <Field
            label="Options"
            value={options}
            onChange={(e) => setOptions(e.target.value)}
            hint="Separated by commas. An option a record still holds cannot be taken off."
            error={problem?.fields.options}
          />
        ) : null}
        {field.relation ? (
          <Field
            label="Link labels"
            value={labels}
            onChange={(e) => setLabels(e.target.value)}
            hint="Separated by commas; empty for none. Changed on the paired field too."
            error={problem?.fields['relation.labels']}
          />
        ) : null}
      </div>
      <div className="actions">
        <button type="submit" disabled={change.isPending}>
          Save field
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Removing a field, confirmed in a dialog that says what goes with it. A relation that still
 * links records is refused (409); the dialog then says so and offers to remove it with its
 * links (`force`), which also removes its paired field and every link.
 */
function RemoveFieldDialog({
  folder,
  folders,
  field,
  onClose,
}: {
  folder: Folder;
  folders: Folder[];
  field: FieldDef;
  onClose: () => void;
}) {
  const remove = useMutation(
    api.folders.removeField.mutationOptions({
      onSuccess: async (_answer, input) => {
        announce(
          input.force === 'true'
            ? `Removed the field “${field.label}” and its links.`
            : `Removed the field “${field.label}”.`,
        );
        await invalidateFolders();
        onClose();
      },
    }),
  );
  const problem = problemOf(remove.error);
  const inUse = problem?.status === 409;
  const target = field.relation ? folders.find((f) => f.id === field.relation?.folderId) : undefined;
  const pair = field.relation?.inverseKey
    ? target?.fields.find((f) => f.key === field.relation?.inverseKey)
    : undefined;
  return (
    <Dialog title={`Remove the field “${field.label}”?`} onClose={onClose} className="confirm">
      {field.relation ? (
        <p>
          The field {field.label} of {folder.name} goes, and with it the links it holds to records of{' '}
          {target?.name ?? 'its folder'}.
          {pair ? ` Its paired field ${pair.label} of ${target?.name} goes too.` : ''}
        </p>
      ) : (
        <p>
          The field {field.label} goes from {folder.name}, and its values from every record of it, Trash
          included. This cannot be undone.
        </p>
      )}
      {inUse ? (
        <div className="problem">
          <p>
            {field.label} still links records, so the server kept it ({problem?.message}). Remove the links
            first from the records’ pages, or remove the field with every link it holds: each link is undone
            with its own <code>record.unlinked</code> event, and this cannot be undone.
          </p>
        </div>
      ) : (
        <ProblemMessage problem={problem} />
      )}
      <div className="actions">
        {inUse ? (
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: folder.id, key: field.key, force: 'true' })}
          >
            Remove with its links
          </button>
        ) : (
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: folder.id, key: field.key })}
          >
            Remove field
          </button>
        )}
        <button type="button" onClick={onClose}>
          Keep it
        </button>
      </div>
    </Dialog>
  );
}

/**
 * A new field: label, key (made from the label until typed), type, the options of a choice,
 * and for a relation its target folder, one or several records, its link labels and,
 * optionally, the paired field to add to the target folder (its label, key and how many
 * records it holds).
 */
function AddFieldForm({ folder, folders }: { folder: Folder; folders: Folder[] }) {
  const [label, setLabel] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const [type, setType] = useState<FieldType>('TEXT');
  const [options, setOptions] = useState('');
  const [targetId, setTargetId] = useState(folder.id);
  const [cardinality, setCardinality] = useState<Cardinality>('ONE');
  const [labels, setLabels] = useState('');
  const [paired, setPaired] = useState(false);
  const [inverseLabel, setInverseLabel] = useState(folder.name);
  const [inverseKey, setInverseKey] = useState<string | null>(null);
  const [inverseCardinality, setInverseCardinality] = useState<Cardinality>('MANY');
  const id = useId();
  const target = folders.find((f) => f.id === targetId) ?? folder;
  const add = useMutation(
    api.folders.addField.mutationOptions({
      onSuccess: async () => {
        announce(
          type === 'RELATION' && paired
            ? `Added the field “${label}” to ${folder.name} and “${inverseLabel}” to ${target.name}.`
            : `Added the field “${label}” to ${folder.name}.`,
        );
        setLabel('');
        setKey(null);
        setOptions('');
        setLabels('');
        setPaired(false);
        setInverseKey(null);
        await invalidateFolders();
      },
    }),
  );
  const problem = problemOf(add.error);
  const errors = problem?.fields ?? {};
  const fieldKey = key ?? keyFrom(label);
  const pairKey = inverseKey ?? keyFrom(inverseLabel);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input: Inputs['folders']['addField'] = { id: folder.id, key: fieldKey, label, type };
    if (type === 'SELECT' || type === 'MULTI_SELECT') input.options = listFrom(options);
    if (type === 'RELATION') {
      const linkLabels = listFrom(labels);
      input.relation = {
        folderId: target.id,
        cardinality,
        ...(linkLabels.length > 0 ? { labels: linkLabels } : {}),
      };
      if (paired) input.inverse = { key: pairKey, label: inverseLabel, cardinality: inverseCardinality };
    }
    add.mutate(input);
  };
  return (
    <form onSubmit={onSubmit} className="card" aria-labelledby={`${id}-heading`} noValidate>
      <h3 id={`${id}-heading`}>Add a field to {folder.name}</h3>
      <ProblemMessage
        problem={problem}
        paths={[
          'key',
          'label',
          'type',
          'options',
          'relation.folderId',
          'relation.labels',
          'inverse.key',
          'inverse.label',
        ]}
      />
      <div className="row">
        <Field
          label="Label"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          error={errors.label}
          required
        />
        <Field
          label="Key"
          value={fieldKey}
          onChange={(e) => setKey(e.target.value)}
          hint="The name in data and the API: a letter, then letters, digits and _"
          error={errors.key}
          required
        />
        <SelectField
          label="Type"
          value={type}
          onChange={(e) => setType(e.target.value as FieldType)}
          options={TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
          error={errors.type}
        />
      </div>
      {type === 'SELECT' || type === 'MULTI_SELECT' ? (
        <Field
          label="Options"
          value={options}
          onChange={(e) => setOptions(e.target.value)}
          hint="Separated by commas: Lead, Customer, Churned"
          error={errors.options}
        />
      ) : null}
      {type === 'RELATION' ? (
        <fieldset className="relation-settings">
          <legend>Relation</legend>
          <div className="row">
            <SelectField
              label="Links to records of"
              value={target.id}
              onChange={(e) => {
                setTargetId(e.target.value);
                setInverseLabel(folder.name);
              }}
              options={folders.map((f) => ({
                value: f.id,
                label: f.id === folder.id ? `${f.name} (this folder)` : f.name,
              }))}
              error={errors['relation.folderId']}
            />
            <SelectField
              label="Each record links to"
              value={cardinality}
              onChange={(e) => setCardinality(e.target.value as Cardinality)}
              options={CARDINALITIES}
            />
            <Field
              label="Link labels (optional)"
              value={labels}
              onChange={(e) => setLabels(e.target.value)}
              hint="Separated by commas: Employee, Contractor. A link may carry one."
              error={errors['relation.labels']}
            />
          </div>
          <label className="check">
            <input type="checkbox" checked={paired} onChange={(e) => setPaired(e.target.checked)} /> Also add
            the paired field to {target.name}, which lists the links from the other side
          </label>
          {paired ? (
            <div className="row">
              <Field
                label={`Paired field label (in ${target.name})`}
                value={inverseLabel}
                onChange={(e) => setInverseLabel(e.target.value)}
                error={errors['inverse.label']}
              />
              <Field
                label="Paired field key"
                value={pairKey}
                onChange={(e) => setInverseKey(e.target.value)}
                error={errors['inverse.key']}
              />
              <SelectField
                label={`Each record of ${target.name} links to`}
                value={inverseCardinality}
                onChange={(e) => setInverseCardinality(e.target.value as Cardinality)}
                options={CARDINALITIES}
              />
            </div>
          ) : null}
          <p className="hint">
            One record: the link is kept in the record’s data and shown in the records table. Several records:
            the links are listed on the record’s page.
          </p>
        </fieldset>
      ) : null}
      <button type="submit" disabled={add.isPending}>
        Add field
      </button>
    </form>
  );
}
