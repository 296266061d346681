// Create or edit an alert: market, condition with its parameters, trigger frequency, expiry,
// delivery channels and the spoken message. Checked here first, then by the api, whose field
// errors appear next to the fields.
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../api/client';
import { isSoundEnabled, SPEECH_MIN_WINDOW_WIDTH } from '../notifications/notification-sound';
import { SymbolSearch } from '../prices/symbol-search';
import { messageOf } from '../accounts/auth-client';
import { LabelledControl } from '../layout/form-field';
import { TRIGGER_FREQUENCIES, type TriggerFrequency } from '@tickerbell/jobs/alerts/shapes';
import { CANDLE_INTERVALS, type CandleInterval } from '@tickerbell/jobs/prices/shapes';
import {
  CANDLE_INTERVAL_LABELS,
  CONDITION_GROUPS,
  CONDITION_LABELS,
  FREQUENCY_LABELS,
  familyOf,
  isConditionType,
  isTechnicalType,
  type ConditionFamily,
} from './alert-conditions';
import {
  FAMILY_FIELDS,
  initialForm,
  serverFieldErrors,
  validateAlertForm,
  withConditionType,
  withMarket,
  type AlertFormState,
  type FieldErrors,
  type ParamField,
} from './alert-form';
import { testVoice } from './alert-speech';
import { createAlert, updateAlert, type Alert } from './alerts-client';
import { ModalDialog } from './modal-dialog';
import { useSpeechVoices } from './use-speech-voices';

export const PLAN_LIMIT_CODE = 'plan_limit';

function Checkbox({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }) {
  return (
    <label className="choice-group__option">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} /> {label}
      {hint && <span className="choice-group__hint"> {hint}</span>}
    </label>
  );
}

function paramLabel(field: ParamField, family: ConditionFamily): string {
  switch (field) {
    case 'value':
      return 'Price level';
    case 'low':
      return 'Channel low';
    case 'high':
      return 'Channel high';
    case 'amount':
      return 'Amount';
    case 'percent':
      return family === 'gap' ? 'Gap above (%)' : 'Percent';
    case 'minutes':
      return 'Within (minutes)';
    case 'level':
      return family === 'vol_level' ? 'Volatility above (%)' : family === 'atr' ? 'ATR above' : family === 'bb_squeeze' ? 'Band width below' : 'RSI level';
    case 'period':
      if (family === 'rsi') return 'RSI period';
      if (family === 'vol_level' || family === 'vol_spike') return 'Volatility bars';
      if (family === 'atr') return 'ATR period';
      if (family === 'bb_squeeze' || family === 'bb_breakout') return 'Band period';
      return 'Average period';
    case 'ma':
      return 'Average';
    case 'fast':
      return 'Fast period';
    case 'slow':
      return 'Slow period';
    case 'signal':
      return 'Signal period';
    case 'direction':
      return 'Direction';
    case 'factor':
      return family === 'vol_spike' ? 'Times its average' : 'Times its earlier width';
    case 'longPeriod':
      return 'Average over (bars)';
    case 'unit':
      return 'ATR in';
    case 'lookback':
      return 'Bars earlier';
    case 'scope':
      return 'Which news';
    case 'keywords':
      return 'Keywords';
    case 'digest':
      return 'Notify';
  }
}

const PARAM_HINTS: Partial<Record<ParamField, string>> = {
  minutes: '1 to 1440.',
  level: 'Above 0 and below 100.',
  percent: 'e.g. 2.5 for 2.5 %.',
};

/** Hints of the volatility families, where a field means something else than in the others. */
const FAMILY_HINTS: Partial<Record<ConditionFamily, Partial<Record<ParamField, string>>>> = {
  vol_level: { level: 'Annualised, in percent (e.g. 60).' },
  vol_spike: { factor: 'Above 1, e.g. 2 for twice the average.' },
  atr: { level: 'In price units, or percent of the close.' },
  bb_squeeze: { level: '(upper - lower) / middle, e.g. 0.05.' },
  bb_breakout: { factor: 'Above 1: width now vs. its value then.' },
  gap: { percent: "The session's first bar's open against the previous session's close, e.g. 2." },
  news: { keywords: 'Comma-separated, up to 10; whole words in the headline or summary, any case.' },
};

function paramHint(field: ParamField, family: ConditionFamily): string | undefined {
  return FAMILY_HINTS[family]?.[field] ?? (family === 'rsi' || field !== 'level' ? PARAM_HINTS[field] : undefined);
}

const DECIMAL_FIELDS: ReadonlySet<ParamField> = new Set(['value', 'low', 'high', 'amount', 'percent', 'level', 'factor']);

