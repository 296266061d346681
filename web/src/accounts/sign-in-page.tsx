import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AUTH_BASE_PATH, getCsrfToken, getProviders, messageOf, signInWithCredentials } from './auth-client';
import { useSession } from './session-provider';
import { emailProblem, safeCallbackPath, signInErrorMessage } from './session-rules';
import { FormField } from '../layout/form-field';

interface GoogleSignIn {
  csrfToken: string;
}

export function SignInPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { sessionChanged } = useSession();
  const callbackPath = safeCallbackPath(params.get('callbackUrl'), window.location.origin);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [error, setError] = useState<string | null>(() => signInErrorMessage(params.get('error')));
  const [busy, setBusy] = useState(false);
  const verified = params.get('verified') === '1';
  const [google, setGoogle] = useState<GoogleSignIn | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    // The Google button only appears when the api has Google sign-in configured.
    void getProviders(controller.signal)
      .then(async (providers) => {
        if (!providers.google) return;
        setGoogle({ csrfToken: await getCsrfToken(controller.signal) });
      })
      .catch((failure: unknown) => {
        if (!controller.signal.aborted) console.error('Could not load sign-in providers', failure);
      });
    return () => controller.abort();
  }, []);

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const errors = {
      ...(emailProblem(email) ? { email: emailProblem(email) ?? undefined } : {}),
      ...(password === '' ? { password: 'Enter your password.' } : {}),
    };
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const result = await signInWithCredentials({ email: email.trim(), password, callbackUrl: callbackPath });
      if (!result.ok) {
        setError(signInErrorMessage(result.error));
        return;
      }
      await sessionChanged();
      navigate(callbackPath, { replace: true });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container page narrow-page">
      <title>Sign In · Tickerbell</title>
      <header className="page-header">
        <h1>Sign in</h1>
        <p className="page-lede">Welcome back. Sign in to see your dashboard and alerts.</p>
      </header>
      {verified && !error && (
        <p className="form-message form-message--success" role="status">
          Your email is verified. Sign in to continue.
        </p>
      )}
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Sign in with email">
        <FormField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={fieldErrors.email} />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
        />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign In'}
        </button>
        <p className="form__aside">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      </form>
      {google && (
        // A real form post: the api answers with a redirect to Google.
        <form className="form form--provider" method="post" action={`${AUTH_BASE_PATH}/signin/google`}>
          <input type="hidden" name="csrfToken" value={google.csrfToken} />
          <input type="hidden" name="callbackUrl" value={callbackPath} />
          <button type="submit" className="button button--secondary button--block">
            Sign in with Google
          </button>
        </form>
      )}
      <p className="form__aside">
        New to Tickerbell? <Link to="/sign-up">Create an account</Link>
      </p>
    </div>
  );
}
