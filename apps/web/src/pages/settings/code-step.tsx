import { useMutation } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { FieldNotes, ProblemMessage } from '../../lib/components.tsx';
import { api, problemOf } from '../../lib/query.ts';

/** Spaces a Tab inserts in the code editor. */
const INDENT = '  ';

/**
 * A CODE step's source (docs/workflows.md, "CODE"): the body of a JavaScript function of
 * `input`, in a monospace editor where Tab indents (Escape, then Tab, leaves it), and a test
 * run of the source on a sample input through `workflows.testCode`, which runs it in the same
 * sandbox as a run would and answers what it returned or why it failed, with the line.
 */
export function CodeStep({
  label,
  source,
  error,
  onChange,
}: {
  /** The step's label, e.g. "Step 4". */
  label: string;
  source: string;
  error: string | undefined;
  onChange: (source: string) => void;
}) {
  const id = useId();
  const [sample, setSample] = useState('{}');
  const [sampleError, setSampleError] = useState<string | null>(null);
  const leaving = useRef(false);
  const test = useMutation(
    api.workflows.testCode.mutationOptions({
      onSuccess: ({ data }) =>
        announce(
          data.ok
            ? `The test run returned in ${data.durationMs} ms.`
            : `The test run failed${data.error?.line ? ` on line ${data.error.line}` : ''}.`,
        ),
    }),
  );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      leaving.current = true;
      return;
    }
    const indent =
      event.key === 'Tab' && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey;
    if (!indent || leaving.current) {
      leaving.current = false;
      return;
    }
    event.preventDefault();
    const editor = event.currentTarget;
    const { selectionStart: start, selectionEnd: end } = editor;
    onChange(`${source.slice(0, start)}${INDENT}${source.slice(end)}`);
    requestAnimationFrame(() => editor.setSelectionRange(start + INDENT.length, start + INDENT.length));
  };

  const run = () => {
    let input: unknown;
    try {
      input = JSON.parse(sample);
    } catch (problem) {
      setSampleError(`is not JSON: ${problem instanceof Error ? problem.message : String(problem)}`);
      return;
    }
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      setSampleError('must be a JSON object, e.g. { "trigger": { "body": { "lines": [] } } }');
      return;
    }
    setSampleError(null);
    test.mutate({ source, input: input as Record<string, unknown> });
  };

  const result = test.data?.data;
  const failedLine = result?.error?.line ? source.split('\n')[result.error.line - 1] : undefined;
  return (
    <fieldset className="code-step" aria-label={`${label} code`}>
      <div className="field">
        <label htmlFor={id}>JavaScript: the body of a function of input</label>
        <textarea
          id={id}
          className="code"
          rows={Math.min(20, Math.max(6, source.split('\n').length + 1))}
          spellCheck={false}
          value={source}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onKeyDown={onKeyDown}
          onChange={(e) => onChange(e.target.value)}
        />
        <FieldNotes
          id={id}
          hint="input is { trigger, record, steps, item, loop }; what it returns (JSON) is the step's output. Tab indents; Escape then Tab leaves the editor."
          error={error}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-sample`}>Sample input (JSON)</label>
        <textarea
          id={`${id}-sample`}
          className="code"
          rows={3}
          spellCheck={false}
          value={sample}
          aria-invalid={sampleError ? true : undefined}
          aria-describedby={sampleError ? `${id}-sample-error` : undefined}
          onChange={(e) => setSample(e.target.value)}
        />
        <FieldNotes id={`${id}-sample`} error={sampleError ?? undefined} />
      </div>
      <button type="button" onClick={run} disabled={test.isPending || source.trim() === ''}>
        Test run
      </button>
      <ProblemMessage problem={problemOf(test.error)} />
      {result ? (
        <div className={`code-result ${result.ok ? 'ok' : 'failed'}`} data-testid="code-result">
          {result.ok ? (
            <>
              <p>Returned in {result.durationMs} ms:</p>
              <pre className="json">{JSON.stringify(result.output, null, 2) ?? 'undefined'}</pre>
            </>
          ) : (
            <>
              <p className="field-error">
                {result.error?.kind ?? 'error'}
                {result.error?.line ? ` on line ${result.error.line}` : ''}: {result.error?.message}
              </p>
              {failedLine !== undefined ? (
                <pre className="json">
                  {result.error?.line}: {failedLine}
                </pre>
              ) : null}
            </>
          )}
        </div>
      ) : null}
    </fieldset>
  );
}
