import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { accountsFake, apiError, type AccountsFake } from '../../test/accounts-api';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

let fake: AccountsFake;

function start(path: string, teamRole = 'owner') {
  fake = accountsFake(teamRole);
  installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace', email: 'ada@example.com' }), fake.handler);
  return renderApp(path);
}

const sent = (method: string, path: string) => fake.calls.filter((call) => call.method === method && call.path === path);

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('profile form', () => {
  it('saves the name and a new email with the csrf header and says to confirm the new address', async () => {
    start('/dashboard/settings');
    const form = await screen.findByRole('form', { name: 'Profile' });
    await waitFor(() => expect(within(form).getByLabelText('Email')).toHaveValue('ada@example.com'));

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Ada King' } });
    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'ada@new.example' } });
    fake.replies.set('PATCH /api/user', (call) => ({
      status: 200,
      body: { ...(call.body as object), id: 7, email: 'ada@example.com', pendingEmail: 'ada@new.example', image: null, role: 'member', isVerified: true, hasPassword: true, googleLinked: false, createdAt: '2026-01-02T03:04:05.000Z' },
    }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByText(/Check your inbox to confirm ada@new\.example/)).toBeInTheDocument();
    const [patch] = sent('PATCH', '/api/user');
    expect(patch.body).toEqual({ name: 'Ada King', email: 'ada@new.example' });
    expect(patch.headers['x-csrf-token']).toBe('csrf-test');
    expect(within(form).getByLabelText('Name')).toHaveValue('Ada King');
  });

  it('shows a field error from the api next to its field, and a refusal without fields above the form', async () => {
    start('/dashboard/settings');
    const form = await screen.findByRole('form', { name: 'Profile' });
    await waitFor(() => expect(within(form).getByLabelText('Email')).toHaveValue('ada@example.com'));

    fake.replies.set('PATCH /api/user', apiError(400, 'validation_failed', 'Invalid input: email', [{ field: 'email', message: 'Invalid email address' }]));
    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(within(form).getByLabelText('Email')).toHaveAccessibleDescription('Invalid email address'));

    fake.replies.set('PATCH /api/user', apiError(409, 'email_taken', 'An account with this email already exists'));
    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'taken@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();
  });
});

describe('password form', () => {
  it('sends the current and new password with the csrf header and confirms', async () => {
    start('/dashboard/settings');
    const form = await screen.findByRole('form', { name: 'Change password' });
    expect(within(form).getByText('At least 8 characters.')).toBeInTheDocument();

    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'old-secret-1' } });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'new-secret-2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText(/Password changed/)).toBeInTheDocument();
    const [post] = sent('POST', '/api/user/password');
    expect(post.body).toEqual({ currentPassword: 'old-secret-1', newPassword: 'new-secret-2' });
    expect(post.headers['x-csrf-token']).toBe('csrf-test');
    expect(within(form).getByLabelText('New password')).toHaveValue('');
  });

  it('shows the wrong current password and the policy problem at their fields', async () => {
    start('/dashboard/settings');
    const form = await screen.findByRole('form', { name: 'Change password' });

    fake.replies.set('POST /api/user/password', apiError(400, 'wrong_password', 'The current password is wrong', [{ field: 'currentPassword', message: 'is wrong' }]));
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('Current password is wrong')).toBeInTheDocument();

    fake.replies.set(
      'POST /api/user/password',
      apiError(400, 'bad_request', 'Invalid input: newPassword', [{ field: 'newPassword', code: 'too_short', message: 'Password must be at least 8 characters' }]),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(within(form).queryByText('Current password is wrong')).not.toBeInTheDocument();
  });
});

