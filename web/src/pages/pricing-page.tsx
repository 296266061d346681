import { Link } from 'react-router-dom';
import { SIGN_UP_PATH } from '../layout/site-links';
import './content-page.css';
import './pricing.css';

export interface Plan {
  id: 'free' | 'pro' | 'team';
  name: string;
  summary: string;
  /** Active price/technical and crypto alerts allowed at once. */
  alertLimit: string;
  includes: readonly string[];
}

// Default plan contents of a Tickerbell install. The spec leaves prices and limits to the
// operator; these are the limits the product ships with.
export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    summary: 'For getting to know Tickerbell and following a few markets.',
    alertLimit: 'Up to 5 active alerts',
    includes: [
      'Market open and close notifications for every exchange',
      'In-app notifications with sounds, and spoken crypto alerts',
      'One watchlist and one saved chart layout',
      'COT positioning, insider trades and IPO lockup calendar',
      'Light, dark and automatic theme; installable app',
    ],
  },
  {
    id: 'pro',
    name: 'Pro',
    summary: 'For active traders who rely on alerts every day.',
    alertLimit: 'Up to 100 active alerts',
    includes: [
      'Everything in Free',
      'Unlimited watchlists and chart layouts',
      'Whale wallet tracking and liquidity-pool yield alerts',
      'Prediction-market tracking with mispricing alerts and performance',
      'Web push, email and Telegram delivery of alerts',
    ],
  },
  {
    id: 'team',
    name: 'Team',
    summary: 'For desks and trading groups that share their view of the market.',
    alertLimit: 'Up to 100 active alerts per member',
    includes: [
      'Everything in Pro for every member',
      'Invite members by email and manage their roles',
      'Shared team activity log of alerts and notifications',
      'Crypto chat rooms for your team',
      'One subscription and one invoice for the whole team',
    ],
  },
];

export function PricingPage() {
  return (
    <div className="container page">
      <title>Pricing · Tickerbell</title>
      <header className="page-header">
        <p className="eyebrow">Plans</p>
        <h1>Pricing</h1>
        <p className="page-lede">
          Start free, upgrade when your alerts outgrow it. Tickerbell is self-hostable: the operator of each
          install sets the prices, and payments are handled by Stripe, so card details never reach
          Tickerbell’s servers.
        </p>
      </header>
      <ul className="plan-grid">
        {PLANS.map((plan) => (
          <li key={plan.id} className="plan" aria-labelledby={`plan-${plan.id}`}>
            <h2 id={`plan-${plan.id}`} className="plan__name">
              {plan.name}
            </h2>
            <p className="plan__summary">{plan.summary}</p>
            <p className="plan__limit">{plan.alertLimit}</p>
            <ul className="content-list">
              {plan.includes.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <section className="content-section" aria-labelledby="billing-title">
        <h2 id="billing-title">Prices and billing</h2>
        <p>
          Prices are set by whoever runs the Tickerbell install you use, in their Stripe account; the checkout
          page shows the current price and currency before you pay. Subscriptions renew each billing period
          until you cancel; a cancellation takes effect at the end of the period you have paid for, and you keep
          paid features until then. Team plans are billed once for the whole team.
        </p>
        <p>
          Running your own install? Create the plans as products in Stripe and Tickerbell mirrors them. Questions
          about a plan: <Link to="/contact">contact us</Link>.
        </p>
        <Link to={SIGN_UP_PATH} className="button button--primary">
          Create a free account
        </Link>
      </section>
    </div>
  );
}
