// The features this build has, with their public copy. Home, Features, Pricing and Research render
// from this list, so the public site describes only what works. A domain adds its entry here in the
// change that lands it (docs/adding-a-feature.md); until then no public page may name it
// (web/src/pages/public-copy.test.tsx reads every public page to check).

/** Names of the icons in feature-icon.tsx. */
export type FeatureIconName = 'clock' | 'bell' | 'pulse' | 'list' | 'inbox' | 'positions' | 'people' | 'contrast' | 'install';

/** Where a feature is introduced on the home page. */
export type FeatureGroupId = 'watch' | 'research' | 'desk';

export interface FeatureGroup {
  id: FeatureGroupId;
  title: string;
  intro: string;
}

export interface Feature {
  /** Its name as used across the codebase: the domain (`cot`, `market-hours`) or the web capability (`theme`). */
  id: string;
  title: string;
  /** One paragraph: the home page's card. */
  blurb: string;
  icon: FeatureIconName;
  /** Where it is used: a dashboard route, or a public page for site-wide features. */
  route: string;
  group: FeatureGroupId;
  /** The features page's "How it works". */
  details: readonly string[];
  /** What it brings to a plan (the pricing page); defaults to its title. */
  planLine?: string;
  /** Its public data source, for the research page. */
  source?: string;
  /** How its numbers are computed, for the research page. */
  method?: { heading?: string; text: string; link?: { to: string; label: string } };
}

export const FEATURE_GROUPS: readonly FeatureGroup[] = [
  { id: 'watch', title: 'Stay on top of the tape', intro: 'The basics every trader needs, done properly: the right signal at the right moment.' },
  { id: 'research', title: 'Follow the money that moves markets', intro: 'Positioning data that usually sits in spreadsheets, cleaned up and scored.' },
  { id: 'desk', title: 'Built for your desk', intro: 'Whether you trade alone or with a team, on a big screen or on your phone.' },
];

