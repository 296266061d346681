// Calls to the accounts api's own-account, preferences and teams routes (api/src/accounts/
// user.routes.ts and teams.routes.ts). Every state-changing call sends the session's csrf token
// as x-csrf-token, fetched through the one auth client helper.
import { ApiError, apiRequest, isRecord, type BodyParser } from '../api/client';
import { PREFERENCE_FLAGS, type AccountUserBody, type Preferences, type PreferencesRequest } from '@tickerbell/jobs/accounts/shapes';
import { sendWithCsrf } from './auth-client';

export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The own account (the api's AccountUserBody), as the settings forms use it. */
export type AccountUser = Pick<AccountUserBody, 'id' | 'name' | 'email' | 'pendingEmail' | 'isVerified' | 'hasPassword'>;

export interface TeamSummary {
  id: number;
  name: string;
  role: TeamRole;
}

export interface TeamMemberRow {
  userId: number;
  role: TeamRole;
  joinedAt: string;
  name: string | null;
  email: string;
}

export interface InvitationRow {
  id: number;
  email: string;
  role: TeamRole;
  status: string;
  invitedAt: string;
}

export interface ActivityItem {
  id: number;
  action: string;
  userId: number | null;
  timestamp: string;
  details: unknown;
}

export interface ActivityPage {
  page: number;
  pageSize: number;
  total: number;
  items: ActivityItem[];
}

function fail(what: string): never {
  throw new TypeError(`accounts: unexpected ${what}`);
}

const str = (value: unknown, what: string): string => (typeof value === 'string' ? value : fail(what));
const num = (value: unknown, what: string): number => (typeof value === 'number' ? value : fail(what));
const nullableStr = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const role = (value: unknown): TeamRole => (TEAM_ROLES.includes(value as TeamRole) ? (value as TeamRole) : fail('role'));
const record = (value: unknown, what: string): Record<string, unknown> => (isRecord(value) ? value : fail(what));
const list = (value: unknown, what: string): unknown[] => (Array.isArray(value) ? value : fail(what));

export function parseAccountUser(body: unknown): AccountUser {
  const b = record(body, 'user');
  return {
    id: num(b.id, 'user id'),
    name: nullableStr(b.name),
    email: str(b.email, 'user email'),
    pendingEmail: nullableStr(b.pendingEmail),
    isVerified: b.isVerified === true,
    hasPassword: b.hasPassword !== false,
  };
}

export function parsePreferences(body: unknown): Preferences {
  const b = record(body, 'preferences');
  return Object.fromEntries(
    PREFERENCE_FLAGS.map((flag) => [flag, typeof b[flag] === 'boolean' ? b[flag] : fail(flag)]),
  ) as Preferences;
}

export function parseTeams(body: unknown): TeamSummary[] {
  return list(record(body, 'teams').teams, 'teams').map((row) => {
    const r = record(row, 'team');
    return { id: num(r.id, 'team id'), name: str(r.name, 'team name'), role: role(r.role) };
  });
}

export function parseMembers(body: unknown): TeamMemberRow[] {
  return list(record(body, 'members').members, 'members').map((row) => {
    const r = record(row, 'member');
    return { userId: num(r.userId, 'member id'), role: role(r.role), joinedAt: str(r.joinedAt, 'joinedAt'), name: nullableStr(r.name), email: str(r.email, 'member email') };
  });
}

function parseInvitation(row: unknown): InvitationRow {
  const r = record(row, 'invitation');
  return { id: num(r.id, 'invitation id'), email: str(r.email, 'invitation email'), role: role(r.role), status: str(r.status, 'status'), invitedAt: str(r.invitedAt, 'invitedAt') };
}

export function parseInvitations(body: unknown): InvitationRow[] {
  return list(record(body, 'invitations').invitations, 'invitations').map(parseInvitation);
}

export function parseActivityPage(body: unknown): ActivityPage {
  const b = record(body, 'activity');
  return {
    page: num(b.page, 'page'),
    pageSize: num(b.pageSize, 'pageSize'),
    total: num(b.total, 'total'),
    items: list(b.items, 'items').map((row) => {
      const r = record(row, 'activity item');
      return { id: num(r.id, 'item id'), action: str(r.action, 'action'), userId: typeof r.userId === 'number' ? r.userId : null, timestamp: str(r.timestamp, 'timestamp'), details: r.details };
    }),
  };
}

const none: BodyParser<void> = () => undefined;

async function mutate<T>(path: string, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', parse: BodyParser<T>, body?: unknown): Promise<T> {
  return sendWithCsrf(path, { method, body, parse });
}

export const getAccountUser = (signal?: AbortSignal) => apiRequest('/api/user', { signal, parse: parseAccountUser });
export const updateAccountUser = (changes: { name?: string | null; email?: string }) => mutate('/api/user', 'PATCH', parseAccountUser, changes);
export const changePassword = (input: { currentPassword?: string; newPassword: string }) => mutate('/api/user/password', 'POST', none, input);
export const deleteAccount = () => mutate('/api/user', 'DELETE', none);
export const getPreferences = (signal?: AbortSignal) => apiRequest('/api/user/preferences', { signal, parse: parsePreferences });
export const savePreferences = (changes: PreferencesRequest) => mutate('/api/user/preferences', 'PUT', parsePreferences, changes);
export const getTeams = (signal?: AbortSignal) => apiRequest('/api/teams', { signal, parse: parseTeams });
export const createTeam = (name: string) =>
  mutate('/api/teams', 'POST', (body: unknown): TeamSummary => {
    const r = record(body, 'team');
    return { id: num(r.id, 'team id'), name: str(r.name, 'team name'), role: role(r.role) };
  }, { name });
export const getMembers = (teamId: number, signal?: AbortSignal) => apiRequest(`/api/teams/${teamId}/members`, { signal, parse: parseMembers });
export const changeMemberRole = (teamId: number, userId: number, newRole: TeamRole) =>
  mutate(`/api/teams/${teamId}/members/${userId}`, 'PATCH', none, { role: newRole });
export const removeMember = (teamId: number, userId: number) => mutate(`/api/teams/${teamId}/members/${userId}`, 'DELETE', none);
export const getInvitations = (teamId: number, signal?: AbortSignal) => apiRequest(`/api/teams/${teamId}/invitations`, { signal, parse: parseInvitations });
export const inviteMember = (teamId: number, email: string, inviteRole: TeamRole) =>
  mutate(`/api/teams/${teamId}/invitations`, 'POST', parseInvitation, { email, role: inviteRole });
export const revokeInvitation = (teamId: number, invitationId: number) => mutate(`/api/teams/${teamId}/invitations/${invitationId}`, 'DELETE', none);
export const getTeamActivity = (teamId: number, page: number, pageSize: number, signal?: AbortSignal) =>
  apiRequest(`/api/teams/${teamId}/activity?${new URLSearchParams({ page: String(page), pageSize: String(pageSize) }).toString()}`, { signal, parse: parseActivityPage });

/** The api's field errors (`details: [{ field, message }]`) keyed by field; the first message per field. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return errors;
  for (const detail of error.details) {
    if (!isRecord(detail) || typeof detail.field !== 'string' || typeof detail.message !== 'string') continue;
    errors[detail.field] ??= detail.message;
  }
  return errors;
}

export function canManage(teamRole: TeamRole): boolean {
  return teamRole === 'owner' || teamRole === 'admin';
}

const RANK: Record<TeamRole, number> = { member: 0, admin: 1, owner: 2 };

/** The roles an actor may grant, and whether they may act on a member: the api's rules (team-rules.ts). */
export function grantableRoles(actor: TeamRole): TeamRole[] {
  return canManage(actor) ? TEAM_ROLES.filter((r) => RANK[r] <= RANK[actor]) : [];
}

export function canActOn(actor: TeamRole, target: TeamRole): boolean {
  return canManage(actor) && RANK[target] <= RANK[actor];
}
