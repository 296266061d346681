import { fireEvent, screen, waitFor } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('contact page', () => {
  async function openContact() {
    renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });
  }

  function fill(name: string, email: string, message: string): void {
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: message } });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
  }

  it('checks every field before sending', async () => {
    const fetchMock = installFakeApi(null);
    await openContact();

    fill('', 'not-an-email', 'short');

    expect(screen.getByText('Enter your name.')).toBeInTheDocument();
    expect(screen.getByText(/valid email address/)).toBeInTheDocument();
    expect(screen.getByText(/at least 10 characters/)).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalledWith('/api/contact', expect.anything());
  });

  it('posts the message as JSON to /api/contact and confirms', async () => {
    const fetchMock = installFakeApi(null, (path) => (path === '/api/contact' ? { status: 201, body: { ok: true } } : { status: 404 }));
    await openContact();

    fill('Ada Lovelace', 'ada@example.com', 'Please add the Tokyo lunch break to alerts.');

    expect(await screen.findByRole('heading', { name: 'Thanks, your message was sent.' })).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([path]) => path === '/api/contact');
    expect(call?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Please add the Tokyo lunch break to alerts.',
    });
  });

  it("shows the api's error message when sending fails", async () => {
    installFakeApi(null, (path) =>
      path === '/api/contact' ? { status: 429, body: { error: { code: 'rate_limited', message: 'Too many messages: try again in an hour' } } } : { status: 404 },
    );
    await openContact();

    fill('Ada Lovelace', 'ada@example.com', 'Please add the Tokyo lunch break to alerts.');

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many messages: try again in an hour'));
  });
});
