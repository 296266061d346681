import { Link } from 'react-router-dom';
import { ContentPage, type ContentSection } from './content-page';

interface Feature {
  id: string;
  heading: string;
  what: string;
  how: readonly string[];
}

// One entry per capability of the product spec (section 1), in the spec's order.
export const FEATURES: readonly Feature[] = [
  {
    id: 'market-hours',
    heading: 'Market open and close notifications',
    what: 'Follow the exchanges you trade and get told when each one is about to open, opens, is about to close and closes.',
    how: [
      'Every exchange carries its opening and closing time (HH:MM), its IANA time zone and the weekdays it trades, so daylight-saving changes are handled by the exchange’s own clock, not yours.',
      'The check runs every 60 seconds. “Opening soon” fires 10 minutes or less before the open, “now open” within the first 2 minutes after it, “closing soon” 10 minutes or less before the close and “now closed” within 2 minutes after it.',
      'Each of the four events fires once per exchange per day, and all four reset at the exchange’s local midnight.',
    ],
  },
  {
    id: 'alerts',
    heading: 'Price and technical alerts',
    what: 'Set a condition on a symbol, such as a price crossing a level or an indicator signalling, and get notified when it triggers.',
    how: [
      'Alerts are evaluated by Tickerbell’s background workers as new prices arrive, so they fire while your browser is closed.',
      'Each trigger is written to an alert log you can review later, next to the price that caused it.',
      'How many alerts you can keep active depends on your plan (see Pricing).',
    ],
  },
  {
    id: 'crypto-alerts',
    heading: 'Crypto price alerts with spoken messages',
    what: 'Alerts on crypto prices that can read a message of your choice out loud.',
    how: [
      'Crypto alerts are checked every 30 seconds while a Tickerbell tab is visible.',
      'A triggered alert shows a “{name} Alert Triggered” notification, at most once per alert per day.',
      'If you turn on the spoken message, your browser’s speech synthesis reads it with the voice you picked, on windows wider than 768 px and only while sound is on.',
    ],
  },
  {
    id: 'watchlists',
    heading: 'Watchlists and saved chart layouts',
    what: 'Group the symbols you follow into watchlists and save chart layouts so each view opens the way you left it.',
    how: [
      'Symbols are unique across Tickerbell, so a symbol in two watchlists is the same instrument with the same data.',
      'Layouts are stored with your account, not in one browser, so they follow you between devices.',
    ],
  },
  {
    id: 'predictions',
    heading: 'Prediction-market tracking',
    what: 'Record your own probability for prediction-market questions, compare it with the market price and see how well you call outcomes.',
    how: [
      'Your prediction and the market price are stored as probabilities with four decimal places (0.0000 to 1.0000).',
      'When the market price and your estimate differ by more than your threshold, a mispricing alert tells you.',
      'Once markets resolve, your performance is scored so you can see whether your edge is real.',
    ],
  },
  {
    id: 'cot',
    heading: 'Futures positioning (COT)',
    what: 'The CFTC’s weekly Commitments of Traders reports turned into positioning you can read at a glance.',
    how: [
      'Each report’s positions become a net percentage of open interest for every trader group, then a percentile rank and a COT index against up to three years of history.',
      'Readings at or above 90 or at or below 10 are flagged as extremes, and a divergence figure shows when leveraged funds and asset managers are positioned against each other.',
      'The exact formulas are on the research page about COT.',
    ],
  },
  {
    id: 'chat',
    heading: 'Crypto chat rooms',
    what: 'Rooms for discussing crypto markets with other Tickerbell users.',
    how: [
      'Messages arrive live over the same stream as your notifications, so there is nothing to refresh.',
      'Each room has members with roles, so a room owner can keep the room on topic.',
    ],
  },
  {
    id: 'whales',
    heading: 'Large-wallet (whale) tracking',
    what: 'Follow wallets that move large amounts and get told when they do.',
    how: [
      'Tickerbell reads transactions of tracked wallets from the Ethereum network and records each transfer with its size.',
      'Transfers above the size you care about become notifications, so you see large moves as they happen.',
    ],
  },
  {
    id: 'lockups',
    heading: 'IPO lockup expirations',
    what: 'A calendar of the dates when insiders of recently listed companies may start selling.',
    how: [
      'Lockup periods are taken from the listing documents filed with the SEC and turned into expiry dates.',
      'You can see which expiries are coming up and how large they are compared with the shares already trading.',
    ],
  },
  {
    id: 'insiders',
    heading: 'Insider share trading',
    what: 'Purchases and sales by company officers and directors, as they are reported.',
    how: [
      'Tickerbell reads insider filings (SEC Form 4) from EDGAR and records who traded, what, how many shares and at what price.',
      'Filter by company or by insider to see patterns such as several directors buying in the same week.',
    ],
  },
  {
    id: 'yields',
    heading: 'Liquidity-pool yield analytics with alerts',
    what: 'Yield history for decentralised-finance liquidity pools, with alerts when a pool’s yield or size moves.',
    how: [
      'Pool yields and total value locked are collected on a schedule and kept as a time series.',
      'Set an alert on a pool to hear about a yield jump or a drop in liquidity before you add or remove funds.',
    ],
  },
  {
    id: 'teams',
    heading: 'Team accounts and paid subscriptions',
    what: 'Share Tickerbell with your desk or trading group, and upgrade when you need more.',
    how: [
      'Invite people to a team by email; an invitation stays pending until it is accepted.',
      'Team activity (alerts that fired, notifications sent) is logged so everyone sees what happened.',
      'Paid plans are handled by Stripe; your card details never touch Tickerbell’s servers.',
    ],
  },
  {
    id: 'notifications',
    heading: 'In-app notifications',
    what: 'One notification centre for every signal Tickerbell sends you.',
    how: [
      'New notifications arrive live, appear as a short toast in the bottom-right corner for 4 seconds and play a sound that matches their kind (success, warning, error or a default chime).',
      'The centre keeps your newest 50, newest first. Mark them read one at a time or all at once, or clear the list.',
      'Turn sound off in the dashboard settings if you only want to see alerts, not hear them.',
    ],
  },
  {
    id: 'theme',
    heading: 'Light and dark theme by time of day',
    what: 'A light theme by day and a dark one at night, or the one you prefer all the time.',
    how: [
      'In Auto mode Tickerbell is light from 06:00 until 18:00 your local time and dark otherwise, checking every minute.',
      'Choose Light or Dark to turn Auto off; Tickerbell remembers your choice in this browser.',
    ],
  },
  {
    id: 'install',
    heading: 'Installable web app',
    what: 'Install Tickerbell from your browser and run it in its own window, like a desktop or phone app.',
    how: [
      'Use your browser’s “Install” or “Add to Home Screen” command; Tickerbell then opens without browser toolbars.',
      'The installed app keeps its shell available offline and can receive push notifications when the window is closed.',
    ],
  },
];

const sections: ContentSection[] = FEATURES.map((feature) => ({
  id: feature.id,
  heading: feature.heading,
  body: (
    <>
      <p>{feature.what}</p>
      <h3 className="content-section__subheading">How it works</h3>
      <ul className="content-list">
        {feature.how.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  ),
}));

export function FeaturesPage() {
  return (
    <ContentPage
      title="Features"
      eyebrow="What Tickerbell does"
      lede={
        <p>
          Tickerbell watches markets so you do not have to stare at them. Here is every capability, what it
          does and how it works. Want to see it first? <Link to="/dashboard/demo">Open the demo dashboard</Link>.
        </p>
      }
      sections={sections}
    />
  );
}
