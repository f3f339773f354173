import { type InputHTMLAttributes, useId } from 'react';
import { Field } from '../../lib/components.tsx';

/** The browser's IANA time zones, offered as suggestions; any name may be typed (the server checks it). */
const ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

/** A text input for an IANA time zone (`Europe/Berlin`), suggesting the zones the browser knows. */
export function TimeZoneField({
  label,
  hint,
  error,
  ...input
}: { label: string; hint?: string; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const list = useId();
  return (
    <>
      <Field
        label={label}
        {...(hint ? { hint } : {})}
        error={error}
        list={list}
        placeholder="UTC"
        autoComplete="off"
        {...input}
      />
      <datalist id={list}>
        {ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </>
  );
}
