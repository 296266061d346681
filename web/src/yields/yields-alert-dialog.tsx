// Creating or editing a yield alert on one pool: what to watch (APR above or below, an APR spike
// over its 30-day mean, a TVL drop within a window, volume/TVL above), the threshold in that
// kind's unit, the cooldown, and the copies by email and Telegram (offered only when the server
// has them, and Telegram once the user linked a chat in settings). The api validates; its field
// messages are shown beside the fields. The channels and the Telegram link are read with the
// notifications client (GET /api/notifications/channels and /telegram).
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import {
  YIELD_ALERT_KINDS,
  YIELD_TVL_DROP_WINDOW_DEFAULT_HOURS,
  type YieldAlertKind,
  type YieldAlertPatch,
  type YieldAlertView,
  type YieldSpikeUnit,
} from '@tickerbell/jobs/yields/shapes';
import { fieldErrorsOf } from '../accounts/account-client';
import { messageOf } from '../accounts/auth-client';
import { ModalDialog } from '../alerts/modal-dialog';
import { fetchNotificationChannels, fetchTelegramStatus } from '../notifications/notifications-client';
import { KIND_DEFINITIONS, KIND_LABELS, TELEGRAM_SETTINGS_PATH, createYieldAlert, formatPercent, formatVtr, updateYieldAlert } from './yields-client';
import '../alerts/alerts.css';
import './yields.css';

/** Cooldown choices, minutes. */
export const COOLDOWN_CHOICES: readonly { minutes: number; label: string }[] = [
  { minutes: 0, label: 'No cooldown' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 360, label: '6 hours' },
  { minutes: 720, label: '12 hours' },
  { minutes: 1440, label: '1 day' },
  { minutes: 4320, label: '3 days' },
  { minutes: 10080, label: '7 days' },
];
const DEFAULT_COOLDOWN = 360;

interface Draft {
  kind: YieldAlertKind;
  threshold: string;
  spikeUnit: YieldSpikeUnit;
  windowHours: string;
  cooldownMinutes: number;
  isActive: boolean;
  emailEnabled: boolean;
  telegramEnabled: boolean;
}

function draftOf(alert: YieldAlertView | null): Draft {
  return {
    kind: alert?.kind ?? 'apr_above',
    threshold: alert?.threshold ?? '',
    spikeUnit: alert?.spikeUnit ?? 'sigma',
    windowHours: String(alert?.windowHours ?? YIELD_TVL_DROP_WINDOW_DEFAULT_HOURS),
    cooldownMinutes: alert?.cooldownMinutes ?? DEFAULT_COOLDOWN,
    isActive: alert?.isActive ?? true,
    emailEnabled: alert?.emailEnabled ?? false,
    telegramEnabled: alert?.telegramEnabled ?? false,
  };
}

/** The pool's current figures, as hints beside the threshold. */
export interface PoolNow {
  apr: string | null;
  vtr: string | null;
  aprMean30d?: string | null;
}

function thresholdHelp(draft: Draft, now: PoolNow | undefined): { unit: string; hint: string } {
  switch (draft.kind) {
    case 'apr_above':
    case 'apr_below':
      return { unit: '%', hint: `Percent per year, e.g. 12.5.${now?.apr ? ` Now ${formatPercent(now.apr)}.` : ''}` };
    case 'apy_spike':
      return draft.spikeUnit === 'sigma'
        ? { unit: 'σ', hint: `Standard deviations of the APR over 30 days, e.g. 2.${now?.aprMean30d ? ` 30-day mean ${formatPercent(now.aprMean30d)}.` : ''}` }
        : { unit: '%', hint: `Percent above the APR’s 30-day mean, e.g. 50.${now?.aprMean30d ? ` 30-day mean ${formatPercent(now.aprMean30d)}.` : ''}` };
    case 'tvl_drop':
      return { unit: '%', hint: 'Percent fall from the highest TVL within the window, e.g. 20.' };
    case 'vtr_above':
      return { unit: '×', hint: `Daily volume divided by TVL, e.g. 0.5.${now?.vtr ? ` Now ${formatVtr(now.vtr)}.` : ''}` };
  }
}

type Channels = { state: 'loading' } | { state: 'ready'; email: boolean; telegram: boolean; linked: boolean } | { state: 'failed' };

