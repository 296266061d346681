// Settings → Profile and Password: each form saves through the accounts api and shows the api's
// field errors next to their fields, anything else above the form.
import { useEffect, useState, type FormEvent } from 'react';
import { FormField } from '../layout/form-field';
import { messageOf } from './auth-client';
import { PASSWORD_MIN_LENGTH } from './session-rules';
import { changePassword, fieldErrorsOf, getAccountUser, updateAccountUser, type AccountUser } from './account-client';

/** "is wrong" → "Current password is wrong"; whole sentences stay as they are. */
export function fieldMessage(label: string, message: string): string {
  return /^[a-z]/.test(message) ? `${label} ${message}` : message;
}

function FormStatus({ failure, success }: { failure: string | null; success: string | null }) {
  if (failure) {
    return (
      <p className="form-message form-message--error" role="alert">
        {failure}
      </p>
    );
  }
  if (success) {
    return (
      <p className="form-message form-message--success" role="status">
        {success}
      </p>
    );
  }
  return null;
}

export function ProfileForm({ onLoaded }: { onLoaded?: (user: AccountUser) => void }) {
  const [user, setUser] = useState<AccountUser | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    getAccountUser(controller.signal).then(
      (loaded) => {
        setUser(loaded);
        setName(loaded.name ?? '');
        setEmail(loaded.email);
        onLoaded?.(loaded);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure(messageOf(error));
      },
    );
    return () => controller.abort();
  }, [onLoaded]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (!user) return;
    setErrors({});
    setFailure(null);
    setSuccess(null);
    const changes: { name?: string | null; email?: string } = {};
    const trimmed = name.trim();
    if (trimmed !== (user.name ?? '')) changes.name = trimmed === '' ? null : trimmed;
    if (email.trim() !== user.email) changes.email = email.trim();
    if (Object.keys(changes).length === 0) {
      setSuccess('Nothing to save.');
      return;
    }
    setBusy(true);
    try {
      const updated = await updateAccountUser(changes);
      setUser(updated);
      setName(updated.name ?? '');
      setEmail(updated.email);
      setSuccess('Profile saved.');
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="dashboard-panel" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <FormStatus failure={failure} success={success} />
      {user?.pendingEmail && (
        <p className="form-message form-message--success" role="status">
          Check your inbox to confirm {user.pendingEmail}. Until then you sign in with {user.email}.
        </p>
      )}
      <form className="form" noValidate aria-label="Profile" onSubmit={(event) => void onSubmit(event)}>
        <FormField label="Name" name="name" autoComplete="name" value={name} onChange={setName} error={errors.name && fieldMessage('Name', errors.name)} />
        <FormField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email && fieldMessage('Email', errors.email)} />
        <button type="submit" className="button button--primary" disabled={busy || !user}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
      </form>
    </section>
  );
}

export function PasswordForm({ hasPassword = true }: { hasPassword?: boolean }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setErrors({});
    setFailure(null);
    setSuccess(null);
    setBusy(true);
    try {
      await changePassword(hasPassword ? { currentPassword, newPassword } : { newPassword });
      setCurrentPassword('');
      setNewPassword('');
      setSuccess('Password changed. Other devices will need to sign in again.');
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="dashboard-panel" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <FormStatus failure={failure} success={success} />
      <form className="form" noValidate aria-label="Change password" onSubmit={(event) => void onSubmit(event)}>
        {hasPassword && (
          <FormField
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={setCurrentPassword}
            error={errors.currentPassword && fieldMessage('Current password', errors.currentPassword)}
          />
        )}
        <FormField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={setNewPassword}
          error={errors.newPassword && fieldMessage('New password', errors.newPassword)}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
