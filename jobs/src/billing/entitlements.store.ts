import type { DataSource, EntityManager } from 'typeorm';

/** The entitlements' queries: teams' billing state and counts. */

type Db = DataSource | EntityManager;

export interface TeamBillingRow {
  teamId: number;
  planName: string | null;
  status: string | null;
  pastDueSince: Date | null;
}

const TEAM_BILLING_COLUMNS = `t.id AS "teamId", t.plan_name AS "planName", t.subscription_status AS status, t.past_due_since AS "pastDueSince"`;

/** The billing state of every team the user belongs to. */
export function teamsBillingOfUser(db: Db, userId: number): Promise<TeamBillingRow[]> {
  return db.query(
    `SELECT ${TEAM_BILLING_COLUMNS} FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = $1 ORDER BY t.id`,
    [userId],
  );
}

export async function teamBilling(db: Db, teamId: number): Promise<TeamBillingRow | null> {
  const rows: TeamBillingRow[] = await db.query(`SELECT ${TEAM_BILLING_COLUMNS} FROM teams t WHERE t.id = $1`, [teamId]);
  return rows[0] ?? null;
}

export async function countTeamMembers(db: Db, teamId: number): Promise<number> {
  const [row]: { n: number }[] = await db.query(`SELECT count(*)::int AS n FROM team_members WHERE team_id = $1`, [teamId]);
  return row.n;
}

/**
 * Serialises limit checks of one user and one limit until the transaction ends, so two requests
 * cannot both take the last free place.
 */
export async function lockUserLimit(manager: EntityManager, userId: number, limit: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`entitlements:${limit}:${userId}`]);
}