function Field({ label, error, hint, children, unit }: { label: string; error?: string; hint?: string; unit?: string; children: (props: { id: string; className: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="form-field yield-dialog__field">
      <label htmlFor={id} className="form-field__label">
        {label}
      </label>
      <div className={unit ? 'yield-unit-input' : undefined}>
        {children({ id, className: 'form-field__input', 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
        {unit && (
          <span className="yield-unit-input__unit" aria-hidden="true">
            {unit}
          </span>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="form-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

interface YieldAlertDialogProps {
  pool: { id: number; symbol: string; chain: string; dex: string };
  /** The alert being edited; null for a new one. */
  alert: YieldAlertView | null;
  now?: PoolNow;
  onSaved: (alert: YieldAlertView, created: boolean) => void;
  onClose: () => void;
  returnFocus?: RefObject<HTMLElement | null>;
}

const FIELDS = ['alertType', 'condition', 'threshold', 'spikeUnit', 'windowHours', 'cooldownMinutes', 'isActive', 'emailEnabled', 'telegramEnabled', 'poolId'] as const;

export function YieldAlertDialog({ pool, alert, now, onSaved, onClose, returnFocus }: YieldAlertDialogProps) {
  const titleId = useId();
  const kindRef = useRef<HTMLSelectElement>(null);
  const [draft, setDraft] = useState<Draft>(() => draftOf(alert));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ state: 'idle' | 'saving' } | { state: 'failed'; message: string }>({ state: 'idle' });
  const [channels, setChannels] = useState<Channels>({ state: 'loading' });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([fetchNotificationChannels(controller.signal), fetchTelegramStatus(controller.signal)])
      .then(([configured, telegram]) => setChannels({ state: 'ready', email: configured.email.configured, telegram: telegram.configured, linked: telegram.linked }))
      .catch(() => {
        if (!controller.signal.aborted) setChannels({ state: 'failed' });
      });
    return () => controller.abort();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const threshold = draft.threshold.trim().replace(/[%×σ,\s]/g, '');
    if (threshold === '') {
      setErrors({ threshold: 'Enter a threshold.' });
      setStatus({ state: 'failed', message: 'Check the field marked below.' });
      return;
    }
    const { alertType, condition } = KIND_DEFINITIONS[draft.kind];
    const fields: YieldAlertPatch = {
      alertType,
      condition,
      threshold,
      cooldownMinutes: draft.cooldownMinutes,
      isActive: draft.isActive,
      emailEnabled: draft.emailEnabled,
      telegramEnabled: draft.telegramEnabled,
    };
    if (alertType === 'apy_spike') fields.spikeUnit = draft.spikeUnit;
    if (alertType === 'tvl_drop') {
      const hours = Number(draft.windowHours.trim());
      if (!/^\d{1,4}$/.test(draft.windowHours.trim())) {
        setErrors({ windowHours: 'Enter whole hours, from 1 to 720.' });
        setStatus({ state: 'failed', message: 'Check the field marked below.' });
        return;
      }
      fields.windowHours = hours;
    }
    setStatus({ state: 'saving' });
    setErrors({});
    (alert ? updateYieldAlert(alert.id, fields) : createYieldAlert({ ...fields, alertType, threshold, poolId: pool.id }))
      .then((saved) => {
        setStatus({ state: 'idle' });
        onSaved(saved, alert === null);
      })
      .catch((error: unknown) => {
        const found = fieldErrorsOf(error);
        // The kind's select stands for both the type and the condition.
        if (found.condition && !found.alertType) found.alertType = found.condition;
        setErrors(found);
        const named = FIELDS.filter((field) => found[field] && field !== 'condition');
        setStatus({
          state: 'failed',
          message: named.length ? `Check the ${named.length === 1 ? 'field' : 'fields'} marked below.` : messageOf(error),
        });
      });
  };

  const help = thresholdHelp(draft, now);
  const ready = channels.state === 'ready' ? channels : null;
  const emailOff = ready ? !ready.email : true;
  const telegramOff = ready ? !ready.telegram || !ready.linked : true;
  const emailNote =
    channels.state === 'loading'
      ? 'Checking whether email is set up…'
      : channels.state === 'failed'
        ? 'Could not check whether email is set up.'
        : !ready?.email
          ? 'Email is not set up on this server, so no copy would be sent.'
          : 'A copy to your account’s address.';
  const telegramNote: ReactNode =
    channels.state === 'loading' ? (
      'Checking your Telegram link…'
    ) : channels.state === 'failed' ? (
      'Could not check your Telegram link.'
    ) : !ready?.telegram ? (
      'Telegram is not set up on this server.'
    ) : !ready.linked ? (
      <>
        Link your Telegram chat in <Link to={TELEGRAM_SETTINGS_PATH}>Settings</Link> first.
      </>
    ) : (
      'A message to your linked Telegram chat.'
    );
  const fieldError = (field: string) => errors[field];

  return (
    <ModalDialog titleId={titleId} onClose={onClose} initialFocus={kindRef} returnFocus={returnFocus} className="yield-dialog">
      <form className="form" aria-labelledby={titleId} noValidate onSubmit={submit}>
        <div className="alert-dialog__header">
          <h2 id={titleId}>{alert ? 'Edit yield alert' : 'New yield alert'}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <p className="yield-dialog__pool">
          <strong>{pool.symbol}</strong> · {pool.dex} · {pool.chain}
        </p>
        {status.state === 'failed' && (
          <p className="form-message form-message--error" role="alert">
            {status.message}
            {errors.poolId && <> {errors.poolId}</>}
          </p>
        )}

        <Field label="Alert me when" error={fieldError('alertType')}>
          {(props) => (
            <select {...props} ref={kindRef} value={draft.kind} onChange={(event) => set('kind', event.target.value as YieldAlertKind)}>
              {YIELD_ALERT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {KIND_LABELS[kind]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="yield-dialog__row">
          <Field label="Threshold" unit={help.unit} hint={help.hint} error={fieldError('threshold')}>
            {(props) => <input {...props} inputMode="decimal" autoComplete="off" value={draft.threshold} onChange={(event) => set('threshold', event.target.value)} />}
          </Field>
          {draft.kind === 'apy_spike' && (
            <Field label="Measured in" error={fieldError('spikeUnit')}>
              {(props) => (
                <select {...props} value={draft.spikeUnit} onChange={(event) => set('spikeUnit', event.target.value as YieldSpikeUnit)}>
                  <option value="sigma">Standard deviations (σ)</option>
                  <option value="percent">Percent above the mean</option>
                </select>
              )}
            </Field>
          )}
          {draft.kind === 'tvl_drop' && (
            <Field label="Within" unit="h" hint="Hours, 1 to 720." error={fieldError('windowHours')}>
              {(props) => <input {...props} inputMode="numeric" value={draft.windowHours} onChange={(event) => set('windowHours', event.target.value)} />}
            </Field>
          )}
        </div>
        <Field label="Cooldown" hint="After it fires, the alert waits this long, and re-arms only once the value has moved back past the threshold." error={fieldError('cooldownMinutes')}>
          {(props) => (
            <select {...props} value={draft.cooldownMinutes} onChange={(event) => set('cooldownMinutes', Number(event.target.value))}>
              {COOLDOWN_CHOICES.some((choice) => choice.minutes === draft.cooldownMinutes) ? null : <option value={draft.cooldownMinutes}>{draft.cooldownMinutes} minutes</option>}
              {COOLDOWN_CHOICES.map((choice) => (
                <option key={choice.minutes} value={choice.minutes}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </Field>

        <fieldset className="alert-fieldset yield-dialog__channels">
          <legend>Where it reaches you</legend>
          <p className="form-field__hint">In the app and by push notification, always.</p>
          <label className="yield-check">
            <input type="checkbox" checked={draft.emailEnabled} disabled={emailOff && !draft.emailEnabled} onChange={(event) => set('emailEnabled', event.target.checked)} />
            <span>
              Email
              <span className="yield-check__note">{emailNote}</span>
              {errors.emailEnabled && <span className="form-field__error">{errors.emailEnabled}</span>}
            </span>
          </label>
          <label className="yield-check">
            <input type="checkbox" checked={draft.telegramEnabled} disabled={telegramOff && !draft.telegramEnabled} onChange={(event) => set('telegramEnabled', event.target.checked)} />
            <span>
              Telegram
              <span className="yield-check__note">{telegramNote}</span>
              {errors.telegramEnabled && <span className="form-field__error">{errors.telegramEnabled}</span>}
            </span>
          </label>
        </fieldset>
        <label className="yield-check">
          <input type="checkbox" checked={draft.isActive} onChange={(event) => set('isActive', event.target.checked)} />
          <span>Active (untick to pause it without deleting it)</span>
        </label>

        <div className="toolbar alert-dialog__actions yield-dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose} disabled={status.state === 'saving'}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={status.state === 'saving'}>
            {status.state === 'saving' ? 'Saving…' : alert ? 'Save changes' : 'Create alert'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
