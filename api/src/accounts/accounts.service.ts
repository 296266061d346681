import type { DataSource, EntityManager } from 'typeorm';
import {
  Account,
  ActivityLog,
  Team,
  TeamMember,
  User,
  UserPreferences,
  type ActivityAction,
} from '@tickerbell/entities';
import type { JobQueues, MailMessage } from '@tickerbell/jobs';
import { HttpError } from '../http/errors';

export const notAuthenticated = () => new HttpError(401, 'unauthorized', 'Not authenticated');
export const emailTaken = () => new HttpError(409, 'email_taken', 'An account with this email already exists');

/** A unique violation of the given constraint or index (PostgreSQL 23505). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && driverError.constraint === constraint;
}

export function findLiveUserByEmail(manager: EntityManager, email: string): Promise<User | null> {
  return manager
    .getRepository(User)
    .createQueryBuilder('u')
    .where('lower(u.email) = lower(:email)', { email })
    .getOne();
}

export interface NewUser {
  email: string;
  name: string | null;
  passwordHash: string | null;
  isVerified: boolean;
  googleId?: string | null;
  image?: string | null;
  verificationToken?: string | null;
  verificationTokenExpiry?: Date | null;
}

/**
 * A user with everything a user starts with: a personal team they own, default preferences and
 * the SIGN_UP activity. Call inside a transaction: all of it exists, or none.
 */
export async function createUserWithTeam(manager: EntityManager, input: NewUser, ipAddress: string | null): Promise<{ user: User; team: Team }> {
  let user: User;
  try {
    user = await manager.getRepository(User).save(manager.getRepository(User).create(input));
  } catch (error) {
    if (isUniqueViolation(error, 'uq_users_email_active')) throw emailTaken();
    throw error;
  }
  const teamName = `${(input.name || input.email.split('@')[0]).slice(0, 90)}'s team`;
  const team = await manager.getRepository(Team).save(manager.getRepository(Team).create({ name: teamName }));
  await manager.getRepository(TeamMember).insert({ teamId: team.id, userId: user.id, role: 'owner' });
  await manager.getRepository(UserPreferences).insert({ userId: user.id });
  await logActivity(manager, { teamId: team.id, userId: user.id, action: 'SIGN_UP', ipAddress });
  return { user, team };
}

export async function linkGoogleAccount(manager: EntityManager, userId: number, googleId: string): Promise<void> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(Account)
    .values({ userId, provider: 'google', providerAccountId: googleId, type: 'oauth' })
    .orIgnore()
    .execute();
  await manager.getRepository(User).update({ id: userId }, { googleId });
}

/** The team a user's own activity is logged under: the one they joined first. */
export async function primaryTeamId(manager: EntityManager, userId: number): Promise<number | null> {
  const member = await manager.getRepository(TeamMember).findOne({ where: { userId }, order: { joinedAt: 'ASC', id: 'ASC' } });
  return member?.teamId ?? null;
}

export interface ActivityInput {
  teamId: number | null;
  userId: number | null;
  action: ActivityAction;
  ipAddress: string | null;
  details?: Record<string, unknown> | null;
}

export async function logActivity(manager: EntityManager, input: ActivityInput): Promise<ActivityLog> {
  const repo = manager.getRepository(ActivityLog);
  return repo.save(repo.create({ ...input, details: input.details ?? null }));
}

/** Logs under the user's primary team (null when they have none). */
export async function logUserActivity(
  manager: EntityManager,
  userId: number,
  action: ActivityAction,
  ipAddress: string | null,
  details?: Record<string, unknown>,
): Promise<void> {
  await logActivity(manager, { teamId: await primaryTeamId(manager, userId), userId, action, ipAddress, details });
}

/** Ends every session of a user (sign-out everywhere), optionally keeping one. */
export async function endUserSessions(dataSource: DataSource | EntityManager, userId: number, exceptSid?: string): Promise<number> {
  const rows: unknown[] = await dataSource.query(
    exceptSid
      ? 'DELETE FROM sessions WHERE user_id = $1 AND sid <> $2 RETURNING sid'
      : 'DELETE FROM sessions WHERE user_id = $1 RETURNING sid',
    exceptSid ? [userId, exceptSid] : [userId],
  );
  return rows.length;
}

/** The api never sends mail itself: the workers do (mail.send). */
export async function enqueueMail(queues: JobQueues, message: MailMessage): Promise<void> {
  await queues.add('mail.send', message);
}

export function clientIp(ip: string | undefined): string | null {
  if (!ip) return null;
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
  return (ip.startsWith('::ffff:') ? ip.slice(7) : ip).slice(0, 45);
}
