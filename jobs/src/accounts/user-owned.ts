import type { EntityManager } from 'typeorm';

/**
 * What deleting an account does with every column that references a user. Users are
 * soft-deleted (the row stays, deleted_at set), so the foreign keys' ON DELETE CASCADE never
 * fires: deleteUser removes the 'delete' rows itself, in the transaction of the soft delete, and
 * rows that hang off them (alert_logs, watchlist_items, yield_alert_logs, ...) go with them through
 * their own cascades. 'keep: why' rows stay, for the stated reason.
 *
 * A new domain with rows that belong to a user adds its table here: a test walks every foreign
 * key to users and every user_id / *_user_id column and fails on a column missing from this list.
 */
export type UserRowsOnDeletion = 'delete' | `keep: ${string}`;

export interface UserOwnedColumn {
  table: string;
  /** The column holding the user's id. */
  column: string;
  deletion: UserRowsOnDeletion;
}

export const USER_OWNED_COLUMNS: readonly UserOwnedColumn[] = [
  // accounts
  { table: 'users', column: 'id', deletion: 'keep: the account row is soft-deleted for the records (address and Google account freed)' },
  { table: 'accounts', column: 'user_id', deletion: 'delete' },
  { table: 'sessions', column: 'user_id', deletion: 'delete' },
  { table: 'user_preferences', column: 'user_id', deletion: 'delete' },
  {
    table: 'team_members',
    column: 'user_id',
    deletion: 'keep: handled by the team rules in deleteUser (a team of one goes with its member, the last owner of a shared team is refused)',
  },
  { table: 'activity_logs', column: 'user_id', deletion: 'keep: the audit trail outlives the account (DELETE_ACCOUNT is logged in it)' },
  { table: 'invitations', column: 'invited_by', deletion: "keep: an invitation belongs to its team; who sent it is the team's history" },
  // alerts (their alert_logs go with them)
  { table: 'alerts', column: 'user_id', deletion: 'delete' },
  // notifications
  { table: 'notifications', column: 'user_id', deletion: 'delete' },
  { table: 'push_subscriptions', column: 'user_id', deletion: 'delete' },
  { table: 'telegram_links', column: 'user_id', deletion: 'delete' },
  { table: 'telegram_link_codes', column: 'user_id', deletion: 'delete' },
  // follows
  { table: 'exchange_follows', column: 'user_id', deletion: 'delete' },
  { table: 'cot_follows', column: 'user_id', deletion: 'delete' },
  { table: 'insider_follows', column: 'user_id', deletion: 'delete' },
  // watchlists (their items go with them) and charts
  { table: 'watchlists', column: 'user_id', deletion: 'delete' },
  { table: 'chart_layouts', column: 'user_id', deletion: 'delete' },
  // domains whose tables exist ahead of their code
  { table: 'subscriptions', column: 'user_id', deletion: 'keep: billing records are kept for accounting; the billing domain cancels at the payment provider' },
  { table: 'chat_messages', column: 'user_id', deletion: 'delete' },
  { table: 'message_reactions', column: 'user_id', deletion: 'delete' },
  { table: 'chat_room_members', column: 'user_id', deletion: 'delete' },
  { table: 'chat_notifications', column: 'user_id', deletion: 'delete' },
  { table: 'user_chat_preferences', column: 'user_id', deletion: 'delete' },
  { table: 'user_predictions', column: 'user_id', deletion: 'delete' },
  { table: 'prediction_performance', column: 'user_id', deletion: 'delete' },
  { table: 'prediction_follows', column: 'user_id', deletion: 'delete' },
  { table: 'prediction_question_scores', column: 'user_id', deletion: 'delete' },
  { table: 'user_watchlists', column: 'user_id', deletion: 'delete' },
  { table: 'whale_alerts', column: 'user_id', deletion: 'delete' },
  { table: 'yield_alerts', column: 'user_id', deletion: 'delete' },
  { table: 'lockup_follows', column: 'user_id', deletion: 'delete' },
  { table: 'lockup_notices', column: 'user_id', deletion: 'delete' },
  // chat (messages, reactions, memberships, chat notifications and preferences above)
  { table: 'chat_rooms', column: 'created_by', deletion: 'keep: a room belongs to its members; who created it is its history' },
  { table: 'chat_room_invites', column: 'created_by', deletion: "keep: an invite link is the room's; who made it is its history" },
  { table: 'chat_thread_follows', column: 'user_id', deletion: 'delete' },
  { table: 'chat_reports', column: 'reporter_id', deletion: 'delete' },
  { table: 'chat_reports', column: 'resolved_by', deletion: "keep: who resolved a report is the room's moderation history" },
  { table: 'chat_moderation_actions', column: 'moderator_id', deletion: "keep: the moderation audit log outlives the moderator's account" },
  { table: 'chat_moderation_actions', column: 'target_user_id', deletion: 'keep: the moderation audit log outlives the sanctioned account' },
  { table: 'chat_blocks', column: 'blocker_id', deletion: 'delete' },
  { table: 'chat_blocks', column: 'blocked_id', deletion: 'delete' },
];

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Deletes every 'delete' row of the user, inside the caller's transaction (deleteUser's); answers
 * how many rows each table lost. Table and column names are code constants, checked anyway.
 */
export async function deleteUserOwnedRows(manager: EntityManager, userId: number): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const { table, column, deletion } of USER_OWNED_COLUMNS) {
    if (deletion !== 'delete') continue;
    if (!IDENTIFIER.test(table) || !IDENTIFIER.test(column)) throw new Error(`not a table or column name: ${table}.${column}`);
    const [{ n }]: { n: number }[] = await manager.query(
      `WITH d AS (DELETE FROM ${table} WHERE ${column} = $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [userId],
    );
    deleted[table] = (deleted[table] ?? 0) + n;
  }
  return deleted;
}
