import type { TeamRole } from '@tickerbell/entities';

const RANK: Record<TeamRole, number> = { member: 0, admin: 1, owner: 2 };

/** Owners and admins manage members and invitations. */
export function canManageMembers(role: TeamRole): boolean {
  return RANK[role] >= RANK.admin;
}

/** An actor can grant (invite with, or change to) a role up to their own: admins cannot make owners. */
export function canGrantRole(actor: TeamRole, role: TeamRole): boolean {
  return canManageMembers(actor) && RANK[role] <= RANK[actor];
}

/** An actor can change or remove a member whose role is not above their own. */
export function canActOnMember(actor: TeamRole, target: TeamRole): boolean {
  return canManageMembers(actor) && RANK[target] <= RANK[actor];
}

export type TeamChangeRefusal = 'last_owner';

/**
 * A team always keeps an owner: the last owner can be neither removed nor demoted, and cannot leave.
 * `ownerCount` is the number of owners before the change.
 */
export function checkOwnerRemains(target: TeamRole, nextRole: TeamRole | null, ownerCount: number): TeamChangeRefusal | null {
  if (target === 'owner' && nextRole !== 'owner' && ownerCount <= 1) return 'last_owner';
  return null;
}

/** A pending invitation not accepted within this many days becomes `expired`. */
export const INVITATION_TTL_DAYS = 7;

/** Whether an invitation sent at `invitedAt` has expired at `now` (pending ones only show it). */
export function invitationExpired(invitedAt: Date, now: Date): boolean {
  return invitedAt.getTime() + INVITATION_TTL_DAYS * 24 * 3600 * 1000 <= now.getTime();
}