/** Server field keys the form shows next to a field; others go to the message at the top. */
const SHOWN_FIELDS = new Set(['name', 'symbol', 'interval', 'frequency', 'cooldownSeconds', 'expiresAt', 'webhookUrl', 'audioMessage', 'audioVoiceId', 'notifyPush', 'notifyEmail', 'useAudio']);

function isShownField(key: string, state: AlertFormState): boolean {
  // The condition picker shows what is wrong with the type (an opening gap on a market without sessions).
  if (key === 'condition.type') return true;
  if (key.startsWith('condition.')) return (FAMILY_FIELDS[familyOf(state.type)] as readonly string[]).includes(key.slice('condition.'.length));
  return SHOWN_FIELDS.has(key);
}

type Failure = { kind: 'plan'; message: string } | { kind: 'error'; message: string };

export interface AlertDialogProps {
  /** The alert to edit; null to create one. */
  alert: Alert | null;
  /** Shown at the top (after a create that produced a webhook secret, say). */
  notice?: string;
  onClose: () => void;
  onSaved: (alert: Alert, created: boolean) => void;
  /** Focused again when the dialog closes. */
  returnFocus?: RefObject<HTMLElement | null>;
}

export function AlertDialog({ alert, notice, onClose, onSaved, returnFocus }: AlertDialogProps) {
  const titleId = useId();
  const [form, setForm] = useState<AlertFormState>(() => initialForm(alert ?? undefined));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [voiceStatus, setVoiceStatus] = useState<string | null>(null);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const [focusInvalid, setFocusInvalid] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const { supported: speechSupported, voices } = useSpeechVoices();

  useEffect(() => {
    if (focusInvalid === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusInvalid]);

  const update = (patch: Partial<AlertFormState>): void => setForm((current) => ({ ...current, ...patch }));
  const setParam = (field: ParamField, value: string): void => setForm((current) => ({ ...current, params: { ...current.params, [field]: value } }));
  const family = familyOf(form.type);
  const editing = alert !== null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setFailure(null);
    const result = validateAlertForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      setFocusInvalid((n) => n + 1);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const saved = alert ? await updateAlert(alert.id, result.input) : await createAlert(result.input);
      setBusy(false);
      onSaved(saved, alert === null);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status === 403 && error.code === PLAN_LIMIT_CODE) {
        setFailure({ kind: 'plan', message: error.message });
        return;
      }
      if (error instanceof ApiError && error.status === 400) {
        const { fields, other } = serverFieldErrors(error.details);
        const shown: FieldErrors = {};
        for (const [key, message] of Object.entries(fields)) {
          if (message === undefined) continue;
          if (isShownField(key, form)) shown[key] = message;
          else other.push(`${key}: ${message}`);
        }
        setErrors(shown);
        if (Object.keys(shown).length > 0) setFocusInvalid((n) => n + 1);
        setFailure({ kind: 'error', message: other.length > 0 ? `${error.message} ${other.join(' ')}` : 'Please correct the fields marked below.' });
        return;
      }
      setFailure({ kind: 'error', message: messageOf(error) });
    }
  };

  const spokenPreview = form.audioMessage.trim() || `${form.name.trim() || 'Your'} Alert Triggered`;
  const onTestVoice = (): void => {
    const result = testVoice(spokenPreview, form.audioVoiceId || null);
    setVoiceStatus(result.ok ? `Speaking: “${spokenPreview}”` : result.message);
  };

  const secret = alert?.webhookSecret ?? null;
  const onCopySecret = async (): Promise<void> => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopyStatus('Copied.');
    } catch {
      setCopyStatus('Could not copy: select the secret and copy it by hand.');
    }
  };

  const knownVoice = form.audioVoiceId === '' || voices.some((voice) => voice.voiceURI === form.audioVoiceId || voice.name === form.audioVoiceId);
  const speechWontPlay = !isSoundEnabled() || window.innerWidth <= SPEECH_MIN_WINDOW_WIDTH;

  return (
    <ModalDialog titleId={titleId} onClose={onClose} initialFocus={nameRef} returnFocus={returnFocus} className="alert-dialog">
      <form ref={formRef} className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <div className="alert-dialog__header">
          <h2 id={titleId}>{editing ? `Edit alert “${alert.name}”` : 'New alert'}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        {notice && (
          <p className="form-message form-message--success" role="status">
            {notice}
          </p>
        )}
        {failure && (
          <div className="form-message form-message--error" role="alert">
            {failure.message}
            {failure.kind === 'plan' && (
              <>
                {' '}
                <Link to="/pricing">Compare plans</Link> or deactivate another alert.
              </>
            )}
          </div>
        )}

        <LabelledControl label="Name" error={errors.name}>
          {(props) => <input {...props} ref={nameRef} name="name" maxLength={100} value={form.name} onChange={(event) => update({ name: event.target.value })} />}
        </LabelledControl>
        <SymbolSearch
          label="Symbol"
          name="symbol"
          className="alert-symbol"
          placeholder=""
          value={{ symbol: form.symbol, marketType: form.marketType }}
          error={errors.symbol}
          onSelect={(market) => setForm((current) => withMarket(current, market.symbol, market.type || null))}
          // Typing a symbol by hand keeps it (the api says whether it exists); the type is unknown until picked.
          onType={(text) => setForm((current) => withMarket(current, text.trim().toUpperCase(), null))}
        />

        <fieldset className="alert-fieldset">
          <legend>Condition</legend>
          <LabelledControl label="Condition type" error={errors['condition.type']}>
            {(props) => (
              <select
                {...props}
                name="conditionType"
                value={form.type}
                onChange={(event) => {
                  const type = event.target.value;
                  if (isConditionType(type)) setForm((current) => withConditionType(current, type));
                }}
              >
                {CONDITION_GROUPS.map((group) => (
                  <optgroup key={group.label} label={group.label}>
                    {group.types.map((type) => (
                      <option key={type} value={type}>
                        {CONDITION_LABELS[type]}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            )}
          </LabelledControl>
          <div className="alert-params">
            {FAMILY_FIELDS[family].filter((field) => field !== 'keywords' || form.params.scope === 'keywords').map((field) => (
              <LabelledControl key={`${family}-${field}`} label={paramLabel(field, family)} error={errors[`condition.${field}`]} hint={paramHint(field, family)}>
                {(props) =>
                  field === 'ma' ? (
                    <select {...props} value={form.params.ma} onChange={(event) => setParam('ma', event.target.value)}>
                      <option value="sma">Simple (SMA)</option>
                      <option value="ema">Exponential (EMA)</option>
                    </select>
                  ) : field === 'unit' ? (
                    <select {...props} value={form.params.unit} onChange={(event) => setParam('unit', event.target.value)}>
                      <option value="price">Price units</option>
                      <option value="percent">% of the close</option>
                    </select>
                  ) : field === 'scope' ? (
                    <select {...props} value={form.params.scope} onChange={(event) => setParam('scope', event.target.value)}>
                      <option value="any">Any news or filing</option>
                      <option value="filings">SEC filings only</option>
                      <option value="keywords">Headlines with keywords</option>
                    </select>
                  ) : field === 'digest' ? (
                    <select {...props} value={form.params.digest} onChange={(event) => setParam('digest', event.target.value)}>
                      <option value="false">For each item</option>
                      <option value="true">Hourly digest</option>
                    </select>
                  ) : field === 'keywords' ? (
                    <input {...props} name={field} value={form.params.keywords} onChange={(event) => setParam('keywords', event.target.value)} />
                  ) : field === 'direction' ? (
                    <select {...props} value={form.params.direction} onChange={(event) => setParam('direction', event.target.value)}>
                      <option value="any">Either way</option>
                      <option value="up">Up</option>
                      <option value="down">Down</option>
                    </select>
                  ) : (
                    <input {...props} name={field} inputMode={DECIMAL_FIELDS.has(field) ? 'decimal' : 'numeric'} value={form.params[field]} onChange={(event) => setParam(field, event.target.value)} />
                  )
                }
              </LabelledControl>
            ))}
            {isTechnicalType(form.type) && (
              <LabelledControl label="Bar interval" error={errors.interval} hint="Evaluated when a bar of this length closes.">
                {(props) => (
                  <select {...props} value={form.interval} onChange={(event) => update({ interval: event.target.value as CandleInterval })}>
                    {CANDLE_INTERVALS.map((interval) => (
                      <option key={interval} value={interval}>
                        {CANDLE_INTERVAL_LABELS[interval]}
                      </option>
                    ))}
                  </select>
                )}
              </LabelledControl>
            )}
          </div>
        </fieldset>

        <fieldset className="alert-fieldset">
          <legend>Trigger</legend>
          <div className="choice-group__options" role="radiogroup" aria-label="Frequency">
            {TRIGGER_FREQUENCIES.map((frequency: TriggerFrequency) => (
              <label key={frequency} className="choice-group__option">
                <input
                  type="radio"
                  name="frequency"
                  value={frequency}
                  checked={form.frequency === frequency}
                  onChange={() => update({ frequency, frequencyChosen: true })}
                  // A click on the already checked default is a choice too (no change event for it).
                  onClick={() => update({ frequency, frequencyChosen: true })}
                /> {FREQUENCY_LABELS[frequency]}
              </label>
            ))}
          </div>
          <p className="form-field__hint">
            {form.frequency === 'once' && 'Fires the first time, then the alert turns inactive.'}
            {form.frequency === 'once_per_day' && 'At most once per UTC day; stays active.'}
            {form.frequency === 'every_time' && 'Every time the condition is met, but not again within the cooldown.'}
          </p>
          {errors.frequency && <p className="form-field__error">{errors.frequency}</p>}
          {form.frequency === 'every_time' && (
            <LabelledControl label="Cooldown (seconds)" error={errors.cooldownSeconds} hint="0 to 86400 (a day).">
              {(props) => <input {...props} name="cooldownSeconds" inputMode="numeric" value={form.cooldownSeconds} onChange={(event) => update({ cooldownSeconds: event.target.value })} />}
            </LabelledControl>
          )}
          <Checkbox label="Expires" checked={form.expires} onChange={(expires) => update({ expires })} />
          {form.expires && (
            <LabelledControl label="Expires at" error={errors.expiresAt} hint="Your local time. An expired alert never fires again.">
              {(props) => <input {...props} type="datetime-local" name="expiresAt" value={form.expiresAt} onChange={(event) => update({ expiresAt: event.target.value })} />}
            </LabelledControl>
          )}
        </fieldset>

        <fieldset className="alert-fieldset">
          <legend>Delivery</legend>
          <p className="form-field__hint">Every firing appears in the app and on the live stream.</p>
          <Checkbox label="Push notification" checked={form.notifyPush} onChange={(notifyPush) => update({ notifyPush })} />
          <Checkbox label="Email" checked={form.notifyEmail} onChange={(notifyEmail) => update({ notifyEmail })} />
          <Checkbox label="Webhook" checked={form.webhook} onChange={(webhook) => update({ webhook })} />
          {form.webhook && (
            <>
              <LabelledControl label="Webhook URL" error={errors.webhookUrl} hint="Receives a JSON POST signed with HMAC-SHA256 of the body under the secret.">
                {(props) => <input {...props} type="url" name="webhookUrl" value={form.webhookUrl} onChange={(event) => update({ webhookUrl: event.target.value })} />}
              </LabelledControl>
              {secret ? (
                <LabelledControl label="Signing secret" hint={copyStatus ?? 'Verify each request with it.'}>
                  {(props) => (
                    <span className="alert-secret">
                      <input {...props} readOnly value={secret} onFocus={(event) => event.target.select()} />
                      <button type="button" className="button button--secondary button--small" onClick={() => void onCopySecret()}>
                        Copy secret
                      </button>
                    </span>
                  )}
                </LabelledControl>
              ) : (
                <p className="form-field__hint">A signing secret is created when you save; it is shown here.</p>
              )}
            </>
          )}
        </fieldset>

        <fieldset className="alert-fieldset">
          <legend>Spoken alert</legend>
          <Checkbox label="Speak this alert aloud" checked={form.useAudio} onChange={(useAudio) => update({ useAudio })} />
          {form.useAudio && (
            <>
              <LabelledControl label="Message to speak" error={errors.audioMessage} hint={`Empty: “${form.name.trim() || '{name}'} Alert Triggered” is spoken.`}>
                {(props) => <input {...props} name="audioMessage" maxLength={500} value={form.audioMessage} onChange={(event) => update({ audioMessage: event.target.value })} />}
              </LabelledControl>
              {speechSupported ? (
                <LabelledControl label="Voice" error={errors.audioVoiceId}>
                  {(props) => (
                    <select {...props} value={form.audioVoiceId} onChange={(event) => update({ audioVoiceId: event.target.value })}>
                      <option value="">Browser default</option>
                      {!knownVoice && <option value={form.audioVoiceId}>{form.audioVoiceId} (not on this device)</option>}
                      {voices.map((voice) => (
                        <option key={voice.voiceURI} value={voice.voiceURI}>
                          {voice.name} ({voice.lang})
                        </option>
                      ))}
                    </select>
                  )}
                </LabelledControl>
              ) : null}
              <div className="toolbar">
                <button type="button" className="button button--secondary" onClick={onTestVoice}>
                  Test voice
                </button>
              </div>
              <p className="form-field__hint" role="status">
                {voiceStatus ?? (speechSupported ? '' : 'This browser has no speech synthesis: spoken alerts will not play here.')}
              </p>
              {speechWontPlay && (
                <p className="form-field__hint">
                  Alerts are spoken only on windows wider than {SPEECH_MIN_WINDOW_WIDTH} px with notification sound on (Settings).
                </p>
              )}
            </>
          )}
        </fieldset>

        <div className="toolbar alert-dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving…' : editing ? 'Save alert' : 'Create alert'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
