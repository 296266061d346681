// A fake of the accounts api's own-account and teams routes, with bodies shaped as
// api/src/accounts/user.routes.ts and teams.routes.ts answer them. Tests tweak `replies` to make a
// call fail, and read `calls` to see what the client sent.
import type { AccountUserBody, Preferences } from '@tickerbell/jobs/accounts/shapes';
import type { FakeHandler, FakeReply } from './fake-fetch';

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export function apiError(status: number, code: string, message: string, details?: unknown): FakeReply {
  return { status, body: { error: { code, message, ...(details === undefined ? {} : { details }), requestId: 'req-1' } } };
}

export function accountUserBody(overrides: Record<string, unknown> = {}): AccountUserBody {
  return {
    id: 7,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    image: null,
    role: 'member',
    isVerified: true,
    pendingEmail: null,
    hasPassword: true,
    googleLinked: false,
    createdAt: '2026-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export function preferencesBody(overrides: Partial<Preferences> = {}): Preferences {
  return {
    marketOpenNotifications: true,
    marketCloseNotifications: true,
    marketOpeningSoonNotifications: true,
    marketClosingSoonNotifications: true,
    soundNotifications: true,
    emailNotifications: false,
    pushNotifications: false,
    ...overrides,
  };
}

export function membersBody() {
  return {
    members: [
      { userId: 7, role: 'owner', joinedAt: '2026-01-02T03:04:05.000Z', name: 'Ada Lovelace', email: 'ada@example.com', image: null },
      { userId: 8, role: 'member', joinedAt: '2026-01-03T03:04:05.000Z', name: 'Charles Babbage', email: 'charles@example.com', image: null },
    ],
  };
}

export function invitationBody(id: number, email: string, role = 'member', status = 'pending') {
  return { id, teamId: 1, email, role, status, invitedBy: 7, invitedAt: '2026-01-04T03:04:05.000Z' };
}

export function activityItems(total: number, page: number, pageSize: number) {
  const start = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - start));
  return {
    page,
    pageSize,
    total,
    items: Array.from({ length: count }, (_, i) => {
      const n = total - start - i;
      return { id: n, action: n % 2 === 0 ? 'INVITE_TEAM_MEMBER' : 'SIGN_IN', userId: 7, timestamp: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(), ipAddress: '127.0.0.1', details: { email: `person${n}@example.com` } };
    }),
  };
}

export interface AccountsFake {
  handler: FakeHandler;
  calls: RecordedCall[];
  /** Override the reply to `METHOD /path` (path without query). */
  replies: Map<string, FakeReply | ((call: RecordedCall) => FakeReply)>;
  teamRole: string;
  activityTotal: number;
}

export function accountsFake(teamRole = 'owner'): AccountsFake {
  const fake: AccountsFake = { calls: [], replies: new Map(), teamRole, activityTotal: 3, handler: () => ({ status: 500 }) };
  fake.handler = (url, init) => {
    const method = init?.method ?? 'GET';
    const [path, query = ''] = url.split('?');
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: RecordedCall = { method, path, body, headers: { ...(init?.headers as Record<string, string> | undefined) } };
    fake.calls.push(call);
    const override = fake.replies.get(`${method} ${path}`);
    if (override) return typeof override === 'function' ? override(call) : override;
    switch (`${method} ${path}`) {
      case 'GET /api/user':
        return { status: 200, body: accountUserBody() };
      case 'PATCH /api/user':
        return { status: 200, body: accountUserBody(call.body as Record<string, unknown>) };
      case 'POST /api/user/password':
        return { status: 200, body: { ok: true } };
      case 'DELETE /api/user':
        return { status: 204 };
      case 'GET /api/user/preferences':
        return { status: 200, body: preferencesBody() };
      case 'PUT /api/user/preferences':
        return { status: 200, body: preferencesBody(call.body as Record<string, boolean>) };
      // The settings screen's channel notes and Telegram panel: a server with SMTP and without a bot.
      case 'GET /api/notifications/channels':
        return { status: 200, body: { email: { configured: true }, telegram: { configured: false } } };
      case 'GET /api/notifications/telegram':
        return { status: 200, body: { configured: false, botUsername: null, linked: false, chatUsername: null, linkedAt: null } };
      case 'GET /api/teams':
        return { status: 200, body: { teams: [{ id: 1, name: 'Desk A', role: fake.teamRole, planName: null, subscriptionStatus: null }] } };
      case 'POST /api/teams':
        return { status: 201, body: { id: 2, name: (call.body as { name: string }).name, role: 'owner' } };
      case 'GET /api/teams/2/members':
        return { status: 200, body: { members: [membersBody().members[0]] } };
      case 'GET /api/teams/2/invitations':
        return { status: 200, body: { invitations: [] } };
      case 'GET /api/teams/1/members':
        return { status: 200, body: membersBody() };
      case 'GET /api/teams/1/invitations':
        return fake.teamRole === 'member'
          ? apiError(403, 'forbidden', 'Only owners and admins see invitations')
          : { status: 200, body: { invitations: [invitationBody(31, 'grace@example.com'), invitationBody(30, 'old@example.com', 'member', 'revoked')] } };
      case 'POST /api/teams/1/invitations': {
        const { email, role } = call.body as { email: string; role: string };
        return { status: 201, body: invitationBody(32, email, role) };
      }
      case 'GET /api/teams/1/activity': {
        const params = new URLSearchParams(query);
        return { status: 200, body: activityItems(fake.activityTotal, Number(params.get('page') ?? 1), Number(params.get('pageSize') ?? 20)) };
      }
      default:
        if (method === 'PATCH' && path.startsWith('/api/teams/1/members/')) {
          return { status: 200, body: { teamId: 1, userId: Number(path.split('/').pop()), role: (call.body as { role: string }).role } };
        }
        if (method === 'DELETE' && (path.startsWith('/api/teams/1/members/') || path.startsWith('/api/teams/1/invitations/'))) return { status: 204 };
        return apiError(404, 'not_found', `No route for ${method} ${path}`);
    }
  };
  return fake;
}
