import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FEATURE_LIST } from '../features/feature-list';
import { SIGN_IN_PATH, SIGN_UP_PATH } from '../layout/site-links';
import { useSession } from '../accounts/session-provider';
import { createTeam, getTeams, type TeamSummary } from '../accounts/account-client';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import {
  FEATURE_FLAGS,
  FEATURE_LABELS,
  LIMIT_NAMES,
  formatAmount,
  formatLimit,
  getPricing,
  intervalLabel,
  navigation,
  startCheckout,
  type PlanBody,
  type PriceBody,
  type PricingBody,
} from '../billing/billing-client';
import './content-page.css';
import './pricing.css';
import '../billing/billing.css';

/** What an account of this install gets: one line per feature of the build. */
export const INCLUDED = FEATURE_LIST.map((feature) => feature.planLine ?? feature.title);

/** The limits a plan card lists (seats last: they are the team's). */
const CARD_LIMITS = LIMIT_NAMES;

type OnSalePlan = PricingBody['plans'][number];

/** The billing intervals on sale, monthly first. */
function intervalsOf(plans: readonly OnSalePlan[]): string[] {
  const found = new Set(plans.flatMap((plan) => plan.prices.map((price) => price.interval ?? 'once')));
  return ['month', 'year', 'week', 'day', 'once'].filter((interval) => found.has(interval));
}

function priceFor(plan: OnSalePlan, interval: string | null): PriceBody | null {
  return plan.prices.find((price) => (price.interval ?? 'once') === interval) ?? plan.prices[0] ?? null;
}

function PlanLimits({ plan }: { plan: PlanBody }) {
  return (
    <ul className="plan__limits">
      {CARD_LIMITS.map((name) => (
        <li key={name}>{formatLimit(name, plan.limits[name])}</li>
      ))}
      {FEATURE_FLAGS.map((flag) => (
        <li key={flag}>
          {FEATURE_LABELS[flag][0]!.toUpperCase() + FEATURE_LABELS[flag].slice(1)}
          {plan.features[flag] ? '' : ': not included'}
        </li>
      ))}
    </ul>
  );
}

