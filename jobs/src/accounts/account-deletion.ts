import type { DataSource } from 'typeorm';
import { publishAlertChanges } from '../alerts/alert-changes';
import { requestSeatSync } from '../billing/billing-seats';
import { publishChatEvent } from '../chat/chat-events';
import type { JobQueues } from '../runtime/job-queues';
import type { Logger } from '../runtime/logger';
import { publishWatchlistChange } from '../watchlists/watchlist-changes';
import { deleteUser, type DeletedUser } from './accounts.store';

export interface AccountDeletionDeps {
  dataSource: DataSource;
  /** Its Redis connection and prefix carry the change announcements. */
  queues: JobQueues;
  logger: Logger;
}

/**
 * DELETE /api/user: deletes the account and everything it owns in one transaction (deleteUser),
 * then tells the processes that keep copies: every worker's alert index drops the user's alerts,
 * and the api's live streams stop carrying their watched symbols, a chat room's new owner is told;
 * the teams they left get a seat
 * sync (billing). The deletion is committed
 * whatever happens next, so a Redis failure is logged, not answered: the evaluator re-checks every
 * candidate in the database (the alert is gone, its owner deleted), and indexes rebuild on start.
 * Jobs already queued for the user find nothing to do: each delivery re-reads what it delivers
 * and skips deleted accounts.
 */
export async function deleteAccount(deps: AccountDeletionDeps, userId: number, now: Date, ipAddress: string | null): Promise<DeletedUser> {
  const deleted = await deleteUser(deps.dataSource, userId, now, ipAddress);
  try {
    await publishAlertChanges(deps.queues.redis, deps.queues.prefix, deleted.alertIds);
    if (deleted.deletedRows.watchlists) await publishWatchlistChange(deps.queues.redis, deps.queues.prefix, userId);
    // A room's new owner sees the owner's tools at once (their pages read the room again).
    for (const { roomId, ownerId } of deleted.chatRooms.handedOver) {
      await publishChatEvent(deps.queues.redis, deps.queues.prefix, { kind: 'standing', roomId, userId: ownerId });
    }
  } catch (err) {
    deps.logger.error({ err, userId, alertIds: deleted.alertIds }, 'accounts: could not announce the deleted account');
  }
  // Shared teams the user left: their subscriptions' quantity follows (billing's seat sync; a team
  // without a subscription is skipped by the job).
  for (const { teamId, members } of deleted.leftTeams) {
    try {
      await requestSeatSync(deps.queues, teamId, members, now);
    } catch (err) {
      deps.logger.error({ err, userId, teamId }, 'accounts: could not request the seat sync of a team the deleted account left');
    }
  }
  return deleted;
}
