// Settings → Notification preferences: the account's seven flags, each saved with PUT as it flips.
// The email switch says when this server does not send mail (no SMTP).
import { useEffect, useState } from 'react';
import { messageOf } from './auth-client';
import { PREFERENCE_FLAGS, type PreferenceFlag, type Preferences } from '@tickerbell/jobs/accounts/shapes';
import { fetchNotificationChannels } from '../notifications/notifications-client';
import { getPreferences, savePreferences } from './account-client';

const EMAIL_OFF_HINT = 'email-not-configured';

export const PREFERENCE_LABELS: Record<PreferenceFlag, string> = {
  marketOpenNotifications: 'Market open',
  marketCloseNotifications: 'Market close',
  marketOpeningSoonNotifications: 'Market opening soon',
  marketClosingSoonNotifications: 'Market closing soon',
  soundNotifications: 'Sound on notifications (all devices)',
  emailNotifications: 'Email notifications',
  pushNotifications: 'Push notifications (all devices)',
};

export function PreferencesForm() {
  const [preferences, setPreferences] = useState<Preferences | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState<PreferenceFlag | null>(null);
  // null until known (or when the server could not say): no note then.
  const [emailConfigured, setEmailConfigured] = useState<boolean | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getPreferences(controller.signal).then(setPreferences, (error: unknown) => {
      if (!controller.signal.aborted) setFailure(messageOf(error));
    });
    fetchNotificationChannels(controller.signal).then(
      (channels) => setEmailConfigured(channels.email.configured),
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  const onToggle = async (flag: PreferenceFlag, value: boolean): Promise<void> => {
    setFailure(null);
    setSaving(flag);
    try {
      setPreferences(await savePreferences({ [flag]: value }));
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setSaving(null);
    }
  };

  return (
    <section className="dashboard-panel" aria-labelledby="preferences-title">
      <h2 id="preferences-title">Notification preferences</h2>
      <p className="form-field__hint">Saved to your account: which market events notify you, and how.</p>
      {failure && (
        <p className="form-message form-message--error" role="alert">
          {failure}
        </p>
      )}
      {preferences && (
        <div className="preference-list">
          {PREFERENCE_FLAGS.map((flag) => (
            <label key={flag} className="switch">
              <input
                type="checkbox"
                role="switch"
                checked={preferences[flag]}
                disabled={saving !== null}
                onChange={(event) => void onToggle(flag, event.target.checked)}
                aria-describedby={flag === 'emailNotifications' && emailConfigured === false ? EMAIL_OFF_HINT : undefined}
              />
              {PREFERENCE_LABELS[flag]}
            </label>
          ))}
        </div>
      )}
      {preferences && emailConfigured === false && (
        <p id={EMAIL_OFF_HINT} className="form-field__hint">
          Email is not configured on this server: email notifications are not sent.
        </p>
      )}
    </section>
  );
}
