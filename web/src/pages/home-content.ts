// Copy for the home page: one entry per capability in the product spec (section 1).
// Ids are the feature names used across the codebase.

export interface Capability {
  id: string;
  title: string;
  body: string;
}

export interface CapabilityGroup {
  id: string;
  title: string;
  intro: string;
  capabilities: readonly Capability[];
}

export const CAPABILITY_GROUPS: readonly CapabilityGroup[] = [
  {
    id: 'watch',
    title: 'Stay on top of the tape',
    intro: 'The basics every trader needs, done properly: the right signal at the right moment.',
    capabilities: [
      {
        id: 'market-hours',
        title: 'Market open and close notifications',
        body: 'Pick the exchanges you trade. Tickerbell tells you when each one is ten minutes from the open, when it opens, when it is ten minutes from the close and when it closes, in the exchange’s own time zone and once per session.',
      },
      {
        id: 'alerts',
        title: 'Price and technical alerts',
        body: 'Set conditions on the markets you follow, from a price crossing a level to a technical signal firing, and get notified the moment they trigger, with a log of every time an alert fired.',
      },
      {
        id: 'crypto-alerts',
        title: 'Crypto alerts you can hear',
        body: 'Crypto price alerts are checked every 30 seconds and can speak a message you write, so you hear the level break without watching the screen. Each alert notifies you at most once a day.',
      },
      {
        id: 'watchlists',
        title: 'Watchlists and saved chart layouts',
        body: 'Group symbols into watchlists in the order you want, and save chart layouts so your setup is waiting for you the next time you sign in.',
      },
      {
        id: 'notifications',
        title: 'In-app notifications',
        body: 'Every alert and market event lands in one notification centre with unread markers. Mark items read one at a time or all at once, and clear the list when you are done.',
      },
    ],
  },
  {
    id: 'research',
    title: 'Follow the money that moves markets',
    intro: 'Positioning and filings data that usually sits in spreadsheets, cleaned up and scored.',
    capabilities: [
      {
        id: 'cot',
        title: 'Futures positioning (COT)',
        body: 'Weekly Commitments of Traders data from the CFTC, split into dealers, asset managers, leveraged funds and other reportables. Each group’s net position is ranked against its own history, with extremes and divergences between groups flagged.',
      },
      {
        id: 'insiders',
        title: 'Insider share trading',
        body: 'Trades by officers, directors and 10% owners from SEC Form 4 filings, summarised per company over 30 days: buys against sells, net value, and a flag when activity is unusual for that company.',
      },
      {
        id: 'whales',
        title: 'Whale wallet tracking',
        body: 'Follow large Ethereum wallets, including known exchange addresses, and add your own labels. Get an alert when a wallet you watch moves more than the threshold you set.',
      },
      {
        id: 'lockups',
        title: 'IPO lockup expirations',
        body: 'A calendar of upcoming lockup expirations with the share of stock being unlocked, whether the company is venture-backed and a risk score, so a wave of new supply does not catch you off guard.',
      },
    ],
  },
  {
    id: 'edge',
    title: 'Find an edge',
    intro: 'Tools for markets where prices and probabilities drift apart.',
    capabilities: [
      {
        id: 'predictions',
        title: 'Prediction-market tracking',
        body: 'Follow Polymarket questions, record your own forecasts and see how they score over time with accuracy, Brier score and calibration. Markets whose price strays from an estimate of fair value are flagged as possible mispricings.',
      },
      {
        id: 'yields',
        title: 'Liquidity-pool yield analytics',
        body: 'Compare Uniswap v3 pools by fees, volume, liquidity and APR, and set alerts for when a pool’s yield crosses the level you care about, delivered in the app, by email or on Telegram.',
      },
    ],
  },
  {
    id: 'together',
    title: 'Built for your desk',
    intro: 'Whether you trade alone or with a team, on a big screen or on your phone.',
    capabilities: [
      {
        id: 'chat',
        title: 'Crypto chat rooms',
        body: 'Talk markets in rooms for each trading pair. Reply to messages, react, and decide which rooms may play a sound or show a desktop notification.',
      },
      {
        id: 'accounts',
        title: 'Team accounts and subscriptions',
        body: 'Invite colleagues to a team, share one subscription and keep an activity log of who joined, who changed what and which alerts fired.',
      },
      {
        id: 'theme',
        title: 'Light and dark, on a schedule',
        body: 'Choose light or dark, or let Tickerbell switch for you: light from 06:00, dark from 18:00, so late sessions stay easy on the eyes.',
      },
      {
        id: 'install',
        title: 'Install it like an app',
        body: 'Add Tickerbell to your home screen or dock and it opens in its own window with notifications, just like a native app.',
      },
    ],
  },
];

export interface ExampleNotification {
  title: string;
  message: string;
  tone: 'info' | 'success' | 'warning';
}

// Worded like the notifications the product sends (spec section 9).
export const EXAMPLE_NOTIFICATIONS: readonly ExampleNotification[] = [
  { title: 'NYSE opening soon', message: 'New York Stock Exchange will open in 10 minutes.', tone: 'warning' },
  { title: 'BTC breakout Alert Triggered', message: 'Bitcoin crossed above your alert level.', tone: 'success' },
  { title: 'Tokyo Stock Exchange now closed', message: 'Tokyo Stock Exchange has closed for trading.', tone: 'info' },
];
