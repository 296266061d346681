// Settings → Billing (/dashboard/settings/billing?team=<id>): a team's plan, subscription status,
// seats, trial end, renewal or cancellation date, the caller's usage of each limit, and for owners
// and admins the upgrade and manage buttons (Stripe Checkout via the pricing page, the Customer
// Portal for invoices, payment method and cancellation). After Checkout, Stripe's webhook is
// processed by a job: the page asks again for a short while until the plan shows.
import { useEffect, useState, type ChangeEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { getTeams, type TeamSummary } from '../accounts/account-client';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import {
  FEATURE_FLAGS,
  FEATURE_LABELS,
  LIMIT_NAMES,
  LIMIT_LABELS,
  STATUS_LABELS,
  formatDate,
  formatDaysLeft,
  getBillingStatus,
  navigation,
  openPortal,
  statusTone,
  type BillingStatusBody,
  type LimitName,
} from './billing-client';
import './billing.css';

/** How long (and how often) the page asks again after a completed checkout, until the webhook's job has run. */
const CHECKOUT_POLL_MS = 1500;
const CHECKOUT_POLL_TRIES = 20;

function teamOf(teams: readonly TeamSummary[], wanted: number | null): TeamSummary | null {
  if (teams.length === 0) return null;
  return teams.find((team) => team.id === wanted) ?? teams.find((team) => team.role !== 'member') ?? teams[0]!;
}

function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="page-loading">
      <span className="spinner" aria-hidden="true" /> {what}
    </p>
  );
}

