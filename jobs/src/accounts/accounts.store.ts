import type { DataSource, EntityManager } from 'typeorm';
import { Account, ActivityLog, Team, TeamMember, User, UserPreferences, type ActivityAction, type UserRole } from '@tickerbell/entities';
import { handOverRoomsOfDeletedOwner, type ChatRoomsOfDeletedOwner } from '../chat/chat-moderation.store';
import { AccountsError, emailTaken, isUniqueViolation } from './accounts-error';
import { normalizeEmail } from './account-tokens';
import type { PreferenceFlag } from './accounts.shapes';
import { deleteUserOwnedRows } from './user-owned';

/**
 * Every query of users, their sessions, their activity log and their preferences (teams and
 * invitations: teams.store.ts). Functions that write several rows run their own transaction.
 */

type Db = DataSource | EntityManager;

// ---- users ----------------------------------------------------------------------------------

/** The live (not deleted) user with this email, compared case-insensitively. */
export function findLiveUserByEmail(db: Db, email: string): Promise<User | null> {
  return db
    .getRepository(User)
    .createQueryBuilder('u')
    .where('lower(u.email) = lower(:email)', { email })
    .getOne();
}

/** A live user by id (null once deleted). */
export function findUser(db: Db, userId: number): Promise<User | null> {
  return db.getRepository(User).findOne({ where: { id: userId } });
}

/** A live user that must exist (the signed-in one). */
export function getUser(db: Db, userId: number): Promise<User> {
  return db.getRepository(User).findOneByOrFail({ id: userId });
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
 * the SIGN_UP activity. Inside the caller's transaction: all of it exists, or none.
 */
async function insertUserWithTeam(manager: EntityManager, input: NewUser, ipAddress: string | null): Promise<User> {
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
  return user;
}

/** Sign-up: the user, their team, preferences and SIGN_UP in one transaction. AccountsError `email_taken`. */
export function createUser(dataSource: DataSource, input: NewUser, ipAddress: string | null): Promise<User> {
  return dataSource.transaction((manager) => insertUserWithTeam(manager, input, ipAddress));
}

async function linkGoogleAccount(manager: EntityManager, userId: number, googleId: string): Promise<void> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(Account)
    .values({ userId, provider: 'google', providerAccountId: googleId, type: 'oauth' })
    .orIgnore()
    .execute();
  await manager.getRepository(User).update({ id: userId }, { googleId });
}

/** What a Google profile says about its owner (as the provider sent it). */
export interface GoogleProfileInput {
  googleId: string;
  email: string | undefined;
  emailVerified: boolean;
  displayName: string | undefined;
  photo: string | undefined;
}

/** Why a Google sign-in is refused, as the client reads it from `error=`. */
export type GoogleSignInRefusal = 'OAuthCallbackError' | 'AccountNotLinkedError';

/**
 * The user a Google profile signs in: the one already linked; else, when someone is signed in,
 * that user (linking); else a new account. An existing account with the same email that is not
 * linked is never taken over: AccountNotLinkedError.
 */
export function signInWithGoogle(
  dataSource: DataSource,
  profile: GoogleProfileInput,
  signedInUserId: number | null,
  ipAddress: string | null,
): Promise<User | { refusal: GoogleSignInRefusal }> {
  const { googleId } = profile;
  return dataSource.transaction(async (manager) => {
    const linked = await manager.getRepository(Account).findOne({ where: { provider: 'google', providerAccountId: googleId } });
    const byLink = linked ? await manager.getRepository(User).findOne({ where: { id: linked.userId } }) : null;
    const user = byLink ?? (await manager.getRepository(User).findOne({ where: { googleId } }));
    if (user) {
      if (!linked) await linkGoogleAccount(manager, user.id, googleId);
      return user;
    }
    if (signedInUserId !== null) {
      await linkGoogleAccount(manager, signedInUserId, googleId);
      return manager.getRepository(User).findOneByOrFail({ id: signedInUserId });
    }
    if (!profile.email || !profile.emailVerified) return { refusal: 'OAuthCallbackError' as const };
    const email = normalizeEmail(profile.email);
    if (await findLiveUserByEmail(manager, email)) return { refusal: 'AccountNotLinkedError' as const };
    const created = await insertUserWithTeam(
      manager,
      {
        email,
        name: profile.displayName?.slice(0, 100) || null,
        passwordHash: null,
        isVerified: true,
        googleId,
        image: profile.photo?.slice(0, 2048) ?? null,
      },
      ipAddress,
    );
    await linkGoogleAccount(manager, created.id, googleId);
    return created;
  });
}

