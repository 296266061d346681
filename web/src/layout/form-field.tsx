import { useId, type ReactNode } from 'react';

export interface FormFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  multiline?: boolean;
}

/** A labelled input whose error and hint are announced with it (aria-describedby). */
export function FormField({ label, name, value, onChange, error, hint, type = 'text', autoComplete, multiline }: FormFieldProps) {
  return (
    <LabelledControl label={label} error={error} hint={hint}>
      {(control) =>
        multiline ? (
          <textarea {...control} name={name} value={value} rows={6} onChange={(event) => onChange(event.target.value)} />
        ) : (
          <input {...control} name={name} value={value} type={type} autoComplete={autoComplete} onChange={(event) => onChange(event.target.value)} />
        )
      }
    </LabelledControl>
  );
}

/** What a LabelledControl hands its control: the ids that tie it to its label, hint and error. */
export interface ControlProps {
  id: string;
  className: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A label, any control (select, textarea, an input with a ref…) given by `children`, and the hint and
 * error announced with it: the dialogs' fields (alerts, chat rooms).
 */
export function LabelledControl({ label, error, hint, children }: { label: string; error?: string; hint?: string; children: (props: ControlProps) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="form-field">
      <label htmlFor={id} className="form-field__label">
        {label}
      </label>
      {children({ id, className: 'form-field__input', 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="form-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="form-field__error">
          {error}
        </p>
      )}
    </div>
  );
}
