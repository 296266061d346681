import request from 'supertest';
import { fixedClock } from '@tickerbell/jobs';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { AccountsHarness, csrfOf, signedInUser, type Agent } from './accounts-harness';

/** The fixed "now" of the alerts api tests. */
export const ALERTS_NOW = '2026-11-21T12:00:00.000Z';

export interface AlertsUser {
  agent: Agent;
  id: number;
  csrf: string;
}

/** An accounts harness with the seeded markets and an app on a fixed clock. */
export class AlertsHarness extends AccountsHarness {
  readonly clock = fixedClock(ALERTS_NOW);
  private server?: ReturnType<AccountsHarness['app']>;

  constructor(private readonly env: Record<string, string> = {}) {
    super();
  }

  override async start(): Promise<this> {
    await super.start();
    await runSeeds(this.db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    this.server = this.app(this.env, this.clock);
    return this;
  }

  /** The one app of the file (agents keep their session cookies against it). */
  get api(): ReturnType<AccountsHarness['app']> {
    if (!this.server) throw new Error('start() first');
    return this.server;
  }

  async user(email: string): Promise<AlertsUser> {
    const agent = request.agent(this.api);
    const id = await signedInUser(this, agent, email);
    return { agent, id, csrf: await csrfOf(agent) };
  }

  /** A firing written as the evaluator would (alert_logs row), at a given instant. */
  async insertLog(alertId: number, value: string, triggeredAt: string, message: string | null = 'Alert Triggered'): Promise<string> {
    const [row]: { id: string }[] = await this.db.dataSource.query(
      `INSERT INTO alert_logs (alert_id, value, dedupe_key, message, triggered_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [alertId, value, `${alertId}:at:${new Date(triggeredAt).getTime()}`, message, triggeredAt],
    );
    return String(row.id);
  }
}

export function createAlert(user: AlertsUser, body: Record<string, unknown>) {
  return user.agent.post('/api/alerts').set('x-csrf-token', user.csrf).send(body);
}

export function patchAlert(user: AlertsUser, id: number, body: Record<string, unknown>) {
  return user.agent.patch(`/api/alerts/${id}`).set('x-csrf-token', user.csrf).send(body);
}
