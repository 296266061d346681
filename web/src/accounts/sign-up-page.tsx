import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { messageOf, signUpRequest } from './auth-client';
import { PASSWORD_MIN_LENGTH, emailProblem, passwordProblem } from './session-rules';
import { FormField } from '../layout/form-field';

interface SignUpErrors {
  name?: string;
  email?: string;
  password?: string;
}

export function validateSignUp(name: string, email: string, password: string): SignUpErrors {
  const errors: SignUpErrors = {};
  if (name.trim() === '') errors.name = 'Enter your name.';
  else if (name.trim().length > 100) errors.name = 'Use at most 100 characters for your name.';
  const emailError = emailProblem(email);
  if (emailError) errors.email = emailError;
  const passwordError = passwordProblem(password, email);
  if (passwordError) errors.password = passwordError;
  return errors;
}

export function SignUpPage() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<SignUpErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const found = validateSignUp(name, email, password);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await signUpRequest({ name: name.trim(), email: email.trim(), password });
      setDone(true);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <div className="container page narrow-page">
        <title>Check your email · Tickerbell</title>
        <div className="form-message form-message--success" role="status">
          <h1>Check your email</h1>
          <p>
            We sent a verification link to {email.trim()}. Open it to activate your account, then{' '}
            <Link to="/sign-in">sign in</Link>.
          </p>
        </div>
      </div>
    );
  }

  return (
    <div className="container page narrow-page">
      <title>Sign Up · Tickerbell</title>
      <header className="page-header">
        <h1>Create your account</h1>
        <p className="page-lede">Free to start. Follow your first exchanges in a few minutes.</p>
      </header>
      {failure && (
        <p className="form-message form-message--error" role="alert">
          {failure}
        </p>
      )}
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Create account">
        <FormField label="Name" name="name" autoComplete="name" value={name} onChange={setName} error={errors.name} />
        <FormField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Creating account…' : 'Create Account'}
        </button>
      </form>
      <p className="form__aside">
        Already have an account? <Link to="/sign-in">Sign In</Link>
      </p>
    </div>
  );
}
