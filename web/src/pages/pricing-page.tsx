import { Link } from 'react-router-dom';
import { FEATURE_LIST } from '../features/feature-list';
import { SIGN_UP_PATH } from '../layout/site-links';
import './content-page.css';
import './pricing.css';

/**
 * Active alerts a free account may keep: the `free` entry of ALERTS_PLAN_LIMITS' default
 * (jobs/src/alerts/alert-plans.ts). Every account is on it until billing adds paid plans.
 */
export const FREE_ALERT_LIMIT = 25;

/** What an account of this install gets: one line per feature of the build. */
export const INCLUDED = FEATURE_LIST.map((feature) => feature.planLine ?? feature.title);

export function PricingPage() {
  return (
    <div className="container page">
      <title>Pricing · Tickerbell</title>
      <header className="page-header">
        <p className="eyebrow">Plans</p>
        <h1>Pricing</h1>
        <p className="page-lede">
          Every account gets every feature of this install, free. Tickerbell is self-hostable: the operator of each
          install decides how many alerts an account may keep active.
        </p>
      </header>
      <ul className="plan-grid plan-grid--single">
        <li className="plan" aria-labelledby="plan-free">
          <h2 id="plan-free" className="plan__name">
            Free
          </h2>
          <p className="plan__summary">Everything Tickerbell does today, for every account.</p>
          <p className="plan__limit">Up to {FREE_ALERT_LIMIT} active alerts (the operator can change the limit)</p>
          <ul className="content-list">
            {INCLUDED.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </li>
      </ul>
      <section className="content-section" aria-labelledby="limits-title">
        <h2 id="limits-title">Limits</h2>
        <p>
          Only active alerts count toward the limit: turn an alert off and it no longer does. Followed exchanges,
          watchlists and notifications do not count toward it. See every feature on the{' '}
          <Link to="/features">features page</Link>, or ask about this install through the{' '}
          <Link to="/contact">contact form</Link>.
        </p>
        <Link to={SIGN_UP_PATH} className="button button--primary">
          Create a free account
        </Link>
      </section>
    </div>
  );
}