export function PricingPage() {
  const [params] = useSearchParams();
  const [result, , retry] = useRequest('pricing', (signal) => getPricing(signal));
  const pricing = shownData(result);
  const canceled = params.get('checkout') === 'canceled';

  return (
    <div className="container page">
      <title>Pricing · Tickerbell</title>
      <header className="page-header">
        <p className="eyebrow">Plans</p>
        <h1>Pricing</h1>
        <p className="page-lede">
          {pricing === null
            ? 'Every account gets every feature; plans differ in how many alerts, watches and seats they allow.'
            : pricing.billing === 'on'
              ? 'Start free with every feature. When you need more alerts, watches and seats, choose a plan for your team: every member gets its limits, and you pay per seat.'
              : 'Every account gets every feature of this install. Tickerbell is self-hostable: the operator of each install decides how many alerts and other items an account may keep.'}
        </p>
      </header>
      {canceled && (
        <p className="form-message" role="status">
          Checkout was canceled: nothing was charged and your plan is unchanged.
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="The plans" message={result.message} onRetry={retry} />}
      {!pricing && result.state === 'loading' && (
        <ul className="plan-grid" aria-busy="true" aria-label="Loading the plans">
          {[0, 1, 2].map((i) => (
            <li key={i} className="plan pricing-skeleton">
              <span className="skeleton skeleton--text" style={{ width: '40%' }} />
              <span className="skeleton skeleton--text" style={{ width: '70%' }} />
              <span className="skeleton skeleton--text" style={{ width: '55%' }} />
            </li>
          ))}
        </ul>
      )}
      {pricing?.billing === 'off' && <SelfHostedPlans pricing={pricing} />}
      {pricing?.billing === 'on' && <PlansOnSale pricing={pricing} />}
      <section className="content-section" aria-labelledby="included-title">
        <h2 id="included-title">Every plan includes</h2>
        <ul className="content-list">
          {INCLUDED.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p>
          Only active alerts count toward the alert limit: turn an alert off and it no longer does. Reading is never limited. See every feature on the{' '}
          <Link to="/features">features page</Link>, or ask a question through the <Link to="/contact">contact form</Link>.
        </p>
      </section>
    </div>
  );
}

function SelfHostedPlans({ pricing }: { pricing: PricingBody }) {
  const plan = pricing.plans[0] ?? pricing.defaultPlan;
  const { status } = useSession();
  return (
    <>
      <p className="form-message" role="note">
        This install is self-hosted: billing is off, so there is nothing to pay. Every account and team has the {plan.name.toLowerCase()} plan below.
      </p>
      <ul className="plan-grid plan-grid--single">
        <li className="plan" aria-labelledby="plan-self-hosted">
          <h2 id="plan-self-hosted" className="plan__name">
            {plan.name}
          </h2>
          <p className="plan__summary">{plan.summary}</p>
          <p className="plan__price">Free</p>
          <PlanLimits plan={plan} />
          {status !== 'authenticated' && (
            <Link to={SIGN_UP_PATH} className="button button--primary">
              Create a free account
            </Link>
          )}
        </li>
      </ul>
    </>
  );
}

function PlansOnSale({ pricing }: { pricing: PricingBody }) {
  const { status } = useSession();
  const [params] = useSearchParams();
  const signedIn = status === 'authenticated';
  const intervals = useMemo(() => intervalsOf(pricing.plans), [pricing.plans]);
  const [interval, setInterval] = useState<string | null>(intervals[0] ?? null);
  const [teams, setTeams] = useState<TeamSummary[] | null>(null);
  const [teamId, setTeamId] = useState<number | null>(Number(params.get('team')) || null);
  const [teamName, setTeamName] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    getTeams(controller.signal)
      .then((all) => {
        const manageable = all.filter((team) => team.role !== 'member');
        setTeams(manageable);
        setTeamId((current) => (manageable.some((team) => team.id === current) ? current : (manageable[0]?.id ?? null)));
      })
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setError(messageOf(caught));
      });
    return () => controller.abort();
  }, [signedIn]);

  const choose = async (price: PriceBody, event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    setBusy(price.id);
    setError(null);
    try {
      let id = teamId;
      if (id === null) {
        const name = teamName.trim();
        if (!name) throw new Error('Name your team first: the plan is the team’s, and you pay per member.');
        id = (await createTeam(name)).id;
      }
      const { url } = await startCheckout(id, price.id);
      navigation.assign(url);
    } catch (caught) {
      setError(caught instanceof Error && !('status' in caught) ? caught.message : messageOf(caught));
      setBusy(null);
    }
  };

  const noTeam = signedIn && teams !== null && teams.length === 0;
  return (
    <>
      {intervals.length > 1 && (
        <div className="plan-interval" role="group" aria-label="Billing interval">
          {intervals.map((value) => (
            <button key={value} type="button" aria-pressed={interval === value} onClick={() => setInterval(value)}>
              {intervalLabel(value === 'once' ? null : value)}
            </button>
          ))}
        </div>
      )}
      {signedIn && teams !== null && teams.length > 1 && (
        <div className="form-field billing-team-picker">
          <label className="form-field__label" htmlFor="pricing-team">
            Team to upgrade
          </label>
          <select id="pricing-team" className="form-field__input" value={teamId ?? ''} onChange={(event) => setTeamId(Number(event.target.value))}>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {signedIn && teams !== null && teams.length === 1 && (
        <p className="form-field__hint" role="status">
          Choosing a plan for {teams[0]!.name}: you pay per member, and every member gets the plan’s limits.
        </p>
      )}
      {noTeam && (
        <div className="plan-team-form">
          <div className="form-field">
            <label className="form-field__label" htmlFor="pricing-team-name">
              Team name
            </label>
            <input id="pricing-team-name" className="form-field__input" value={teamName} maxLength={100} onChange={(event) => setTeamName(event.target.value)} placeholder="e.g. Morning desk" />
            <span className="form-field__hint">Plans are per team: you become its owner and can invite colleagues later.</span>
          </div>
        </div>
      )}
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
      <ul className="plan-grid">
        <li className="plan" aria-labelledby="plan-free">
          <h2 id="plan-free" className="plan__name">
            {pricing.defaultPlan.name}
          </h2>
          <p className="plan__summary">{pricing.defaultPlan.summary}</p>
          <p className="plan__price">{formatAmount('0', pricing.plans[0]?.prices[0]?.currency ?? 'usd')}</p>
          <PlanLimits plan={pricing.defaultPlan} />
          {!signedIn && (
            <Link to={SIGN_UP_PATH} className="button button--secondary">
              Create a free account
            </Link>
          )}
        </li>
        {pricing.plans.map((plan) => {
          const price = priceFor(plan, interval);
          const id = `plan-${plan.key}`;
          return (
            <li key={plan.key} className="plan" aria-labelledby={id}>
              <h2 id={id} className="plan__name">
                {plan.productName ?? plan.name}
              </h2>
              <p className="plan__summary">{plan.description ?? plan.summary}</p>
              {price && (
                <p className="plan__price">
                  {formatAmount(price.unitAmount, price.currency)} <small>per seat{price.interval ? ` / ${price.interval}` : ''}</small>
                </p>
              )}
              {price?.trialPeriodDays ? <p className="plan__trial">{price.trialPeriodDays}-day free trial</p> : null}
              <PlanLimits plan={plan} />
              <div className="plan__choose">
                {!price ? (
                  <p className="form-field__hint">Not on sale at the moment.</p>
                ) : signedIn ? (
                  <button type="button" className="button button--primary" disabled={busy !== null || teams === null} onClick={() => void choose(price)} aria-label={`Choose ${plan.productName ?? plan.name}`}>
                    {busy === price.id ? 'Opening checkout…' : `Choose ${plan.productName ?? plan.name}`}
                  </button>
                ) : (
                  <>
                    <Link to={`${SIGN_UP_PATH}?plan=${plan.key}`} className="button button--primary">
                      Sign up to choose {plan.productName ?? plan.name}
                    </Link>
                    <span className="form-field__hint">
                      Have an account? <Link to={`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent('/pricing')}`}>Sign in</Link>
                    </span>
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