/** POST /auth/session: the name and picture a signed-in user changes; the updated user. */
export async function updateProfile(dataSource: DataSource, userId: number, data: { name?: string; image?: string | null }): Promise<User> {
  await dataSource.getRepository(User).update({ id: userId }, data);
  return getUser(dataSource, userId);
}

export interface AccountChanges {
  name?: string | null;
  /** A new address, counted once its owner opens the link sent to it (the token's hash is stored). */
  pendingEmail?: { email: string; tokenHash: string; expiresAt: Date };
}

/**
 * The signed-in user changes their name and/or asks for a new address; logged as UPDATE_ACCOUNT
 * naming `fields`. AccountsError `email_taken` when another live account has the new address.
 */
export async function updateAccount(
  dataSource: DataSource,
  userId: number,
  changes: AccountChanges,
  ipAddress: string | null,
  fields: string[],
): Promise<void> {
  const update: Partial<User> = {};
  if (changes.name !== undefined) update.name = changes.name;
  if (changes.pendingEmail) {
    const owner = await findLiveUserByEmail(dataSource, changes.pendingEmail.email);
    if (owner && owner.id !== userId) throw emailTaken();
    Object.assign(update, {
      pendingEmail: changes.pendingEmail.email,
      verificationToken: changes.pendingEmail.tokenHash,
      verificationTokenExpiry: changes.pendingEmail.expiresAt,
    });
  }
  if (!Object.keys(update).length) return;
  await dataSource.getRepository(User).update({ id: userId }, update);
  await logUserActivity(dataSource, userId, 'UPDATE_ACCOUNT', ipAddress, { fields });
}

/** The site-wide role of the user with this email (CLI `users promote|demote`); null: no such user. */
export async function setUserRole(db: Db, email: string, role: UserRole): Promise<{ id: number; email: string } | null> {
  const user = await findLiveUserByEmail(db, email.trim());
  if (!user) return null;
  await db.getRepository(User).update({ id: user.id }, { role });
  return { id: user.id, email: user.email };
}

/** Records that the user installed the web app: the first date stays, the source follows the latest install. */
export async function recordPwaInstall(dataSource: DataSource, userId: number, installSource: string, now: Date): Promise<User> {
  const user = await getUser(dataSource, userId);
  await dataSource.getRepository(User).update({ id: userId }, { pwaInstalled: true, pwaInstallDate: user.pwaInstallDate ?? now, pwaInstallSource: installSource });
  return getUser(dataSource, userId);
}

/** What deleteUser removed: the ids of the user's alerts (for the workers' indexes) and the rows each table lost. */
export interface DeletedUser {
  alertIds: number[];
  deletedRows: Record<string, number>;
  /** Shared teams the user left, with the members they keep (their subscriptions' seats follow). */
  leftTeams: { teamId: number; members: number }[];
  /** Chat rooms they owned: handed to a remaining member, or deleted when no one else was in them. */
  chatRooms: ChatRoomsOfDeletedOwner;
}

/**
 * Deletes the user's account in one transaction: their memberships (a team of one goes with its
 * member), then everything they own as USER_OWNED_COLUMNS says (sessions, linked accounts, alerts,
 * follows, watchlists, chart layouts, notifications, push subscriptions, ...); the user row is
 * soft-deleted (kept for the records, address and Google account freed); the chat rooms they own
 * pass to another member (handOverRoomsOfDeletedOwner). AccountsError
 * `last_owner` when they are the last owner of a shared team. The caller tells the workers' alert
 * indexes after the commit (deleteAccount does).
 */
