// Watching an address, and what alerts the user about it: on or off, a USD threshold (empty: the
// global whale threshold), immediately or in an hourly or daily digest (daily at midnight in the
// chosen time zone). The api validates; its field messages are shown beside the fields.
import { useId, useState, type FormEvent } from 'react';
import { WHALE_ALERT_FREQUENCIES, type WhaleAlertFrequency, type WhaleWatchInput, type WhaleWatchView } from '@tickerbell/jobs/whales/shapes';
import { messageOf } from '../accounts/auth-client';
import { fieldErrorsOf } from '../accounts/account-client';
import { FREQUENCY_LABELS, addWatch, updateWatch } from './whales-client';

/** The browser's IANA time zone (daily digests go out at its midnight). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The browser's IANA zones for the picker's suggestions; none in a browser without Intl.supportedValuesOf (typing one still works). */
function timeZones(): string[] {
  try {
    return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  } catch {
    return [];
  }
}

interface Draft {
  address: string;
  customLabel: string;
  alertEnabled: boolean;
  alertThreshold: string;
  alertFrequency: WhaleAlertFrequency;
  timeZone: string;
}

function draftOf(watch: WhaleWatchView | null, address: string): Draft {
  return {
    address: watch?.address ?? address,
    customLabel: watch?.customLabel ?? '',
    alertEnabled: watch?.alertEnabled ?? true,
    // "1000000.00" is shown as "1000000".
    alertThreshold: watch?.alertThreshold ? watch.alertThreshold.replace(/\.00$/, '') : '',
    alertFrequency: watch?.alertFrequency ?? 'immediate',
    timeZone: watch?.timeZone ?? browserTimeZone(),
  };
}

interface WatchFormProps {
  /** The watch being edited; null to add one. */
  watch: WhaleWatchView | null;
  /** A fixed address (its own page); empty to let the user type one. */
  address?: string;
  onSaved: (watch: WhaleWatchView, created: boolean) => void;
  onCancel?: () => void;
  /** The form's accessible name. */
  name: string;
}

const FIELDS = ['address', 'customLabel', 'alertEnabled', 'alertThreshold', 'alertFrequency', 'timeZone'] as const;

