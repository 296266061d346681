import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { apiRequest } from '../api/client';
import { emailProblem } from '../accounts/session-rules';
import { messageOf } from '../accounts/auth-client';
import { FormField } from '../layout/form-field';

export const CONTACT_MESSAGE_MAX = 5000;

export interface ContactInput {
  name: string;
  email: string;
  message: string;
}

export type ContactErrors = Partial<Record<keyof ContactInput, string>>;

export function validateContact({ name, email, message }: ContactInput): ContactErrors {
  const errors: ContactErrors = {};
  if (name.trim() === '') errors.name = 'Enter your name.';
  else if (name.trim().length > 100) errors.name = 'Use at most 100 characters for your name.';
  const emailError = emailProblem(email);
  if (emailError) errors.email = emailError;
  if (message.trim().length < 10) errors.message = 'Write at least 10 characters so we can help.';
  else if (message.length > CONTACT_MESSAGE_MAX) errors.message = `Keep the message under ${CONTACT_MESSAGE_MAX} characters.`;
  return errors;
}

export function ContactPage() {
  const [values, setValues] = useState<ContactInput>({ name: '', email: '', message: '' });
  const [errors, setErrors] = useState<ContactErrors>({});
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState<string | null>(null);

  const update = (field: keyof ContactInput) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setState('sending');
    try {
      await apiRequest('/api/contact', {
        method: 'POST',
        body: { name: values.name.trim(), email: values.email.trim(), message: values.message.trim() },
        parse: () => undefined,
      });
      setState('sent');
    } catch (error) {
      setFailure(messageOf(error));
      setState('idle');
    }
  };

  return (
    <div className="container page narrow-page">
      <title>Contact · Tickerbell</title>
      <header className="page-header">
        <p className="eyebrow">Company</p>
        <h1>Contact us</h1>
        <p className="page-lede">
          Questions about Tickerbell, a plan, your data or a bug: write to us and we will answer by email.
        </p>
        <p>
          For a bug, tell us the page you were on, what you did and what you expected to happen. For a request about
          your personal data (a copy or deletion), send it from the email address of your account so we can match
          it. Before writing, the <Link to="/faq">FAQ</Link> and the <Link to="/help">help center</Link> may
          already have the answer, and the <Link to="/status">status page</Link> shows whether a service is down.
        </p>
      </header>
      {state === 'sent' ? (
        <div className="form-message form-message--success" role="status">
          <h2>Thanks, your message was sent.</h2>
          <p>We will reply to {values.email.trim()}.</p>
        </div>
      ) : (
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          {failure && (
            <p className="form-message form-message--error" role="alert">
              {failure}
            </p>
          )}
          <FormField label="Name" name="name" autoComplete="name" value={values.name} onChange={update('name')} error={errors.name} />
          <FormField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={update('email')}
            error={errors.email}
          />
          <FormField label="Message" name="message" multiline value={values.message} onChange={update('message')} error={errors.message} />
          <button type="submit" className="button button--primary" disabled={state === 'sending'}>
            {state === 'sending' ? 'Sending…' : 'Send message'}
          </button>
        </form>
      )}
    </div>
  );
}