describe('notification preferences', () => {
  it('shows the seven flags and PUTs only the flipped one', async () => {
    start('/dashboard/settings');
    const section = (await screen.findByRole('heading', { name: 'Notification preferences' })).closest('section') as HTMLElement;
    const close = await within(section).findByRole('switch', { name: 'Market close' });
    expect(within(section).getAllByRole('switch')).toHaveLength(7);
    expect(close).toBeChecked();
    expect(within(section).getByRole('switch', { name: 'Email notifications' })).not.toBeChecked();

    fireEvent.click(close);

    await waitFor(() => expect(sent('PUT', '/api/user/preferences')).toHaveLength(1));
    const [put] = sent('PUT', '/api/user/preferences');
    expect(put.body).toEqual({ marketCloseNotifications: false });
    expect(put.headers['x-csrf-token']).toBe('csrf-test');
    await waitFor(() => expect(within(section).getByRole('switch', { name: 'Market close' })).not.toBeChecked());
  });

  it('keeps the flag and shows the message when saving fails', async () => {
    start('/dashboard/settings');
    const section = (await screen.findByRole('heading', { name: 'Notification preferences' })).closest('section') as HTMLElement;
    const email = await within(section).findByRole('switch', { name: 'Email notifications' });
    fake.replies.set('PUT /api/user/preferences', apiError(403, 'csrf_invalid', 'The CSRF token is missing or wrong: fetch one from GET /api/auth/csrf'));

    fireEvent.click(email);

    expect(await within(section).findByRole('alert')).toHaveTextContent('The CSRF token is missing or wrong');
    expect(within(section).getByRole('switch', { name: 'Email notifications' })).not.toBeChecked();
  });
});

