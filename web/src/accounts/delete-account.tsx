// Settings → Delete account: a confirmation dialog that asks for the account's email typed out.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { messageOf } from './auth-client';
import { useSession } from './session-provider';
import { deleteAccount } from './account-client';

export function DeleteAccount({ email }: { email: string | null }) {
  const { sessionChanged } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  const close = (): void => {
    setOpen(false);
    setTyped('');
    setFailure(null);
  };

  const matches = email !== null && typed.trim().toLowerCase() === email.toLowerCase();

  const onConfirm = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (!matches) return;
    setBusy(true);
    setFailure(null);
    try {
      await deleteAccount();
      await sessionChanged();
      await navigate('/');
    } catch (error) {
      setFailure(messageOf(error));
      setBusy(false);
    }
  };

  return (
    <section className="dashboard-panel" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete account</h2>
      <p>Deleting your account signs you out everywhere and removes you from your teams. A team you own alone goes with you.</p>
      <button type="button" className="button button--danger" disabled={email === null} onClick={() => setOpen(true)}>
        Delete my account…
      </button>
      {open && email !== null && (
        <div
          className="confirm-dialog"
          role="dialog"
          aria-modal="true"
          aria-labelledby="delete-dialog-title"
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
        >
          <form className="form" onSubmit={(event) => void onConfirm(event)}>
            <h3 id="delete-dialog-title">Delete your account?</h3>
            {failure && (
              <p className="form-message form-message--error" role="alert">
                {failure}
              </p>
            )}
            <label className="form-field">
              <span className="form-field__label">Type {email} to confirm</span>
              <input ref={inputRef} className="form-field__input" type="email" autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
            </label>
            <div className="toolbar">
              <button type="button" className="button button--secondary" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="button button--danger" disabled={!matches || busy}>
                {busy ? 'Deleting…' : 'Delete account permanently'}
              </button>
            </div>
          </form>
        </div>
      )}
    </section>
  );
}
