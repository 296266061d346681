// Activity → Team log (the heading avoids the word "Activity", which the page's h1 owns): the team's activity log from the api, newest first, a page at a time.
import { useEffect, useState } from 'react';
import { messageOf } from './auth-client';
import { getTeamActivity, getTeams, type ActivityItem, type ActivityPage, type TeamSummary } from './account-client';
import './team-activity.css';

export const TEAM_ACTIVITY_PAGE_SIZE = 20;

const ACTION_LABELS: Record<string, string> = {
  SIGN_UP: 'Signed up',
  SIGN_IN: 'Signed in',
  SIGN_OUT: 'Signed out',
  UPDATE_PASSWORD: 'Changed password',
  DELETE_ACCOUNT: 'Deleted account',
  UPDATE_ACCOUNT: 'Updated account',
  CREATE_TEAM: 'Created the team',
  REMOVE_TEAM_MEMBER: 'Removed a member',
  INVITE_TEAM_MEMBER: 'Invited a member',
  ACCEPT_INVITATION: 'Accepted an invitation',
  MARKET_OPEN: 'Market open notification',
  MARKET_CLOSE: 'Market close notification',
  MARKET_OPENING_SOON: 'Market opening soon notification',
  MARKET_CLOSING_SOON: 'Market closing soon notification',
  MARKET_ALERT_TECHNICAL: 'Technical alert',
  MARKET_ALERT_PRICE: 'Price alert',
  MARKET_ALERT_VOLATILITY: 'Volatility alert',
  MARKET_ALERT_NEWS: 'News alert',
};

export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action;
}

function detailText(item: ActivityItem): string | null {
  const details = item.details;
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return null;
  const parts = Object.entries(details)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    .map(([key, value]) => `${key}: ${String(value)}`);
  return parts.length ? parts.join(', ') : null;
}

export function TeamActivity() {
  const [teams, setTeams] = useState<TeamSummary[] | null>(null);
  const [teamId, setTeamId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<ActivityPage | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getTeams(controller.signal).then(
      (loaded) => {
        setTeams(loaded);
        setTeamId(loaded[0]?.id ?? null);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure(messageOf(error));
      },
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (teamId === null) return undefined;
    const controller = new AbortController();
    getTeamActivity(teamId, page, TEAM_ACTIVITY_PAGE_SIZE, controller.signal).then(
      (loaded) => {
        setResult(loaded);
        setFailure(null);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure(messageOf(error));
      },
    );
    return () => controller.abort();
  }, [teamId, page]);

  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;

  return (
    <section className="dashboard-panel" aria-labelledby="team-activity-title">
      <h2 id="team-activity-title">Team log</h2>
      <p className="form-field__hint">What happened in your team, newest first: sign-ins, invitations, membership and account changes, notifications shown.</p>
      {failure && (
        <p className="form-message form-message--error" role="alert">
          {failure}
        </p>
      )}
      {teams?.length === 0 && <p>You are not a member of any team.</p>}
      {teams && teams.length > 1 && (
        <label className="form-field">
          <span className="form-field__label">Team</span>
          <select
            className="form-field__input"
            value={teamId ?? ''}
            onChange={(event) => {
              setTeamId(Number(event.target.value));
              setPage(1);
            }}
          >
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {result && (
        <>
          {result.items.length === 0 ? (
            <p>No activity yet.</p>
          ) : (
            <ol className="activity-log" aria-label="Team activity log">
              {result.items.map((item) => {
                const detail = detailText(item);
                return (
                  <li key={item.id}>
                    <time dateTime={item.timestamp}>{new Date(item.timestamp).toLocaleString()}</time> {actionLabel(item.action)}
                    {detail && <span className="form-field__hint"> ({detail})</span>}
                  </li>
                );
              })}
            </ol>
          )}
          <nav className="toolbar" aria-label="Team activity pages">
            <button type="button" className="button button--secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Newer
            </button>
            <span>
              Page {result.page} of {pages}
            </span>
            <button type="button" className="button button--secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
