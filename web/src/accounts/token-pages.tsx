import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { messageOf, postAccountAction, verifyEmailUrl } from './auth-client';
import { PASSWORD_MIN_LENGTH, emailProblem, passwordProblem } from './session-rules';
import { FormField } from '../layout/form-field';

type Outcome = { state: 'idle' | 'busy' } | { state: 'done' } | { state: 'failed'; message: string };

function Outcome({ outcome }: { outcome: Outcome }) {
  if (outcome.state === 'failed') {
    return (
      <p className="form-message form-message--error" role="alert">
        {outcome.message}
      </p>
    );
  }
  return null;
}

export interface VerifyEmailPageProps {
  /** Full-page navigation; injected for tests. */
  navigate?: (url: string) => void;
}

/**
 * /verify-email?token=: hands the token to the api's verification link, which checks it and
 * redirects to /sign-in?verified=1 (or ?error=Verification).
 */
export function VerifyEmailPage({ navigate = (url) => window.location.assign(url) }: VerifyEmailPageProps) {
  const [params] = useSearchParams();
  const token = params.get('token');
  const started = useRef(false);

  useEffect(() => {
    // One navigation per visit even when React runs effects twice in development.
    if (!token || started.current) return;
    started.current = true;
    navigate(verifyEmailUrl(token));
  }, [token, navigate]);

  return (
    <div className="container page narrow-page">
      <title>Verify email · Tickerbell</title>
      <h1>Verify your email</h1>
      {token ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Verifying your email…{' '}
          <a href={verifyEmailUrl(token)}>Continue</a>
        </p>
      ) : (
        <p className="form-message form-message--error" role="alert">
          This verification link is incomplete. Open the link from the email again, or sign up again to get a new one.
        </p>
      )}
    </div>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const problem = emailProblem(email);
    setError(problem ?? undefined);
    if (problem) return;
    setOutcome({ state: 'busy' });
    try {
      await postAccountAction('forgotPassword', { email: email.trim() });
      setOutcome({ state: 'done' });
    } catch (failure) {
      setOutcome({ state: 'failed', message: messageOf(failure) });
    }
  };

  return (
    <div className="container page narrow-page">
      <title>Reset password · Tickerbell</title>
      <h1>Reset your password</h1>
      {outcome.state === 'done' ? (
        <div className="form-message form-message--success" role="status">
          <p>If an account uses {email.trim()}, we have sent it a link to choose a new password.</p>
        </div>
      ) : (
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Request a reset link">
          <p>Enter the email you signed up with and we will send you a link to choose a new password.</p>
          <Outcome outcome={outcome} />
          <FormField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={error} />
          <button type="submit" className="button button--primary button--block" disabled={outcome.state === 'busy'}>
            Send reset link
          </button>
        </form>
      )}
    </div>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const problem = passwordProblem(password);
    setError(problem ?? undefined);
    if (problem || !token) return;
    setOutcome({ state: 'busy' });
    try {
      await postAccountAction('resetPassword', { token, password });
      setOutcome({ state: 'done' });
    } catch (failure) {
      setOutcome({ state: 'failed', message: messageOf(failure) });
    }
  };

  return (
    <div className="container page narrow-page">
      <title>Choose a new password · Tickerbell</title>
      <h1>Choose a new password</h1>
      {!token ? (
        <p className="form-message form-message--error" role="alert">
          This reset link is incomplete. <Link to="/forgot-password">Request a new link</Link>.
        </p>
      ) : outcome.state === 'done' ? (
        <div className="form-message form-message--success" role="status">
          <p>Your password has been changed.</p>
          <Link to="/sign-in" className="button button--primary">
            Sign In
          </Link>
        </div>
      ) : (
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Set new password">
          <Outcome outcome={outcome} />
          <FormField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={error}
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          />
          <button type="submit" className="button button--primary button--block" disabled={outcome.state === 'busy'}>
            Save new password
          </button>
        </form>
      )}
    </div>
  );
}
