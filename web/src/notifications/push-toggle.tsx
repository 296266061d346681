import { useEffect, useState } from 'react';
import { messageOf } from '../accounts/auth-client';
import { PushPermissionDenied, browserPushEnvironment, disablePush, enablePush, isPushSubscribed, type PushEnvironment } from '../pwa/web-push';

export interface PushToggleProps {
  /** Injected for tests; null (push unsupported) hides the toggle. */
  environment?: PushEnvironment | null;
}

type PushState = 'checking' | 'on' | 'off' | 'working';

/** "Push notifications on this device": subscribes this browser to web push through the api. */
export function PushToggle({ environment }: PushToggleProps) {
  const [env] = useState<PushEnvironment | null>(() => (environment === undefined ? browserPushEnvironment() : environment));
  const [state, setState] = useState<PushState>('checking');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!env) return;
    let active = true;
    isPushSubscribed(env)
      .then((subscribed) => active && setState(subscribed ? 'on' : 'off'))
      .catch((failure: unknown) => {
        console.error('Could not read the push subscription', failure);
        if (active) setState('off');
      });
    return () => {
      active = false;
    };
  }, [env]);

  if (!env) return null;

  const onChange = async (enabled: boolean): Promise<void> => {
    const previous = state;
    setState('working');
    setError(null);
    try {
      await (enabled ? enablePush(env) : disablePush(env));
      setState(enabled ? 'on' : 'off');
    } catch (failure) {
      if (!(failure instanceof PushPermissionDenied)) console.error('Changing push notifications failed', failure);
      setError(failure instanceof PushPermissionDenied ? failure.message : messageOf(failure));
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