export async function deleteUser(dataSource: DataSource, userId: number, now: Date, ipAddress: string | null): Promise<DeletedUser> {
  return dataSource.transaction(async (manager) => {
    // First, so an evaluation holding one of these rows finishes before they go, and one that
    // comes later waits and then finds neither the alert nor a live owner.
    const alerts: { id: number }[] = await manager.query('SELECT id FROM alerts WHERE user_id = $1 ORDER BY id FOR UPDATE', [userId]);
    const memberships = await manager.getRepository(TeamMember).find({ where: { userId } });
    for (const membership of memberships) {
      const members = await manager.getRepository(TeamMember).find({ where: { teamId: membership.teamId } });
      const owners = members.filter((m) => m.role === 'owner');
      if (members.length > 1 && membership.role === 'owner' && owners.length === 1) {
        throw new AccountsError('last_owner', 'You are the last owner of a team with other members: make someone else owner first', { teamId: membership.teamId });
      }
    }
    const leftTeams: DeletedUser['leftTeams'] = [];
    for (const membership of memberships) {
      const count = await manager.getRepository(TeamMember).count({ where: { teamId: membership.teamId } });
      if (count === 1) await manager.query('DELETE FROM teams WHERE id = $1', [membership.teamId]);
      else {
        await manager.getRepository(TeamMember).delete({ id: membership.id });
        leftTeams.push({ teamId: membership.teamId, members: count - 1 });
      }
    }
    // Before their memberships go: a room they own passes to another member (chat).
    const chatRooms = await handOverRoomsOfDeletedOwner(manager, userId, now);
    await manager.getRepository(User).update({ id: userId }, { deletedAt: now, googleId: null, verificationToken: null, resetToken: null });
    // Sessions and linked accounts are among them: every device is signed out.
    const deletedRows = await deleteUserOwnedRows(manager, userId);
    await logActivity(manager, { teamId: null, userId, action: 'DELETE_ACCOUNT', ipAddress });
    return { alertIds: alerts.map((a) => a.id), deletedRows, leftTeams, chatRooms };
  });
}

// ---- email verification and passwords ---------------------------------------------------------

/** Stores a new email-verification token (its hash) for the user. */
export async function setVerificationToken(dataSource: DataSource, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await dataSource.getRepository(User).update({ id: userId }, { verificationToken: tokenHash, verificationTokenExpiry: expiresAt });
}

/**
 * Opens an email-verification link: the user is verified and a pending new address becomes theirs
 * (UPDATE_ACCOUNT logged). False when the token is unknown or expired, or the new address was
 * taken by someone else meanwhile.
 */
export async function verifyEmail(dataSource: DataSource, tokenHash: string, now: Date, ipAddress: string | null): Promise<boolean> {
  const user = await dataSource
    .getRepository(User)
    .createQueryBuilder('u')
    .where('u.verificationToken = :tokenHash AND u.verificationTokenExpiry > :now', { tokenHash, now })
    .getOne();
  if (!user) return false;
  const changes: Partial<User> = { isVerified: true, verificationToken: null, verificationTokenExpiry: null };
  if (user.pendingEmail) Object.assign(changes, { email: user.pendingEmail, pendingEmail: null });
  try {
    await dataSource.getRepository(User).update({ id: user.id }, changes);
  } catch (error) {
    if (isUniqueViolation(error, 'uq_users_email_active')) return false;
    throw error;
  }
  if (user.pendingEmail) await logUserActivity(dataSource, user.id, 'UPDATE_ACCOUNT', ipAddress, { emailChanged: true });
  return true;
}

/** Stores a new password-reset token (its hash) for the user. */
export async function setResetToken(dataSource: DataSource, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await dataSource.getRepository(User).update({ id: userId }, { resetToken: tokenHash, resetTokenExpiry: expiresAt });
}

/** The live user a password-reset token (its hash) belongs to, while it is valid. */
export function findUserByResetToken(dataSource: DataSource, tokenHash: string, now: Date): Promise<User | null> {
  return dataSource
    .getRepository(User)
    .createQueryBuilder('u')
    .where('u.resetToken = :tokenHash AND u.resetTokenExpiry > :now', { tokenHash, now })
    .getOne();
}

/**
 * Sets the password through a reset link: single use (the token goes with the change), receiving
 * the email proves the address, and every session of the user ends.
 */
export async function resetPassword(dataSource: DataSource, userId: number, passwordHash: string, ipAddress: string | null): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.getRepository(User).update({ id: userId }, { passwordHash, resetToken: null, resetTokenExpiry: null, isVerified: true });
    await logUserActivity(manager, userId, 'UPDATE_PASSWORD', ipAddress, { via: 'reset' });
    await endUserSessions(manager, userId);
  });
}

