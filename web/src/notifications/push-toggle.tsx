import { useEffect, useState } from 'react';
import { ApiError, CLIENT_ERROR_CODES } from '../api/client';
import { messageOf } from '../accounts/auth-client';
import { PushError, browserPushEnvironment, disablePush, enablePush, isPushSubscribed, pushUnsupportedReason, type PushEnvironment } from '../pwa/web-push';

export interface PushToggleProps {
  /** Injected for tests; null: this browser cannot do web push (the toggle says why, switched off). */
  environment?: PushEnvironment | null;
  /** Why push is unsupported, with `environment: null` (tests); the real browser is asked otherwise. */
  unsupportedReason?: string;
}

type PushState = 'checking' | 'on' | 'off' | 'working';

/**
 * What to tell the user when turning push on or off failed: the browser's reason (blocked,
 * no service worker, the push service), the api's refusal, or that it could not be reached.
 */
export function pushFailureMessage(failure: unknown, enabling: boolean): string {
  if (failure instanceof PushError) return failure.message;
  if (failure instanceof ApiError) {
    if (failure.code === CLIENT_ERROR_CODES.network || failure.code === CLIENT_ERROR_CODES.timeout) return messageOf(failure);
    return `Tickerbell’s server refused to ${enabling ? 'store' : 'remove'} this device’s subscription: ${failure.message}`;
  }
  const detail = failure instanceof Error && failure.message ? failure.message : String(failure);
  return `The browser could not ${enabling ? 'turn on' : 'turn off'} push notifications: ${detail}`;
}

/** "Push notifications on this device": subscribes this browser to web push through the api. */
export function PushToggle({ environment, unsupportedReason }: PushToggleProps) {
  const [env] = useState<PushEnvironment | null>(() => (environment === undefined ? browserPushEnvironment() : environment));
  const [state, setState] = useState<PushState>('checking');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!env) return;
    let active = true;
    isPushSubscribed(env)
      .then((subscribed) => active && setState(subscribed ? 'on' : 'off'))
      .catch((failure: unknown) => {
        if (!active) return;
        setState('off');
        setError(pushFailureMessage(failure, true));
      });
    return () => {
      active = false;
    };
  }, [env]);

  if (!env) {
    return (
      <div className="push-toggle">
        <label className="switch">
          <input type="checkbox" role="switch" checked={false} disabled aria-describedby="push-unsupported" />
          Push notifications on this device
        </label>
        <p id="push-unsupported" className="form-field__hint">
          {unsupportedReason ?? pushUnsupportedReason() ?? 'This browser cannot receive push notifications.'} Alerts still arrive in the app and by email.
        </p>
      </div>
    );
  }

  const onChange = async (enabled: boolean): Promise<void> => {
    const previous = state;
    setState('working');
    setError(null);
    try {
      await (enabled ? enablePush(env) : disablePush(env));
      setState(enabled ? 'on' : 'off');
    } catch (failure) {
      setError(pushFailureMessage(failure, enabled));
      setState(previous);
    }
  };

  return (
    <div className="push-toggle">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={state === 'on'}
          disabled={state === 'checking' || state === 'working'}
          onChange={(event) => void onChange(event.target.checked)}
        />
        Push notifications on this device
      </label>
      <p className="form-field__hint">Market alerts reach this browser even when Tickerbell is closed.</p>
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