export function WatchForm({ watch, address = '', onSaved, onCancel, name }: WatchFormProps) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(watch, address));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ state: 'idle' | 'saving' } | { state: 'failed'; message: string }>({ state: 'idle' });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const fixedAddress = watch !== null || address !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: WhaleWatchInput = {
      address: draft.address.trim(),
      customLabel: draft.customLabel.trim() || null,
      alertEnabled: draft.alertEnabled,
      alertThreshold: draft.alertThreshold.trim().replace(/[$,\s]/g, '') || null,
      alertFrequency: draft.alertFrequency,
      timeZone: draft.timeZone.trim(),
    };
    setStatus({ state: 'saving' });
    setErrors({});
    const { address: _address, ...changes } = input;
    (watch ? updateWatch(watch.id, changes) : addWatch(input))
      .then((saved) => {
        setStatus({ state: 'idle' });
        onSaved(saved, watch === null);
      })
      .catch((error: unknown) => {
        const fields = fieldErrorsOf(error);
        setErrors(fields);
        const named = FIELDS.filter((field) => fields[field]);
        setStatus({
          state: 'failed',
          message: named.length ? `Check the ${named.length === 1 ? 'field' : 'fields'} marked below: ${named.map((field) => fields[field]).join(' ')}` : messageOf(error),
        });
      });
  };

  const fieldError = (field: (typeof FIELDS)[number]) =>
    errors[field] ? (
      <span id={`${id}-${field}-error`} className="whale-field__error">
        {errors[field]}
      </span>
    ) : null;
  const described = (field: (typeof FIELDS)[number], hint?: string) => [errors[field] ? `${id}-${field}-error` : '', hint ?? ''].filter(Boolean).join(' ') || undefined;
  const zones = timeZones();

  return (
    <form className="whale-watch-form" aria-label={name} onSubmit={submit} noValidate>
      <div className="whale-watch-form__grid">
        {!fixedAddress && (
          <div className="whale-field whale-field--wide">
            <label htmlFor={`${id}-address`} className="whale-field__label">
              Address
            </label>
            <input
              id={`${id}-address`}
              className="form-field__input whale-mono"
              value={draft.address}
              placeholder="0x… (checksummed or lowercase)"
              spellCheck={false}
              autoComplete="off"
              required
              aria-invalid={errors.address ? true : undefined}
              aria-describedby={described('address')}
              onChange={(event) => set('address', event.target.value)}
            />
            {fieldError('address')}
          </div>
        )}
        <div className="whale-field">
          <label htmlFor={`${id}-customLabel`} className="whale-field__label">
            Your label (optional)
          </label>
          <input
            id={`${id}-customLabel`}
            className="form-field__input"
            value={draft.customLabel}
            maxLength={100}
            placeholder="e.g. Treasury wallet"
            aria-invalid={errors.customLabel ? true : undefined}
            aria-describedby={described('customLabel')}
            onChange={(event) => set('customLabel', event.target.value)}
          />
          {fieldError('customLabel')}
        </div>
        <div className="whale-field">
          <label htmlFor={`${id}-alertThreshold`} className="whale-field__label">
            Alert threshold (USD)
          </label>
          <input
            id={`${id}-alertThreshold`}
            className="form-field__input"
            inputMode="decimal"
            value={draft.alertThreshold}
            placeholder="Global whale threshold"
            disabled={!draft.alertEnabled}
            aria-invalid={errors.alertThreshold ? true : undefined}
            aria-describedby={described('alertThreshold', `${id}-threshold-hint`)}
            onChange={(event) => set('alertThreshold', event.target.value)}
          />
          <span id={`${id}-threshold-hint`} className="whale-field__hint">
            Transfers of at least this value alert you; empty uses the global whale threshold.
          </span>
          {fieldError('alertThreshold')}
        </div>
        <div className="whale-field">
          <label htmlFor={`${id}-alertFrequency`} className="whale-field__label">
            Alert me
          </label>
          <select
            id={`${id}-alertFrequency`}
            className="form-field__input"
            value={draft.alertFrequency}
            disabled={!draft.alertEnabled}
            aria-invalid={errors.alertFrequency ? true : undefined}
            aria-describedby={described('alertFrequency')}
            onChange={(event) => set('alertFrequency', event.target.value as WhaleAlertFrequency)}
          >
            {WHALE_ALERT_FREQUENCIES.map((frequency) => (
              <option key={frequency} value={frequency}>
                {FREQUENCY_LABELS[frequency]}
              </option>
            ))}
          </select>
          {fieldError('alertFrequency')}
        </div>
        <div className="whale-field">
          <label htmlFor={`${id}-timeZone`} className="whale-field__label">
            Time zone
          </label>
          <input
            id={`${id}-timeZone`}
            className="form-field__input"
            value={draft.timeZone}
            list={zones.length ? `${id}-zones` : undefined}
            disabled={!draft.alertEnabled}
            spellCheck={false}
            aria-invalid={errors.timeZone ? true : undefined}
            aria-describedby={described('timeZone')}
            onChange={(event) => set('timeZone', event.target.value)}
          />
          {zones.length > 0 && (
            <datalist id={`${id}-zones`}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          )}
          {fieldError('timeZone')}
        </div>
      </div>
      <label className="whale-check">
        <input type="checkbox" checked={draft.alertEnabled} onChange={(event) => set('alertEnabled', event.target.checked)} />
        <span>Alert me when this address moves funds (in the app, by push and by email, as set in your settings)</span>
      </label>
      <div className="whale-watch-form__actions">
        <button type="submit" className="button button--primary" disabled={status.state === 'saving'}>
          {status.state === 'saving' ? 'Saving…' : watch ? 'Save changes' : 'Watch address'}
        </button>
        {onCancel && (
          <button type="button" className="button button--ghost" onClick={onCancel} disabled={status.state === 'saving'}>
            Cancel
          </button>
        )}
      </div>
      {status.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          {status.message}
        </p>
      )}
    </form>
  );
}