/** The signed-in user changes their password: other devices sign in again, `keepSessionId` stays. */
export async function changePassword(dataSource: DataSource, userId: number, passwordHash: string, ipAddress: string | null, keepSessionId: string): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.getRepository(User).update({ id: userId }, { passwordHash });
    await logUserActivity(manager, userId, 'UPDATE_PASSWORD', ipAddress);
    await endUserSessions(manager, userId, keepSessionId);
  });
}

// ---- sessions -------------------------------------------------------------------------------

/** After sign-in: the session row names its owner (so sign-out everywhere finds it) and SIGN_IN is logged. */
export async function recordSignIn(dataSource: DataSource, userId: number, sessionId: string, ipAddress: string | null): Promise<void> {
  await dataSource.query('UPDATE sessions SET user_id = $1 WHERE sid = $2', [userId, sessionId]);
  await logUserActivity(dataSource, userId, 'SIGN_IN', ipAddress);
}

/** Ends every session of a user (sign-out everywhere), optionally keeping one. */
export async function endUserSessions(db: Db, userId: number, exceptSid?: string): Promise<number> {
  const rows: unknown[] = await db.query(
    exceptSid
      ? 'DELETE FROM sessions WHERE user_id = $1 AND sid <> $2 RETURNING sid'
      : 'DELETE FROM sessions WHERE user_id = $1 RETURNING sid',
    exceptSid ? [userId, exceptSid] : [userId],
  );
  return rows.length;
}

// ---- activity log ---------------------------------------------------------------------------

/** The team a user's own activity is logged under: the one they joined first. */
export async function primaryTeamId(db: Db, userId: number): Promise<number | null> {
  const member = await db.getRepository(TeamMember).findOne({ where: { userId }, order: { joinedAt: 'ASC', id: 'ASC' } });
  return member?.teamId ?? null;
}

export interface ActivityInput {
  teamId: number | null;
  userId: number | null;
  action: ActivityAction;
  ipAddress: string | null;
  details?: Record<string, unknown> | null;
}

export async function logActivity(db: Db, input: ActivityInput): Promise<ActivityLog> {
  const repo = db.getRepository(ActivityLog);
  return repo.save(repo.create({ ...input, details: input.details ?? null }));
}

/** Logs under the user's primary team (null when they have none). */
export async function logUserActivity(
  db: Db,
  userId: number,
  action: ActivityAction,
  ipAddress: string | null,
  details?: Record<string, unknown>,
): Promise<void> {
  await logActivity(db, { teamId: await primaryTeamId(db, userId), userId, action, ipAddress, details });
}

export interface LoggedActivity {
  id: number;
  teamId: number;
  action: ActivityAction;
  timestamp: string;
}

/** An activity the client reports (a market notification it showed), under the user's primary team. AccountsError `no_team`. */
export async function logClientActivity(
  dataSource: DataSource,
  userId: number,
  action: ActivityAction,
  ipAddress: string | null,
  details: Record<string, unknown> | null,
): Promise<LoggedActivity> {
  const teamId = await primaryTeamId(dataSource, userId);
  if (teamId === null) throw new AccountsError('no_team', 'User is not part of a team');
  const row = await logActivity(dataSource, { teamId, userId, action, ipAddress, details });
  return { id: Number(row.id), teamId, action: row.action, timestamp: row.timestamp.toISOString() };
}

// ---- preferences ----------------------------------------------------------------------------

export type PreferenceChanges = Partial<Pick<UserPreferences, PreferenceFlag>>;

/** The user's preferences; accounts made before preferences existed get the defaults on first read. */
export async function getPreferences(dataSource: DataSource, userId: number): Promise<UserPreferences> {
  const repo = dataSource.getRepository(UserPreferences);
  await repo.createQueryBuilder().insert().values({ userId }).orIgnore().execute();
  return repo.findOneByOrFail({ userId });
}

/** Changes some preference flags; the preferences after the change. */
export async function updatePreferences(dataSource: DataSource, userId: number, changes: PreferenceChanges): Promise<UserPreferences> {
  const repo = dataSource.getRepository(UserPreferences);
  await repo.createQueryBuilder().insert().values({ userId }).orIgnore().execute();
  await repo.update({ userId }, changes);
  return repo.findOneByOrFail({ userId });
}