export const FEATURE_LIST: readonly Feature[] = [
  {
    id: 'market-hours',
    title: 'Market open and close notifications',
    blurb:
      'Follow the exchanges you trade. Tickerbell tells you when each one is ten minutes from the open, when it opens, when it is ten minutes from the close and when it closes, in the exchange’s own time zone and once per session.',
    icon: 'clock',
    route: '/dashboard/exchanges',
    group: 'watch',
    details: [
      'More than 30 exchange calendars carry their opening and closing times, lunch breaks, holidays and early closes in each exchange’s IANA time zone, so daylight-saving changes are handled by the exchange’s own clock, not yours.',
      '“Opening soon” arrives 10 minutes before the open, “now open” at the open, “closing soon” 10 minutes before the close (the early close on short days) and “now closed” at the close.',
      'Each event reaches you once per exchange and trading day, and the exchanges page shows every market’s status with a countdown to its next open, break or close.',
    ],
    planLine: 'Open and close notifications for every exchange',
    source: 'Exchange sessions: the bundled exchange calendars (regular hours, lunch breaks, holidays and early closes).',
    method: {
      heading: 'Market hours',
      text: 'Exchange sessions are computed in each exchange’s IANA time zone from its opening time, closing time, lunch break and trading weekdays, less its holidays. A market counts as open from its opening minute up to, but not including, its closing minute, and as at lunch during its break.',
    },
  },
  {
    id: 'alerts',
    title: 'Price and technical alerts, spoken if you like',
    blurb:
      'Set conditions on the markets you follow, from a price crossing a level to an RSI or moving-average signal, and get notified the moment they trigger, out loud if you want, with a log of every time an alert fired.',
    icon: 'bell',
    route: '/dashboard/alerts',
    group: 'watch',
    details: [
      'Alerts are checked by Tickerbell’s background workers as new prices arrive and as bars close, so they fire while your browser is closed.',
      'Choose how often an alert may fire: once, once a day or every time with a cooldown, and when it expires. Each firing is written once to the alert’s log with the price that caused it.',
      'Delivery: in the app, live on screen, by web push, by email and to a signed webhook. Turn on a spoken message and your browser reads it with the voice you picked.',
    ],
    planLine: 'Price and technical alerts with in-app, push, email and webhook delivery',
  },
  {
    id: 'prices',
    title: 'Live quotes and candles',
    blurb: 'Latest prices and candles for the markets on your watchlists and alerts: crypto every 10 seconds, stocks every minute while their exchange is open.',
    icon: 'pulse',
    route: '/dashboard/watchlists',
    group: 'watch',
    details: [
      'Only the markets someone watches or alerts on are polled, so the sources’ rate limits go to what matters.',
      'Where no live source is configured, a simulated feed fills in and every price from it is labelled as simulated.',
      'Prices arrive on your screen live, without a refresh.',
    ],
    planLine: 'Live quotes and OHLCV candles',
    source: 'Prices: the exchanges’ and data vendors’ public market-data APIs for crypto and US stocks; a labelled simulated feed where none is configured.',
  },
  {
    id: 'watchlists',
    title: 'Watchlists and saved chart layouts',
    blurb:
      'Group symbols into watchlists in the order you want, chart them with volume and indicators, and save chart layouts so your setup is waiting for you the next time you sign in.',
    icon: 'list',
    route: '/dashboard/watchlists',
    group: 'watch',
    details: [
      'Drag symbols into the order you want; import and export a list as CSV.',
      'Charts draw candles and volume with SMA, EMA, RSI and MACD.',
      'Layouts are stored with your account, not in one browser, so they follow you between devices; one of them is your default.',
    ],
  },
  {
    id: 'news',
    title: 'News and SEC filings beside your charts',
    blurb:
      'Headlines from crypto news feeds and the SEC’s current filings, tied to the markets they are about. The chart and watchlist pages show the news of the symbol you are looking at, newest first, with a link to the original.',
    icon: 'inbox',
    route: '/dashboard/charts',
    group: 'watch',
    details: [
      'News feeds (CoinDesk, Cointelegraph and Decrypt unless the operator lists others) and the SEC’s current filings are read every few minutes; an item seen again is not stored twice.',
      'An item is about a market when it names its ticker as a whole word (or after an exchange prefix such as NASDAQ:AAPL), its cashtag such as $BTC, or its company or coin name; a filing is about the company that filed it. A ticker inside a longer word never counts.',
      'Each headline shows its source, when it was published and what tied it to the market, and opens the article or filing in a new tab.',
    ],
    planLine: 'Market news and SEC filings on every chart and watchlist',
    source: 'News: the publishers’ public RSS and Atom feeds, and the SEC’s current filings feed.',
  },
  {
    id: 'notifications',
    title: 'Notifications in the app, by push and by email',
    blurb:
      'Every alert and market event lands in one notification centre with unread markers, arrives live while Tickerbell is open, and can reach you by web push or email when it is not.',
    icon: 'inbox',
    route: '/dashboard/activity',
    group: 'watch',
    details: [
      'New notifications arrive live, appear as a short toast and play a sound that matches their kind.',
      'Mark them read one at a time or all at once, or clear the list; the activity page keeps your full history.',
      'Turn sound and web push on or off in the dashboard settings.',
    ],
    planLine: 'In-app notifications with sounds, web push and email',
  },
  {
    id: 'cot',
    title: 'Futures positioning (COT)',
    blurb:
      'Weekly Commitments of Traders data from the CFTC, split into dealers, asset managers, leveraged funds and other reportables. Each group’s net position is ranked against its own history, with extremes and divergences between groups flagged.',
    icon: 'positions',
    route: '/dashboard/cot',
    group: 'research',
    details: [
      'Each report’s positions become a net percentage of open interest for every trader group, then a percentile rank and a COT index against up to three years of history.',
      'Readings at or above 90 or at or below 10 are flagged as extremes, and a divergence figure shows when leveraged funds and asset managers are positioned against each other.',
      'Follow an instrument to be notified when a new report puts it at an extreme.',
    ],
    planLine: 'COT positioning screener and instrument charts',
    source: 'Futures positioning: the CFTC’s weekly Commitments of Traders reports (Traders in Financial Futures).',
    method: {
      text: 'Net positioning, percentile ranks, the COT index, extremes and the divergence between leveraged funds and asset managers.',
      link: { to: '/research/cot', label: 'Read the COT definitions' },
    },
  },
  {
    id: 'insiders',
    title: 'Insider trades from SEC Form 4',
    blurb:
      'Every Form 4 that officers, directors and 10% owners file with the SEC, stored line by line within a minute of EDGAR. A screener with cluster buys and officer purchases, sentiment that counts only open-market buying and selling, and alerts on the companies you follow.',
    icon: 'people',
    route: '/dashboard/insiders',
    group: 'research',
    details: [
      'New filings are read from EDGAR’s current-filings feed every minute, with the daily form index as a backstop, and every transaction line is kept, including joint filers, derivative lines and amendments that replace the lines they correct.',
      'Only open-market purchases (P) and sales (S) count as buying and selling; grants, exercises, gifts and tax withholding are shown but never counted, and trades under a 10b5-1 plan are left out of the sentiment.',
      'Follow a company to be notified of a cluster buy (3 or more insiders buying within 30 days), an officer or director purchase above the value you choose, or unusual activity, each with the reason and links to the filings.',
    ],
    planLine: 'Insider trades screener, cluster buys and company alerts',
    source: 'Insider trades: the SEC’s EDGAR Form 4 filings (current-filings feed, daily form indexes and company submissions).',
    method: {
      heading: 'Insider trades',
      text: 'Sentiment over 30 days from role-weighted discretionary open-market purchases and sales, cluster buys of 3 or more insiders, and routine versus opportunistic insiders (Cohen, Malloy and Pomorski).',
      link: { to: '/research/insiders', label: 'See the latest cluster buys and the definitions' },
    },
  },
  {
    id: 'whales',
    title: 'Whale transfers on Ethereum',
    blurb:
      'A Whale Alert-style live feed of large ETH and token transfers, valued in US dollars at the block’s time, with exchange deposits and withdrawals named. Watch any wallet to be alerted when it moves funds, and follow each exchange’s netflow.',
    icon: 'pulse',
    route: '/dashboard/whales',
    group: 'research',
    details: [
      'Confirmed Ethereum blocks are read as they arrive (after 12 confirmations); every ETH transfer and token Transfer event is kept, and a chain reorganisation removes the transfers of the replaced blocks.',
      'Each transfer is valued at the price of its block’s minute; a transfer of $1,000,000 or more (the operator’s threshold) is a whale transfer, and exchange wallets from a maintained public label list mark inflows and outflows.',
      'Watch an address with your own label and US dollar threshold, and choose alerts immediately or as an hourly or daily digest; an alert for a transfer later undone by a reorganisation is corrected.',
    ],
    planLine: 'Live whale transfer feed, exchange netflow and wallet alerts',
    source: 'Whale transfers: Ethereum mainnet blocks and token Transfer events read from an Ethereum node, valued with the stored ETH prices and a public token price aggregator.',
    method: {
      heading: 'Whale transfers',
      text: 'US dollar values at block time, the global whale threshold, exchange inflow and outflow from labelled wallets, and hourly and daily netflow per exchange.',
      link: { to: '/research/whales', label: 'See the largest transfers of the last day' },
    },
  },
  {
    id: 'yields',
    title: 'Liquidity-pool yields you can audit',
    blurb:
      'DeFi pool yields from DefiLlama and Uniswap with Tickerbell’s own fee APR beside the advertised APY, a flag when the two disagree, and a 0 to 100 score whose every part is shown. Set alerts on APR, a yield spike, a TVL drop or volume/TVL, by push, email or Telegram, that do not flap around your level.',
    icon: 'pulse',
    route: '/dashboard/yields',
    group: 'research',
    details: [
      'DefiLlama’s list of pools is read every hour; the biggest pools of each chain, and every pool someone has an alert on, get a stored snapshot each hour, with Uniswap v3’s daily volume, fees and TVL.',
      'Fee APR over 24 hours, 7 days and 30 days is computed from fees and average TVL and shown beside DefiLlama’s APY, its base and reward parts, with a flag when they disagree beyond a stated tolerance.',
      'Alerts on APR above or below a level, an APR spike over its 30-day mean, a TVL drop within a window, or volume/TVL above a level; after firing, an alert waits for its cooldown and re-arms only once the value is back past the threshold.',
    ],
    planLine: 'Pool yields, explained scores and yield alerts by push, email and Telegram',
    source: 'Liquidity-pool yields: DefiLlama’s public yields API and the Uniswap v3 subgraph.',
    method: {
      heading: 'Liquidity-pool yields',
      text: 'Fee APR = fees × 365 / average TVL over 24 hours, 7 and 30 days; volume/TVL; the disagreement flag against DefiLlama’s APY; and a score from seven weighted parts (fee APR, volume/TVL, TVL stability, mu against sigma, the outlier flag, the organic share of the APY, closeness to the 30-day mean).',
      link: { to: '/research/yields', label: 'See the top pools and their score breakdown' },
    },
  },
  {
    id: 'predictions',
    title: 'Prediction markets and an honest forecasting scorecard',
    blurb:
      'Polymarket’s markets with their prices read as probabilities. Record your own forecast as a probability, a percentage or odds, and a scorecard tells you whether you beat the market price at the moment you forecast, with calibration, Brier and log scores, and alerts when a market looks mispriced.',
    icon: 'positions',
    route: '/dashboard/predictions',
    group: 'research',
    details: [
      'Open markets are read from Polymarket every few minutes, new, changed and closed ones alike, and Tickerbell keeps its own price snapshot every 15 minutes of every market someone forecasts or follows, so a market’s chart survives its resolution.',
      'Type a forecast as 0.62, 62 % or odds of 3:2. Every edit stays in your history, and each forecast is scored against the market price of its own moment: accuracy, the Brier and log scores beside the market’s, calibration in ten bins with 95 % intervals, scores by month, and your best and weakest categories.',
      'A market is flagged as mispriced when the price you could actually trade at, after fees, is away from a fair value: the consensus of Tickerbell’s forecasters weighted by their track record, or what the other outcomes of the same event imply. Follow a market or a category to be notified.',
    ],
    planLine: 'Prediction market browser, forecast scorecard and mispricing alerts',
    source: 'Prediction markets: Polymarket’s public market data (the Gamma markets and events API and order book prices), with Tickerbell’s own price snapshots.',
    method: {
      heading: 'Prediction markets',
      text: 'Brier score (the mean squared difference between forecast and outcome), log score (the mean log of the probability given to what happened), the reliability, resolution and uncertainty decomposition, calibration bins with Wilson 95 % intervals, and skill: the same scores of the market price at each forecast’s moment, compared with yours.',
      link: { to: '/research/predictions', label: 'See the markets now and how our forecasters score' },
    },
  },
  {
    id: 'lockups',
    title: 'IPO lock-up expirations, scored',
    blurb:
      'The day insiders and early investors may first sell after an IPO, read from the prospectus itself, one row per release step. Each expiry gets a 0 to 100 score for the selling pressure studies find, with every factor shown, and alerts 14, 7 or 1 days before.',
    icon: 'clock',
    route: '/dashboard/lockups',
    group: 'research',
    details: [
      'Final prospectuses (424B4) are found in SEC EDGAR’s daily index and read for the lock-up period, who is bound, staged releases and early-release price triggers; the clause is kept and quoted. Wording that is not read with certainty is marked for review, never given a guessed date.',
      'The score adds named factors with their weights and studies: VC backing, the share of the float unlocking, the run-up since the IPO, recent volume, a high-tech or biotech sector and the underwriters’ tier. Price triggers are checked daily against closing prices.',
      'A month calendar and a list filtered by score, share of the float, industry and VC backing; follow a ticker or every lock-up above a score to be notified before the date and on the day.',
    ],
    planLine: 'IPO lock-up calendar, risk scores and expiry alerts',
    source: 'IPO lock-ups: the final prospectuses (424B4) filed on SEC EDGAR, shares outstanding from the SEC’s XBRL company facts, and daily prices from the prices feature.',
    method: {
      heading: 'IPO lock-ups',
      text: 'Expiry = the prospectus date plus the lock-up period, per release step; a 0–100 score summing VC backing, float unlocking, run-up, volume, sector and underwriter tier (Field and Hanka 2001; Brav and Gompers 2003; Bradley et al. 2001).',
      link: { to: '/research/lockups', label: 'See the lock-ups ending in the next 30 days' },
    },
  },
  {
    id: 'chat',
    title: 'Trader chat rooms, live and calm',
    blurb:
      'A room for each major pair and general rooms, as live as the price feed: $BTC-style cashtags show the latest price, each message can carry a bullish or bearish tag, replies open a thread beside the room, and the rooms with unread messages and mentions of you come first.',
    icon: 'people',
    route: '/dashboard/chat',
    group: 'watch',
    details: [
      'Messages reach everyone in the room the moment they are posted, with reactions, edits, typing and who is online; a room opens at your first unread message, and unread and mention counts are kept by the server, so every tab and device agrees.',
      'Mentions and replies to your messages are gathered in one view and notified even in rooms you set to mentions only; mute a room for an hour, eight hours or until you unmute it, and choose sounds and desktop notifications.',
      'Moderators delete messages, mute and ban members citing the rule broken, work through reported messages and keep an audit log; posting is rate-limited, rooms can run in slow mode, new accounts cannot post links, and you can block anyone.',
    ],
    planLine: 'Live chat rooms with cashtag prices, threads and mentions',
  },
  {
    id: 'accounts',
    title: 'Accounts and teams',
    blurb: 'Sign in with a password or Google, invite colleagues to a team with their roles, and keep an activity log of who joined and what changed.',
    icon: 'people',
    route: '/dashboard/settings',
    group: 'desk',
    details: [
      'Sign in with an email and password or with Google; sessions are protected by HTTP-only cookies and CSRF tokens.',
      'Invite people to a team by email; an invitation stays pending until it is accepted.',
      'Deleting your account removes your alerts, follows and subscriptions at once.',
    ],
    planLine: 'Teams with invitations, roles and an activity log',
  },
  {
    id: 'billing',
    title: 'Team plans, or everything free when self-hosted',
    blurb:
      'Run your own install and every feature is yours, within the limits you set. On a hosted install, a team starts free and upgrades to Pro or Team through Stripe Checkout, pays per seat, and manages invoices and cards in Stripe’s customer portal.',
    icon: 'install',
    route: '/dashboard/settings/billing',
    group: 'desk',
    details: [
      'Without Stripe keys billing is off: every team has the self-hosted plan, whose limits the operator sets (unlimited by default), and the pricing page says so.',
      'With billing on, a team owner or admin chooses a plan; the subscription counts one seat per member and follows the team as people join or leave, with a free trial where the plan has one.',
      'Every limit (active alerts, watchlists, watched wallets, follows, seats) and paid feature (alert webhooks, Telegram) is checked in one place. A failed payment keeps everything working for a grace period, then the account turns read-only: nothing is deleted.',
    ],
    planLine: 'Per-team plans with seats, or every feature free on a self-hosted install',
  },
  {
    id: 'theme',
    title: 'Light and dark, on a schedule',
    blurb: 'Choose light or dark, or let Tickerbell switch for you: light from 06:00, dark from 18:00, so late sessions stay easy on the eyes.',
    icon: 'contrast',
    route: '/dashboard/settings',
    group: 'desk',
    details: [
      'In Auto mode Tickerbell is light from 06:00 until 18:00 your local time and dark otherwise.',
      'Choose Light or Dark to turn Auto off; Tickerbell remembers your choice in this browser.',
    ],
    planLine: 'Light, dark and automatic theme',
  },
  {
    id: 'install',
    title: 'Install it like an app',
    blurb: 'Add Tickerbell to your home screen or dock and it opens in its own window with notifications, just like a native app.',
    icon: 'install',
    route: '/guides',
    group: 'desk',
    details: [
      'Use your browser’s “Install” or “Add to Home Screen” command; Tickerbell then opens without browser toolbars.',
      'The installed app keeps its shell available offline and can receive push notifications when the window is closed.',
    ],
    planLine: 'Installable app',
  },
];

/** The features of one home-page group, in list order. */
export function featuresIn(group: FeatureGroupId): Feature[] {
  return FEATURE_LIST.filter((feature) => feature.group === group);
}
