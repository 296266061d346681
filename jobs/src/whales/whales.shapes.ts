// HTTP shapes of the whales domain (Ethereum transfers scanned block by block): plain types and
// constants with no runtime imports; the web client imports this file as
// `@tickerbell/jobs/whales/shapes`. Meanings in docs/whales.md.

/** What a transfer is, relative to the labelled addresses (whale_addresses.address_type 'exchange') and the zero address. */
export const WHALE_TRANSACTION_TYPES = ['transfer', 'exchange_inflow', 'exchange_outflow', 'mint', 'burn'] as const;
export type WhaleTransactionType = (typeof WHALE_TRANSACTION_TYPES)[number];

/** 'unknown': no price at block time, so no USD value (said so rather than guessed). */
export const WHALE_PRICE_STATUSES = ['priced', 'unknown'] as const;
export type WhalePriceStatus = (typeof WHALE_PRICE_STATUSES)[number];

/** Where a transfer's price came from: the stored ETHUSDT bars, DefiLlama's coins API, or the offline replay's simulated prices. */
export const WHALE_PRICE_SOURCES = ['prices', 'defillama', 'simulated'] as const;
export type WhalePriceSource = (typeof WHALE_PRICE_SOURCES)[number];

/** What is known about an address: the maintained label list (or a user's watch), and the viewer's own label. */
export interface WhaleAddressLabel {
  address: string;
  /** Public label (e.g. "Binance 14"); null for an unlabelled address. */
  label: string | null;
  /** 'exchange' | 'fund' | ... ; null when unknown. */
  addressType: string | null;
  exchangeName: string | null;
  /** The viewer's own label from their watchlist; null when not watched or unlabelled. */
  customLabel: string | null;
}

/** The phase-1 fields of a recorded transfer (what `whales transfers --tx` prints). */
export interface WhaleTransferCore {
  txHash: string;
  /** Position of the Transfer log in the block; null for native ETH. */
  logIndex: number | null;
  /** Token contract; null for ETH. */
  token: string | null;
  /** Null when the token's symbol is unknown. */
  tokenSymbol: string | null;
  from: string;
  /** Null for a contract creation. */
  to: string | null;
  /** Decimal string in token units; null while the token's decimals are unknown. */
  amount: string | null;
  /** Integer string in the token's base units (wei for ETH). */
  rawAmount: string;
  /** USD at block time, 2 decimals; null when the price is unknown. */
  usdValue: string | null;
  priceStatus: WhalePriceStatus;
  transactionType: WhaleTransactionType;
  /** Crossed a watched address's threshold or the global USD threshold. */
  isWhale: boolean;
  blockNumber: string;
  blockHash: string;
  /** ISO 8601 UTC. */
  blockTime: string;
}

/** One recorded transfer (native ETH or an ERC-20 Transfer log) as the API and the live `whale` event show it. Addresses and hashes lowercase. */
export interface WhaleTransferView extends WhaleTransferCore {
  fromLabel: WhaleAddressLabel | null;
  toLabel: WhaleAddressLabel | null;
  /** USD per token unit at block time; null when unknown. */
  usdPrice: string | null;
  priceSource: WhalePriceSource | null;
  /** https://etherscan.io/tx/<hash> */
  explorerUrl: string;
  /** Stable id of the transfer: `<txHash>:<logIndex>` (logIndex -1 for native ETH). */
  id: string;
}

/** Filter of the feed: every transfer, or only those into / out of a labelled exchange. */
export const WHALE_DIRECTIONS = ['any', 'exchange_inflow', 'exchange_outflow'] as const;
export type WhaleDirection = (typeof WHALE_DIRECTIONS)[number];

/** Where the feed's rows come from: the live node, or the offline replay chain; and how far the scanner has got. */
export interface WhaleFeedSource {
  kind: 'live' | 'replay';
  checkpointBlock: string | null;
  /** ISO 8601 UTC of the checkpoint block. */
  checkpointTime: string | null;
}

// GET /api/whales/transfers?token=ETH|0x…&minUsd=&direction=&exchange=&address=&cursor=&limit= (signed in) -> newest first
export interface WhaleFeedPage {
  rows: WhaleTransferView[];
  /** Opaque; pass as `cursor` for the next (older) page; null at the end. */
  nextCursor: string | null;
  source: WhaleFeedSource;
}

// GET /api/whales/largest?hours=24 (public, for /research/whales): top 20 by USD
export interface WhaleLargestPage {
  hours: number;
  rows: WhaleTransferView[];
  source: WhaleFeedPage['source'];
}

// GET /api/whales/addresses/:address (signed in)
export interface WhaleAddressPage {
  label: WhaleAddressLabel;
  watch: WhaleWatchView | null;
  transfers: WhaleTransferView[];
  /** Daily, last 30 days, USD into/out of this address. */
  netflow: WhaleNetflowPoint[];
  balanceChanges: { token: string | null; tokenSymbol: string | null; inAmount: string | null; outAmount: string | null; netUsd: string | null }[];
}

export const WHALE_ALERT_FREQUENCIES = ['immediate', 'hourly', 'daily'] as const;
export type WhaleAlertFrequency = (typeof WHALE_ALERT_FREQUENCIES)[number];

export interface WhaleWatchView {
  id: number;
  address: string;
  label: WhaleAddressLabel;
  customLabel: string | null;
  alertEnabled: boolean;
  /** USD, 2 decimals; null = the global threshold (WHALES_GLOBAL_USD_THRESHOLD). */
  alertThreshold: string | null;
  alertFrequency: WhaleAlertFrequency;
  /** IANA time zone; daily digests go out at its local midnight. */
  timeZone: string;
  createdAt: string;
  lastAlertAt: string | null;
}

// GET/POST /api/whales/watchlist, PATCH/DELETE /api/whales/watchlist/:id
export interface WhaleWatchInput {
  /** EIP-55 checksummed or lowercase 0x + 40 hex. */
  address: string;
  customLabel?: string | null;
  alertEnabled?: boolean;
  /** USD; null = the global threshold. */
  alertThreshold?: string | number | null;
  alertFrequency?: WhaleAlertFrequency;
  timeZone?: string;
}

export interface WhaleNetflowPoint {
  /** ISO 8601 UTC start of the bucket. */
  start: string;
  inflowUsd: string;
  outflowUsd: string;
  /** inflowUsd - outflowUsd. */
  netflowUsd: string;
  transfers: number;
  /** Transfers without a USD price (not in the USD sums). */
  unpricedTransfers: number;
}

export const WHALE_NETFLOW_BUCKETS = ['hour', 'day'] as const;
export type WhaleNetflowBucket = (typeof WHALE_NETFLOW_BUCKETS)[number];

// GET /api/whales/netflow?exchange=&token=&bucket=hour|day&from=&to= (signed in)
export interface WhaleNetflowSeries {
  exchange: string;
  /** 'eth', a token address, or null = all tokens summed. */
  token: string | null;
  bucket: 'hour' | 'day';
  points: WhaleNetflowPoint[];
}

// GET /api/whales/exchanges (signed in): each labelled exchange with its last 24 h
export interface WhaleExchangeSummary {
  exchange: string;
  inflowUsd24h: string;
  outflowUsd24h: string;
  netflowUsd24h: string;
  transfers24h: number;
}