export function BillingSettingsPage() {
  const [params, setParams] = useSearchParams();
  const wanted = Number(params.get('team')) || null;
  const checkout = params.get('checkout');
  const [teamsResult, , retryTeams] = useRequest('teams', (signal) => getTeams(signal));
  const teams = shownData(teamsResult);
  const team = teams ? teamOf(teams, wanted) : null;

  const chooseTeam = (event: ChangeEvent<HTMLSelectElement>): void => {
    const next = new URLSearchParams(params);
    next.set('team', event.target.value);
    next.delete('checkout');
    next.delete('session_id');
    setParams(next, { replace: true });
  };

  return (
    <>
      <title>Billing · Tickerbell</title>
      <nav aria-label="Breadcrumb" className="billing-breadcrumb">
        <Link to="/dashboard/settings">Settings</Link> <span aria-hidden="true">›</span> Billing
      </nav>
      <h1>Billing</h1>
      {checkout === 'success' && (
        <p className="form-message form-message--success" role="status">
          Thank you: Stripe confirmed the checkout. The new plan shows here as soon as its confirmation is processed, usually within seconds.
        </p>
      )}
      {teamsResult.state === 'failed' && <RequestFailed what="Your teams" message={teamsResult.message} onRetry={retryTeams} />}
      {!teams && teamsResult.state === 'loading' && <Loading what="Loading billing…" />}
      {teams && !team && (
        <section className="dashboard-panel empty-state billing-empty" aria-labelledby="billing-empty-title">
          <h2 id="billing-empty-title">No team yet</h2>
          <p>
            Plans are per team: the team pays for its seats and every member gets its limits. Create a team in{' '}
            <Link to="/dashboard/settings">Settings → Teams</Link>, or choose a plan on the <Link to="/pricing">pricing page</Link> and name your team
            there.
          </p>
        </section>
      )}
      {teams && team && (
        <>
          {teams.length > 1 && (
            <div className="form-field billing-team-picker">
              <label className="form-field__label" htmlFor="billing-team">
                Team
              </label>
              <select id="billing-team" className="form-field__input" value={team.id} onChange={chooseTeam}>
                {teams.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <TeamBilling key={team.id} teamId={team.id} afterCheckout={checkout === 'success'} />
        </>
      )}
    </>
  );
}

function TeamBilling({ teamId, afterCheckout }: { teamId: number; afterCheckout: boolean }) {
  const [poll, setPoll] = useState(0);
  const [result, , retry] = useRequest(`billing-${teamId}-${poll}`, (signal) => getBillingStatus(teamId, signal));
  const data = shownData(result);

  // After Checkout: ask again until the webhook's job has written the subscription.
  const waiting = afterCheckout && data !== null && data.subscription === null && data.entitlements.billing === 'on' && poll < CHECKOUT_POLL_TRIES;
  useEffect(() => {
    if (!waiting || result.state !== 'ready') return;
    const timer = setTimeout(() => setPoll((n) => n + 1), CHECKOUT_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, result.state]);

  if (result.state === 'failed') return <RequestFailed what="The team’s billing" message={result.message} onRetry={retry} />;
  if (!data) return <Loading what="Loading the team’s plan…" />;
  return <BillingDetails data={data} waiting={waiting} />;
}

function StatusBadge({ data }: { data: BillingStatusBody }) {
  const { entitlements: e, subscription } = data;
  if (e.billing === 'off') return <span className="billing-badge billing-badge--neutral">Self-hosted</span>;
  const status = subscription?.status ?? null;
  if (!status) return <span className="billing-badge billing-badge--neutral">No subscription</span>;
  return <span className={`billing-badge billing-badge--${statusTone(status)}`}>{STATUS_LABELS[status]}</span>;
}

function usageRow(name: LimitName, used: number | undefined, max: number | null) {
  const share = max === null || used === undefined ? null : max === 0 ? 1 : Math.min(1, used / max);
  return (
    <tr key={name} className={share !== null && share >= 1 ? 'billing-usage--full' : undefined}>
      <th scope="row">{LIMIT_LABELS[name][0]!.toUpperCase() + LIMIT_LABELS[name].slice(1)}</th>
      <td data-label="Used">{used === undefined ? '—' : used.toLocaleString('en-US')}</td>
      <td data-label="Limit">{max === null ? 'Unlimited' : max.toLocaleString('en-US')}</td>
      <td data-label="" className="billing-usage__bar-cell">
        {share !== null && (
          <span className="billing-usage__bar" aria-hidden="true">
            <span style={{ width: `${Math.round(share * 100)}%` }} />
          </span>
        )}
      </td>
    </tr>
  );
}

function BillingDetails({ data, waiting }: { data: BillingStatusBody; waiting: boolean }) {
  const { entitlements: e, subscription: sub } = data;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const billingOn = e.billing === 'on';
  const seatLimit = sub?.seats ?? e.limits.seats;

  const manage = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await openPortal(data.teamId);
      navigation.assign(url);
    } catch (caught) {
      setError(messageOf(caught));
      setBusy(false);
    }
  };

  const facts: [string, string][] = [];
  if (billingOn) {
    facts.push(['Status', sub ? STATUS_LABELS[sub.status] : 'No subscription (free plan)']);
    facts.push(['Seats', `${data.seatsUsed} used${seatLimit === null ? '' : ` of ${seatLimit}`}`]);
    if (sub?.trialEnd && sub.status === 'trialing') facts.push(['Trial ends', `${formatDate(sub.trialEnd)} (${formatDaysLeft(sub.trialEnd)})`]);
    if (sub?.currentPeriodEnd && sub.status !== 'canceled') facts.push([sub.cancelAtPeriodEnd ? 'Ends on' : 'Renews on', formatDate(sub.currentPeriodEnd)]);
    if (sub?.pastDueSince) facts.push(['Payment due since', formatDate(sub.pastDueSince)]);
    if (e.mode === 'grace' && e.graceEndsAt) facts.push(['Read-only from', formatDate(e.graceEndsAt)]);
  } else {
    facts.push(['Seats', `${data.seatsUsed} used${seatLimit === null ? ', no limit' : ` of ${seatLimit}`}`]);
  }

  return (
    <>
      <section className="dashboard-panel billing-plan" aria-labelledby="billing-plan-title">
        <div className="billing-plan__head">
          <div>
            <p className="eyebrow">{data.teamName}</p>
            <h2 id="billing-plan-title">{e.planName} plan</h2>
          </div>
          <StatusBadge data={data} />
        </div>
        {!billingOn && (
          <p className="billing-note">
            This install is self-hosted: billing is off, so there is nothing to pay. Every team has the self-hosted plan, whose limits its operator sets.
          </p>
        )}
        {billingOn && e.mode === 'read_only' && (
          <p className="form-message form-message--error billing-note" role="alert">
            The subscription is {sub ? STATUS_LABELS[sub.status].toLowerCase() : 'inactive'}: the team is read-only. Everything can still be read, but new alerts, watchlists and
            follows are refused until it is paid{data.canManage ? '' : ' (ask an owner or admin)'}.
          </p>
        )}
        {waiting && (
          <p className="billing-note" role="status">
            <span className="spinner" aria-hidden="true" /> Waiting for Stripe’s confirmation…
          </p>
        )}
        <dl className="billing-facts">
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {billingOn && data.canManage && (
          <div className="billing-actions">
            {e.plan !== 'team' && (
              <Link to={`/pricing?team=${data.teamId}`} className="button button--primary">
                {sub && e.plan !== 'free' ? 'Change plan' : 'Upgrade'}
              </Link>
            )}
            {data.hasCustomer && (
              <button type="button" className="button button--secondary" onClick={() => void manage()} disabled={busy}>
                {busy ? 'Opening Stripe…' : 'Manage subscription and invoices'}
              </button>
            )}
          </div>
        )}
        {billingOn && !data.canManage && <p className="form-field__hint">Only the team’s owner or an admin can change the plan or see invoices.</p>}
        {error && (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        )}
      </section>

      <section className="dashboard-panel" aria-labelledby="billing-usage-title">
        <h2 id="billing-usage-title">Limits in use</h2>
        <p className="form-field__hint">Your own items against the limits of the {e.planName} plan; seats count the team’s members.</p>
        <div className="table-scroll">
          <table className="data-table data-table--cards billing-usage">
            <caption className="visually-hidden">Usage of each limit of the {e.planName} plan</caption>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">Used</th>
                <th scope="col">Allowed</th>
                <th scope="col">
                  <span className="visually-hidden">Share used</span>
                </th>
              </tr>
            </thead>
            <tbody>{LIMIT_NAMES.map((name) => usageRow(name, name === 'seats' ? data.seatsUsed : data.usage[name], e.limits[name]))}</tbody>
          </table>
        </div>
        <ul className="billing-features" aria-label="Features of the plan">
          {FEATURE_FLAGS.map((flag) => (
            <li key={flag} className={e.features[flag] ? 'billing-feature--on' : 'billing-feature--off'}>
              <span aria-hidden="true">{e.features[flag] ? '✓' : '–'}</span> {FEATURE_LABELS[flag][0]!.toUpperCase() + FEATURE_LABELS[flag].slice(1)}
              {e.features[flag] ? ' included' : ' not included'}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
