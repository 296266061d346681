import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { isSoundEnabled, setSoundEnabled } from '../notifications/notification-sound';
import { PushToggle } from '../notifications/push-toggle';
import { TelegramPanel } from '../notifications/telegram-panel';
import { ThemeChoiceControl } from '../theme/theme-choice';
import type { AccountUser } from './account-client';
import { PasswordForm, ProfileForm } from './account-forms';
import { DeleteAccount } from './delete-account';
import { PreferencesForm } from './preferences-form';
import { TeamsPanel } from './teams-panel';
import './settings.css';

export function SettingsPage() {
  const [sound, setSound] = useState(() => isSoundEnabled());
  const [account, setAccount] = useState<AccountUser | null>(null);
  const onAccountLoaded = useCallback((user: AccountUser) => setAccount(user), []);
  const onSoundChange = (enabled: boolean): void => {
    setSoundEnabled(enabled);
    setSound(enabled);
  };
  return (
    <>
      <title>Settings · Tickerbell</title>
      <h1>Settings</h1>
      <ProfileForm onLoaded={onAccountLoaded} />
      <PasswordForm hasPassword={account?.hasPassword ?? true} />
      <section className="dashboard-panel" aria-labelledby="appearance-title">
        <h2 id="appearance-title">Appearance</h2>
        <ThemeChoiceControl />
      </section>
      <section className="dashboard-panel" aria-labelledby="sound-title">
        <h2 id="sound-title">Notifications</h2>
        <label className="switch">
          <input type="checkbox" role="switch" checked={sound} onChange={(event) => onSoundChange(event.target.checked)} />
          Play sounds and spoken alerts
        </label>
        <p className="form-field__hint">Saved in this browser. With sound off, notifications still appear silently.</p>
        <PushToggle />
      </section>
      <PreferencesForm />
      <TelegramPanel />
      <TeamsPanel />
      <section className="dashboard-panel" aria-labelledby="billing-title">
        <h2 id="billing-title">Plan and billing</h2>
        <p>Your plan, its limits and what you use of them; for team owners, the subscription, seats and invoices.</p>
        <Link to="/dashboard/settings/billing" className="button button--secondary">
          Open billing
        </Link>
      </section>
      <DeleteAccount email={account?.email ?? null} />
    </>
  );
}