describe('teams', () => {
  it('lets an owner invite, revoke a pending invitation, change a role and remove a member', async () => {
    start('/dashboard/settings', 'owner');
    const team = await screen.findByRole('article', { name: /Desk A/ });
    expect(await within(team).findByText('Charles Babbage')).toBeInTheDocument();
    expect(await within(team).findByRole('button', { name: 'Revoke invitation to grace@example.com' })).toBeInTheDocument();
    expect(within(team).queryByText(/old@example\.com/)).not.toBeInTheDocument();

    fireEvent.change(within(team).getByLabelText('Email to invite'), { target: { value: 'linus@example.com' } });
    fireEvent.change(within(team).getByLabelText('Invite as'), { target: { value: 'admin' } });
    fireEvent.click(within(team).getByRole('button', { name: 'Send invitation' }));
    expect(await within(team).findByText('Invitation sent to linus@example.com.')).toBeInTheDocument();
    expect(sent('POST', '/api/teams/1/invitations')[0]).toMatchObject({ body: { email: 'linus@example.com', role: 'admin' }, headers: { 'x-csrf-token': 'csrf-test' } });

    fireEvent.click(within(team).getByRole('button', { name: 'Revoke invitation to grace@example.com' }));
    expect(await within(team).findByText('Invitation to grace@example.com revoked.')).toBeInTheDocument();
    expect(sent('DELETE', '/api/teams/1/invitations/31')).toHaveLength(1);

    fireEvent.change(within(team).getByLabelText('Role of Charles Babbage'), { target: { value: 'admin' } });
    expect(await within(team).findByText('Charles Babbage is now Admin.')).toBeInTheDocument();
    expect(sent('PATCH', '/api/teams/1/members/8')[0].body).toEqual({ role: 'admin' });

    fireEvent.click(within(team).getByRole('button', { name: 'Remove Charles Babbage' }));
    expect(await within(team).findByText('Charles Babbage was removed.')).toBeInTheDocument();
    expect(sent('DELETE', '/api/teams/1/members/8')).toHaveLength(1);
  });

  it('shows the api refusal when a change is forbidden', async () => {
    start('/dashboard/settings', 'admin');
    const team = await screen.findByRole('article', { name: /Desk A/ });
    await within(team).findByText('Charles Babbage');
    expect(within(team).queryByRole('button', { name: 'Remove Ada Lovelace' })).not.toBeInTheDocument();
    expect(within(team).getByRole('button', { name: 'Remove Charles Babbage' })).toBeInTheDocument();
    fake.replies.set('DELETE /api/teams/1/members/8', apiError(403, 'forbidden', 'Your role cannot remove this member'));

    fireEvent.click(within(team).getByRole('button', { name: 'Remove Charles Babbage' }));

    expect(await within(team).findByRole('alert')).toHaveTextContent('Your role cannot remove this member');
  });

  it('hides every management control from a plain member and does not ask for invitations', async () => {
    start('/dashboard/settings', 'member');
    const team = await screen.findByRole('article', { name: /Desk A/ });
    expect(await within(team).findByText('Charles Babbage')).toBeInTheDocument();

    expect(within(team).queryByRole('button')).not.toBeInTheDocument();
    expect(within(team).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(team).queryByLabelText('Email to invite')).not.toBeInTheDocument();
    expect(sent('GET', '/api/teams/1/invitations')).toHaveLength(0);
  });

  it('creates a team and shows it with the creator as owner', async () => {
    start('/dashboard/settings', 'member');
    await screen.findByRole('article', { name: /Desk A/ });
    const form = screen.getByRole('form', { name: 'Create a team' });

    fireEvent.change(within(form).getByLabelText('New team name'), { target: { value: 'Desk B' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create team' }));

    const created = await screen.findByRole('article', { name: 'Desk B (Owner)' });
    expect(await within(created).findByLabelText('Email to invite')).toBeInTheDocument();
    expect(sent('POST', '/api/teams')[0]).toMatchObject({ body: { name: 'Desk B' }, headers: { 'x-csrf-token': 'csrf-test' } });
  });
});

describe('team activity', () => {
  it('shows the log newest first under the notification history and pages through it', async () => {
    start('/dashboard/activity');
    fake.activityTotal = 45;
    const section = (await screen.findByRole('heading', { name: 'Team log' })).closest('section') as HTMLElement;
    const log = await within(section).findByRole('list', { name: 'Team activity log' });
    const first = within(log).getAllByRole('listitem');
    expect(first).toHaveLength(20);
    expect(first[0]).toHaveTextContent('person45@example.com');
    expect(within(section).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Newer' })).toBeDisabled();
    expect(screen.getByRole('heading', { level: 1, name: 'Activity' }).compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.click(within(section).getByRole('button', { name: 'Older' }));
    await within(section).findByText('Page 2 of 3');
    fireEvent.click(within(section).getByRole('button', { name: 'Older' }));
    await within(section).findByText('Page 3 of 3');

    const last = within(within(section).getByRole('list', { name: 'Team activity log' })).getAllByRole('listitem');
    expect(last).toHaveLength(5);
    expect(last[0]).toHaveTextContent('person5@example.com');
    expect(within(section).getByRole('button', { name: 'Older' })).toBeDisabled();
    expect(fake.calls.filter((call) => call.path === '/api/teams/1/activity')).toHaveLength(3);
  });

  it('shows a failure to load the log', async () => {
    start('/dashboard/activity');
    fake.replies.set('GET /api/teams/1/activity', apiError(404, 'not_found', 'Team not found'));
    const section = (await screen.findByRole('heading', { name: 'Team log' })).closest('section') as HTMLElement;
    expect(await within(section).findByRole('alert')).toHaveTextContent('Team not found');
  });
});

describe('delete account', () => {
  it('deletes only once the email is typed, then leaves the dashboard', async () => {
    const router = start('/dashboard/settings');
    const open = await screen.findByRole('button', { name: 'Delete my account…' });
    await waitFor(() => expect(open).toBeEnabled());
    fireEvent.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete account permanently' });
    expect(confirm).toBeDisabled();

    fireEvent.change(within(dialog).getByLabelText('Type ada@example.com to confirm'), { target: { value: 'ada@example.co' } });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('Type ada@example.com to confirm'), { target: { value: 'ADA@example.com' } });
    fireEvent.click(confirm);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const [del] = sent('DELETE', '/api/user');
    expect(del.headers['x-csrf-token']).toBe('csrf-test');
  });

  it('shows the refusal of the last owner of a shared team', async () => {
    start('/dashboard/settings');
    const open = await screen.findByRole('button', { name: 'Delete my account…' });
    await waitFor(() => expect(open).toBeEnabled());
    fake.replies.set('DELETE /api/user', apiError(409, 'last_owner', 'You are the last owner of a team with other members: make someone else owner first', { teamId: 1 }));
    fireEvent.click(open);
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Type ada@example.com to confirm'), { target: { value: 'ada@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete account permanently' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You are the last owner');
  });
});
