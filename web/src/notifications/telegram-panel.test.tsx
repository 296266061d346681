import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { accountsFake, type AccountsFake } from '../../test/accounts-api';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

let fake: AccountsFake;

const status = (over: Record<string, unknown> = {}) => ({ configured: true, botUsername: 'TickerbellBot', linked: false, chatUsername: null, linkedAt: null, ...over });

function start(channels: { email: boolean; telegram: boolean }) {
  fake = accountsFake();
  fake.replies.set('GET /api/notifications/channels', { status: 200, body: { email: { configured: channels.email }, telegram: { configured: channels.telegram } } });
  if (!channels.telegram) fake.replies.set('GET /api/notifications/telegram', { status: 200, body: status({ configured: false, botUsername: null }) });
  else fake.replies.set('GET /api/notifications/telegram', { status: 200, body: status() });
  installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace', email: 'ada@example.com' }), fake.handler);
  renderApp('/dashboard/settings');
}

const panel = async () => screen.findByRole('region', { name: 'Telegram' });

afterEach(removeFetch);

describe('settings: the Telegram panel and the email note', () => {
  it('says Telegram is not configured, and that email is not sent, when the server has neither', async () => {
    start({ email: false, telegram: false });
    const telegram = await panel();
    expect(await within(telegram).findByText(/Telegram is not configured on this server/)).toBeInTheDocument();
    expect(within(telegram).queryByRole('button')).toBeNull();

    const email = await screen.findByRole('switch', { name: 'Email notifications' });
    await waitFor(() => expect(email).toHaveAccessibleDescription('Email is not configured on this server: email notifications are not sent.'));
  });

  it('with a bot: gets a code with instructions, shows the linked chat once the bot has it, and unlinks', async () => {
    start({ email: true, telegram: true });
    const telegram = await panel();
    fake.replies.set('POST /api/notifications/telegram/code', {
      status: 201,
      body: { code: 'K7QMX4PRTW', expiresAt: '2026-11-23T14:45:00.000Z', botUsername: 'TickerbellBot', link: 'https://t.me/TickerbellBot?start=K7QMX4PRTW' },
    });
    fireEvent.click(await within(telegram).findByRole('button', { name: 'Get a link code' }));

    expect(await within(telegram).findByLabelText('Link code')).toHaveTextContent('K7QMX4PRTW');
    const [post] = fake.calls.filter((c) => c.method === 'POST' && c.path === '/api/notifications/telegram/code');
    expect(post.headers['x-csrf-token']).toBe('csrf-test');
    expect(within(telegram).getByRole('link', { name: 'Open in Telegram' })).toHaveAttribute('href', 'https://t.me/TickerbellBot?start=K7QMX4PRTW');
    expect(within(telegram).getByText('/start K7QMX4PRTW')).toBeInTheDocument();
    expect(within(telegram).getByText(/The code works once, until .* \(15 minutes\)/)).toBeInTheDocument();

    // The user sent it; the workers linked the chat.
    fake.replies.set('GET /api/notifications/telegram', { status: 200, body: status({ linked: true, chatUsername: 'ada_l', linkedAt: '2026-11-23T14:31:00.000Z' }) });
    fireEvent.click(within(telegram).getByRole('button', { name: 'Check again' }));
    expect(await within(telegram).findByText(/@ada_l, since/)).toBeInTheDocument();
    expect(within(telegram).queryByLabelText('Link code')).toBeNull();

    fake.replies.set('DELETE /api/notifications/telegram', { status: 200, body: status() });
    fireEvent.click(within(telegram).getByRole('button', { name: 'Unlink Telegram' }));
    expect(await within(telegram).findByRole('button', { name: 'Get a link code' })).toBeInTheDocument();
    expect(fake.calls.filter((c) => c.method === 'DELETE' && c.path === '/api/notifications/telegram')).toHaveLength(1);

    // Mail is configured here: no note on the email switch.
    expect(await screen.findByRole('switch', { name: 'Email notifications' })).not.toHaveAccessibleDescription();
  });

  it('shows why a code could not be made', async () => {
    start({ email: true, telegram: true });
    const telegram = await panel();
    fake.replies.set('POST /api/notifications/telegram/code', { status: 409, body: { error: { code: 'telegram_not_configured', message: 'Telegram is not configured on this server' } } });
    fireEvent.click(await within(telegram).findByRole('button', { name: 'Get a link code' }));
    expect(await within(telegram).findByRole('alert')).toHaveTextContent('Telegram is not configured on this server');
  });
});
