import type { DataSource } from 'typeorm';
import { runMigrations } from '../src/data-source';
import { MIGRATIONS } from '../src/migrations';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database';
import { openQuietDataSource } from './support';

/**
 * The schema the committed migrations build, checked against the product spec (section 3 and 5)
 * and the foundation design, from the database catalog. The expectations are written by hand
 * from the spec, not derived from the entity metadata, so an entity and its migration cannot
 * drift away from the spec together.
 *
 * Format: '<format_type> [NOT NULL]', as pg_catalog reports it.
 */
const VC = (n: number) => `character varying(${n})`;
const TSTZ = 'timestamp with time zone';
const NN = ' NOT NULL';

// cot_positions: long, short and spreading counts and their changes for dealer, assetManager,
// leveraged and other; long and short only for nonReportable; percent shares numeric(5,2) and
// trader counts for the same groups.
function cotPositionColumns(): Record<string, string> {
  const columns: Record<string, string> = {};
  for (const group of ['dealer', 'asset_manager', 'leveraged', 'other']) {
    for (const side of ['long', 'short', 'spreading']) {
      columns[`${group}_${side}`] = 'integer' + NN;
      columns[`${group}_${side}_change`] = 'integer';
      columns[`${group}_${side}_percent`] = 'numeric(5,2)';
      columns[`${group}_${side}_traders`] = 'integer';
    }
  }
  for (const side of ['long', 'short']) {
    columns[`non_reportable_${side}`] = 'integer' + NN;
    columns[`non_reportable_${side}_change`] = 'integer';
    columns[`non_reportable_${side}_percent`] = 'numeric(5,2)';
  }
  return columns;
}

const EXPECTED_COLUMNS: Record<string, Record<string, string>> = {
  // --- accounts and teams
  users: {
    id: 'integer' + NN,
    name: VC(100),
    email: VC(255) + NN,
    password_hash: VC(255),
    google_id: VC(255),
    role: VC(20) + NN,
    is_verified: 'boolean' + NN,
    verification_token: VC(255),
    verification_token_expiry: TSTZ,
    reset_token: VC(255),
    reset_token_expiry: TSTZ,
    subscription_status: VC(30) + NN,
    subscription_plan: VC(50),
    subscription_id: VC(255),
    subscription_start_date: TSTZ,
    subscription_end_date: TSTZ,
    trial_end_date: TSTZ,
    pwa_installed: 'boolean' + NN,
    pwa_install_date: TSTZ,
    pwa_install_source: VC(50),
    created_at: TSTZ + NN,
    updated_at: TSTZ + NN,
    deleted_at: TSTZ,
  },
  teams: {
    id: 'integer' + NN,
    name: VC(100) + NN,
    stripe_customer_id: VC(255),
    stripe_subscription_id: VC(255),
    stripe_product_id: VC(255),
    plan_name: VC(50),
    subscription_status: VC(30),
  },
  team_members: {
    user_id: 'integer' + NN,
    team_id: 'integer' + NN,
    role: VC(20) + NN,
    joined_at: TSTZ + NN,
  },
  activity_logs: {
    id: 'bigint' + NN,
    team_id: 'integer',
    user_id: 'integer',
    action: VC(40) + NN,
    timestamp: TSTZ + NN,
    ip_address: VC(45),
    details: 'jsonb',
  },
  invitations: {
    team_id: 'integer' + NN,
    email: VC(255) + NN,
    role: VC(20) + NN,
    invited_by: 'integer',
    invited_at: TSTZ + NN,
    status: VC(20) + NN,
  },
  accounts: {
    id: 'integer' + NN,
    user_id: 'integer' + NN,
    provider: VC(50) + NN,
    provider_account_id: VC(255) + NN,
    type: VC(30) + NN,
    access_token: 'text',
    refresh_token: 'text',
    expires_at: TSTZ,
    token_type: VC(50),
    scope: 'text',
    id_token: 'text',
    created_at: TSTZ + NN,
    updated_at: TSTZ + NN,
  },
  // connect-pg-simple's shape, plus the owner.
  sessions: {
    sid: 'character varying' + NN,
    sess: 'json' + NN,
    expire: 'timestamp(6) without time zone' + NN,
    user_id: 'integer',
  },
  verification_tokens: {
    identifier: VC(255) + NN,
    token: VC(255) + NN,
    expires: TSTZ + NN,
  },
  products: {
    id: 'integer' + NN,
    stripe_product_id: VC(255) + NN,
    name: VC(100) + NN,
  },
  prices: {
    product_id: 'integer' + NN,
    unit_amount: 'numeric(20,0)',
    currency: VC(3) + NN,
    interval: VC(10),
    trial_period_days: 'integer',
  },
  subscriptions: {
    user_id: 'integer' + NN,
    stripe_subscription_id: VC(255) + NN,
    stripe_customer_id: VC(255) + NN,
    stripe_price_id: VC(255),
    plan_name: VC(50),
    status: VC(30) + NN,
    current_period_start: TSTZ,
    current_period_end: TSTZ,
    cancel_at_period_end: 'boolean' + NN,
    trial_start: TSTZ,
    trial_end: TSTZ,
    canceled_at: TSTZ,
    metadata: 'jsonb',
  },
  subscription_events: {
    // The spec says required; billing (issue 19) stores every Stripe event as received, before it
    // is processed, unique on Stripe's event id: the subscription is known only once it is
    // processed, and product and price events have none (docs/billing.md).
    subscription_id: 'integer',
    event_type: VC(100) + NN,
    event_data: 'jsonb',
  },
  user_preferences: {
    user_id: 'integer' + NN,
    market_open_notifications: 'boolean' + NN,
    market_close_notifications: 'boolean' + NN,
    market_opening_soon_notifications: 'boolean' + NN,
    market_closing_soon_notifications: 'boolean' + NN,
    sound_notifications: 'boolean' + NN,
    email_notifications: 'boolean' + NN,
    push_notifications: 'boolean' + NN,
  },
  // --- markets, alerts, layouts
  markets: {
    name: VC(100) + NN,
    symbol: VC(30) + NN,
    type: VC(20) + NN,
    description: 'text',
  },
  alerts: {
    user_id: 'integer' + NN,
    market_id: 'integer' + NN,
    name: VC(100) + NN,
    condition: VC(30) + NN,
    value: 'numeric(30,10)' + NN,
    is_active: 'boolean' + NN,
    use_audio: 'boolean' + NN,
    audio_message: VC(500),
    audio_voice_id: VC(100),
    last_triggered: TSTZ,
  },
  alert_logs: {
    id: 'bigint' + NN,
    alert_id: 'integer' + NN,
    triggered_at: TSTZ + NN,
    value: 'numeric(30,10)' + NN,
    was_notified: 'boolean' + NN,
  },
  chart_layouts: {
    user_id: 'integer' + NN,
    name: VC(100) + NN,
    layout: 'jsonb' + NN,
    is_default: 'boolean' + NN,
  },
  watchlists: {
    user_id: 'integer' + NN,
    name: VC(100) + NN,
  },
  watchlist_items: {
    watchlist_id: 'integer' + NN,
    market_id: 'integer' + NN,
    order: 'integer' + NN,
  },
  // --- prediction markets
  prediction_markets: {
    polymarket_id: VC(100) + NN,
    question: 'text' + NN,
    description: 'text',
    category: VC(50),
    subcategory: VC(50),
    end_date: TSTZ,
    resolution_source: 'text',
    current_prices: 'jsonb',
    volume_24h: 'numeric(24,2)',
    liquidity: 'numeric(24,2)',
    is_active: 'boolean' + NN,
    tags: 'text[]',
  },
  user_predictions: {
    user_id: 'integer' + NN,
    market_id: 'integer' + NN,
    user_prediction: 'numeric(5,4)' + NN,
    market_price: 'numeric(5,4)' + NN,
    confidence: 'smallint',
    notes: 'text',
    date_made: TSTZ + NN,
    resolution: VC(50),
    date_resolved: TSTZ,
    points: 'numeric(12,4)',
  },
  mispricing_alerts: {
    market_id: 'integer' + NN,
    current_price: 'numeric(5,4)' + NN,
    fair_value: 'numeric(5,4)' + NN,
    confidence: 'numeric(5,4)' + NN,
    reasoning: 'text',
    deviation: 'numeric(5,4)' + NN,
    is_active: 'boolean' + NN,
    detected_at: TSTZ + NN,
    resolved_at: TSTZ,
  },
  prediction_performance: {
    user_id: 'integer' + NN,
    total_predictions: 'integer' + NN,
    correct_predictions: 'integer' + NN,
    accuracy: 'numeric(5,4)',
    brier_score: 'numeric(5,4)',
    calibration: 'numeric(5,4)',
    total_points: 'numeric(12,4)' + NN,
    best_categories: 'jsonb',
    improvement_areas: 'jsonb',
    last_calculated: TSTZ,
  },
  // --- futures positioning (COT)
  cot_instruments: {
    id: 'integer' + NN,
    cftc_code: VC(20) + NN,
    instrument_name: VC(200) + NN,
    symbol: VC(20),
    exchange: VC(100),
    contract_size: 'numeric(24,4)',
    category: VC(50),
    is_active: 'boolean' + NN,
    created_at: TSTZ + NN,
    updated_at: TSTZ + NN,
  },
  cot_reports: {
    id: 'integer' + NN,
    report_date: 'date' + NN,
    report_type: VC(30) + NN,
    source_url: 'text',
    raw_data: 'jsonb',
    processed_at: TSTZ,
    created_at: TSTZ + NN,
  },
  cot_positions: {
    id: 'bigint' + NN,
    report_id: 'integer' + NN,
    instrument_id: 'integer' + NN,
    open_interest: 'integer' + NN,
    ...cotPositionColumns(),
  },
  cot_analytics: {
    position_id: 'bigint' + NN,
    leveraged_net_percent: 'numeric(5,2)',
    commercial_net_percent: 'numeric(5,2)',
    asset_manager_net_percent: 'numeric(5,2)',
    dealer_net_percent: 'numeric(5,2)',
    other_net_percent: 'numeric(5,2)',
    non_reportable_net_percent: 'numeric(5,2)',
    leveraged_percentile_rank: 'numeric(5,2)',
    commercial_percentile_rank: 'numeric(5,2)',
    asset_manager_percentile_rank: 'numeric(5,2)',
    is_leveraged_extreme: 'boolean' + NN,
    is_commercial_extreme: 'boolean' + NN,
    is_asset_manager_extreme: 'boolean' + NN,
    divergence_score: 'numeric(12,4)',
    divergence_type: VC(50),
    alert_level: VC(20),
  },
  // --- chat
  chat_rooms: {
    id: 'integer' + NN,
    name: VC(100) + NN,
    type: VC(20) + NN,
    description: 'text',
    trading_pair: VC(30),
    created_at: TSTZ + NN,
    updated_at: TSTZ + NN,
  },
  chat_messages: {
    id: 'bigint' + NN,
    room_id: 'integer' + NN,
    user_id: 'integer',
    message: 'text' + NN,
    message_type: VC(20) + NN,
    reply_to_message_id: 'bigint',
    created_at: TSTZ + NN,
    updated_at: TSTZ + NN,
  },
  message_reactions: {
    message_id: 'bigint' + NN,
    user_id: 'integer' + NN,
    reaction: VC(10) + NN,
  },
  chat_room_members: {
    room_id: 'integer' + NN,
    user_id: 'integer' + NN,
    role: VC(20) + NN,
    joined_at: TSTZ + NN,
    last_read_at: TSTZ,
  },
  chat_notifications: {
    user_id: 'integer' + NN,
    message_id: 'bigint' + NN,
    type: VC(20) + NN,
    is_read: 'boolean' + NN,
  },
  user_chat_preferences: {
    user_id: 'integer' + NN,
    sound_notifications: 'boolean' + NN,
    desktop_notifications: 'boolean' + NN,
    show_online_status: 'boolean' + NN,
  },
  // Invite links to private rooms (issue 18): the code's SHA-256 only, never the code.
  chat_room_invites: {
    id: 'integer' + NN,
    room_id: 'integer' + NN,
    code_hash: 'character(64)' + NN,
    created_by: 'integer',
    created_at: TSTZ + NN,
    expires_at: TSTZ + NN,
    max_uses: 'integer',
    uses: 'integer' + NN,
    revoked_at: TSTZ,
  },
  // --- whale tracking
  whale_addresses: {
    address: VC(42) + NN,
    chain: VC(20) + NN,
    label: VC(100),
    address_type: VC(30),
    exchange_name: VC(100),
    added_by: VC(50) + NN,
    added_date: TSTZ + NN,
    is_active: 'boolean' + NN,
    balance_threshold: 'numeric(78,0)',
  },
  user_watchlists: {
    user_id: 'integer' + NN,
    address_id: 'integer' + NN,
    custom_label: VC(100),
    alert_enabled: 'boolean' + NN,
    alert_threshold: 'numeric(24,2)', // USD since whales phase 2 (was token base units): thresholds compare with usd_value
    alert_frequency: VC(20) + NN,
  },
  whale_transactions: {
    id: 'bigint' + NN,
    hash: VC(66) + NN,
    from_address: VC(42) + NN,
    to_address: VC(42),
    value: 'numeric(78,0)' + NN,
    token_symbol: VC(20) + NN,
    token_address: VC(42),
    block_number: 'bigint' + NN,
    timestamp: TSTZ + NN,
    gas_price: 'numeric(78,0)',
    gas_used: 'bigint',
    chain: VC(20) + NN,
    transaction_type: VC(30),
  },
  whale_alerts: {
    user_id: 'integer' + NN,
    address_id: 'integer' + NN,
    transaction_id: 'bigint',
    alert_type: VC(30) + NN,
    message: 'text' + NN,
    is_read: 'boolean' + NN,
    sent_at: TSTZ + NN,
  },
  // --- IPO lockups and insider trading
  lockup_events: {
    // Null only while an event needs review (docs/lockups.md): the symbol or the date was not read,
    // and no date is ever guessed (a CHECK keeps the date for every other status).
    ticker: VC(20),
    company_name: VC(200) + NN,
    ipo_date: 'date' + NN,
    lockup_expiration_date: 'date',
    shares_locked_up: 'numeric(20,0)',
    total_shares_outstanding: 'numeric(20,0)',
    current_price: 'numeric(30,10)',
    market_cap: 'numeric(24,2)',
    vc_backed: 'boolean' + NN,
    industry: VC(100),
    // 0..100 with one decimal, the sum of the stored factors.
    risk_score: 'numeric(5,1)' + NN,
  },
  insider_trading_companies: {
    // The spec says unique, not required: funds and private issuers file Form 4s without a symbol.
    ticker: VC(20),
    company_name: VC(200) + NN,
    cik: VC(10) + NN,
    industry: VC(100),
    sector: VC(100),
    market_cap: 'numeric(24,2)',
    is_active: 'boolean' + NN,
  },
  insider_trading_insiders: {
    name: VC(200) + NN,
    cik: VC(10) + NN,
    is_officer: 'boolean' + NN,
    is_director: 'boolean' + NN,
    is_ten_percent_owner: 'boolean' + NN,
    is_other: 'boolean' + NN,
  },
  insider_trading_transactions: {
    id: 'bigint' + NN,
    company_id: 'integer' + NN,
    insider_id: 'integer' + NN,
    transaction_date: 'date' + NN,
    transaction_type: VC(20) + NN,
    shares_traded: 'numeric(20,4)' + NN,
    // Null when a line gives no price (grants, gifts, a footnote only), rather than a 0 that reads as a real price.
    price_per_share: 'numeric(30,10)',
    total_value: 'numeric(24,2)',
    shares_owned_after: 'numeric(20,4)',
    ownership_percent: 'numeric(7,4)',
    sec_form_type: VC(10) + NN,
    sec_accession_number: VC(25) + NN,
    sec_filing_date: 'date',
    sec_url: 'text',
    relationship: VC(200),
    is_proposed: 'boolean' + NN,
    data_source: VC(20) + NN,
  },
  insider_trading_analytics: {
    company_id: 'integer' + NN,
    analysis_date: 'date' + NN,
    total_transactions_30d: 'integer' + NN,
    buy_transactions_30d: 'integer' + NN,
    sell_transactions_30d: 'integer' + NN,
    net_shares_30d: 'numeric(20,4)' + NN,
    net_value_30d: 'numeric(24,2)' + NN,
    total_volume_30d: 'numeric(20,4)' + NN,
    avg_transaction_size: 'numeric(24,2)',
    insider_sentiment: VC(20),
    sentiment_score: 'numeric(12,4)',
    confidence_level: 'numeric(5,4)',
    percentile_rank: 'numeric(5,2)',
    is_unusual_activity: 'boolean' + NN,
    alert_level: VC(20),
    alert_reason: 'text',
  },
  // --- yield analytics
  yield_pools: {
    pool_id: VC(100) + NN,
    symbol: VC(50) + NN,
    token0: VC(42) + NN,
    token1: VC(42) + NN,
    token0_symbol: VC(20) + NN,
    token1_symbol: VC(20) + NN,
    fee_tier: 'integer' + NN,
    dex: VC(30) + NN,
    is_active: 'boolean' + NN,
  },
  yield_data: {
    id: 'bigint' + NN,
    pool_id: 'integer' + NN,
    timestamp: TSTZ + NN,
    tvl_usd: 'numeric(24,2)',
    volume_usd: 'numeric(24,2)',
    fees_usd: 'numeric(24,2)',
    apr: 'numeric(12,4)',
    vtr: 'numeric(12,4)',
    yield_score: 'numeric(12,4)',
    defillama_apy: 'numeric(12,4)',
    data_source: VC(30) + NN,
  },
  yield_alerts: {
    user_id: 'integer' + NN,
    pool_id: 'integer' + NN,
    alert_type: VC(30) + NN,
    threshold: 'numeric(24,4)' + NN,
    condition: VC(20) + NN,
    is_active: 'boolean' + NN,
    email_enabled: 'boolean' + NN,
    telegram_enabled: 'boolean' + NN,
    last_triggered: TSTZ,
  },
  yield_alert_logs: {
    alert_id: 'integer' + NN,
    yield_data_id: 'bigint',
    triggered_at: TSTZ + NN,
    triggered_value: 'numeric(24,4)' + NN,
    threshold: 'numeric(24,4)' + NN,
    email_sent: 'boolean' + NN,
    telegram_sent: 'boolean' + NN,
  },
  // --- foundation tables (notifications, market hours, operations)
  notifications: {
    id: 'bigint' + NN,
    user_id: 'integer' + NN,
    title: VC(200) + NN,
    message: 'text' + NN,
    type: VC(10) + NN,
    activity_type: VC(40),
    exchange_id: VC(10),
    symbol_id: VC(30),
    details: 'jsonb',
    dedupe_key: VC(200),
    read_at: TSTZ,
    created_at: TSTZ + NN,
  },
  push_subscriptions: {
    user_id: 'integer' + NN,
    endpoint: 'text' + NN,
    p256dh: VC(255) + NN,
    auth: VC(255) + NN,
    user_agent: 'text',
    created_at: TSTZ + NN,
    last_success_at: TSTZ,
    failure_count: 'integer' + NN,
  },
  exchanges: {
    id: VC(10) + NN,
    name: VC(100) + NN,
    location: VC(100) + NN,
    timezone: VC(64) + NN,
    open_time: VC(5) + NN,
    close_time: VC(5) + NN,
    break_start: VC(5),
    break_end: VC(5),
    weekdays: 'smallint[]' + NN,
    is_active: 'boolean' + NN,
    created_at: TSTZ + NN,
    updated_at: TSTZ + NN,
  },
  exchange_calendar_days: {
    exchange_id: VC(10) + NN,
    date: 'date' + NN,
    kind: VC(20) + NN,
    open_time: VC(5),
    close_time: VC(5),
    name: VC(200),
    source: VC(200),
  },
  exchange_follows: {
    user_id: 'integer' + NN,
    exchange_id: VC(10) + NN,
    created_at: TSTZ + NN,
  },
  source_health: {
    source: VC(50) + NN,
    last_success_at: TSTZ,
    last_error_at: TSTZ,
    last_error: 'text',
    last_data_at: TSTZ,
    consecutive_failures: 'integer' + NN,
    details: 'jsonb',
    updated_at: TSTZ + NN,
  },
  processed_events: {
    provider: VC(30) + NN,
    event_id: VC(255) + NN,
    received_at: TSTZ + NN,
    processed_at: TSTZ,
  },
  seed_history: {
    name: VC(100) + NN,
    applied_at: TSTZ + NN,
  },
};

// Spec defaults, as the value each default expression evaluates to.
const EXPECTED_DEFAULTS: Array<[table: string, column: string, value: string]> = [
  ['users', 'role', 'member'],
  ['users', 'is_verified', 'false'],
  ['users', 'subscription_status', 'inactive'],
  ['invitations', 'status', 'pending'],
  ['prices', 'currency', 'usd'],
  ['subscriptions', 'status', 'inactive'],
  ['user_preferences', 'market_open_notifications', 'true'],
  ['user_preferences', 'market_close_notifications', 'true'],
  ['user_preferences', 'market_opening_soon_notifications', 'true'],
  ['user_preferences', 'market_closing_soon_notifications', 'true'],
  ['user_preferences', 'sound_notifications', 'true'],
  ['user_preferences', 'push_notifications', 'true'],
  ['user_preferences', 'email_notifications', 'false'],
  ['cot_instruments', 'is_active', 'true'],
  ['cot_reports', 'report_type', 'financial'],
  ['chat_rooms', 'type', 'chat'],
  ['chat_messages', 'message_type', 'user_message'],
  ['chat_room_members', 'role', 'member'],
  ['chat_notifications', 'type', 'room_message'],
  ['user_chat_preferences', 'sound_notifications', 'true'],
  ['user_chat_preferences', 'desktop_notifications', 'true'],
  ['user_chat_preferences', 'show_online_status', 'true'],
  ['whale_addresses', 'chain', 'ethereum'],
  ['whale_addresses', 'added_by', 'system'],
  ['user_watchlists', 'alert_enabled', 'true'],
  ['user_watchlists', 'alert_frequency', 'immediate'],
  ['whale_transactions', 'token_symbol', 'ETH'],
  ['lockup_events', 'vc_backed', 'false'],
  ['lockup_events', 'risk_score', '0'],
  ['insider_trading_transactions', 'sec_form_type', '4'],
  ['insider_trading_transactions', 'is_proposed', 'false'],
  ['insider_trading_transactions', 'data_source', 'sec'],
  ['yield_pools', 'dex', 'uniswap-v3'],
  ['yield_data', 'data_source', 'uniswap-subgraph'],
  ['yield_alerts', 'condition', 'greater_than'],
  ['yield_alerts', 'email_enabled', 'false'],
  ['yield_alerts', 'telegram_enabled', 'false'],
  ['notifications', 'type', 'info'],
  ['source_health', 'consecutive_failures', '0'],
];

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  not_null: boolean;
}

async function productTables(ds: DataSource): Promise<string[]> {
  const rows: Array<{ relname: string }> = await ds.query(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'migrations' ORDER BY 1`,
  );
  return rows.map((r) => r.relname);
}

describe('schema built by the migrations', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: false });
    ds = await openQuietDataSource(db.url);
    await runMigrations(ds);
  });

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await db?.drop();
  });

  const sql = (query: string, params: unknown[] = []) => ds.query(query, params);

  it('applies every migration to an empty database', async () => {
    const rows: Array<{ name: string }> = await sql('SELECT name FROM migrations ORDER BY id');
    expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('creates every table of the spec and the foundation design', async () => {
    const tables = await productTables(ds);
    expect(tables).toEqual(expect.arrayContaining(Object.keys(EXPECTED_COLUMNS)));
  });

  it('gives every spec column its type, length, precision and nullability', async () => {
    const rows: ColumnRow[] = await sql(
      `SELECT c.relname AS table_name, a.attname AS column_name,
              format_type(a.atttypid, a.atttypmod) AS data_type, a.attnotnull AS not_null
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
    );
    const actual: Record<string, Record<string, string>> = {};
    for (const r of rows) {
      (actual[r.table_name] ??= {})[r.column_name] = r.data_type + (r.not_null ? NN : '');
    }
    for (const [table, columns] of Object.entries(EXPECTED_COLUMNS)) {
      const got = Object.fromEntries(Object.keys(columns).map((column) => [column, actual[table]?.[column] ?? 'missing']));
      expect({ table, columns: got }).toEqual({ table, columns });
    }
  });

  it('sets the spec defaults', async () => {
    const rows: Array<{ table_name: string; column_name: string; column_default: string | null }> = await sql(
      `SELECT table_name, column_name, column_default FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const defaults = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.column_default]));
    for (const [table, column, value] of EXPECTED_DEFAULTS) {
      const expression = defaults.get(`${table}.${column}`);
      // Evaluate the stored default expression (constants only) to compare values, not spellings.
      const evaluated = expression ? (await sql(`SELECT (${expression})::text AS v`))[0].v : null;
      expect({ column: `${table}.${column}`, default: evaluated }).toEqual({ column: `${table}.${column}`, default: value });
    }
  });

  describe('uniqueness', () => {
    const expectUniqueViolation = (promise: Promise<unknown>, constraint: string) =>
      expect(promise).rejects.toMatchObject({ code: '23505', constraint });

    it('rejects a second live user with the same email in another letter case', async () => {
      await sql(`INSERT INTO users (email) VALUES ('Trader@Example.com')`);
      await expectUniqueViolation(sql(`INSERT INTO users (email) VALUES ('trader@example.COM')`), 'uq_users_email_active');
    });

    it('rejects a duplicate google id', async () => {
      await sql(`INSERT INTO users (email, google_id) VALUES ('g1@example.com', 'google-1')`);
      await expectUniqueViolation(
        sql(`INSERT INTO users (email, google_id) VALUES ('g2@example.com', 'google-1')`),
        'uq_users_google_id',
      );
    });

    it('rejects a duplicate market symbol', async () => {
      await sql(`INSERT INTO markets (name, symbol, type) VALUES ('Apple', 'AAPL', 'stock')`);
      await expectUniqueViolation(
        sql(`INSERT INTO markets (name, symbol, type) VALUES ('Apple Inc.', 'AAPL', 'stock')`),
        'uq_markets_symbol',
      );
    });

    it('rejects a duplicate CFTC code', async () => {
      await sql(`INSERT INTO cot_instruments (cftc_code, instrument_name) VALUES ('099741', 'EURO FX')`);
      await expectUniqueViolation(
        sql(`INSERT INTO cot_instruments (cftc_code, instrument_name) VALUES ('099741', 'EURO FX - CME')`),
        'uq_cot_instruments_cftc_code',
      );
    });

    it('rejects a duplicate whale address', async () => {
      const address = '0x28c6c06298d514db089934071355e5743bf21d60';
      await sql(`INSERT INTO whale_addresses (address) VALUES ($1)`, [address]);
      await expectUniqueViolation(
        sql(`INSERT INTO whale_addresses (address, label) VALUES ($1, 'again')`, [address]),
        'uq_whale_addresses_address',
      );
    });

    it('rejects a second row for the same chain, transaction hash and log index', async () => {
      // A transaction can move several tokens: one row per log (native ETH is log index -1).
      const insert = (logIndex: number) =>
        sql(
          `INSERT INTO whale_transactions (hash, from_address, value, block_number, block_hash, timestamp, log_index)
           VALUES ($1, '0x28c6c06298d514db089934071355e5743bf21d60', 1000000000000000000, 19000000, $2, now(), $3)`,
          ['0x' + 'ab'.repeat(32), '0x' + 'cd'.repeat(32), logIndex],
        );
      await insert(-1);
      await insert(7);
      await expectUniqueViolation(insert(7), 'uq_whale_transactions_chain_hash_log_index');
    });

    it('rejects a duplicate pool id', async () => {
      const insert = () =>
        sql(
          `INSERT INTO yield_pools (pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier)
           VALUES ('0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640', 'USDC-WETH', '0xa0b8', '0xc02a', 'USDC', 'WETH', 500)`,
        );
      await insert();
      await expectUniqueViolation(insert(), 'uq_yield_pools_pool_id');
    });

    it('rejects a duplicate polymarket id', async () => {
      const insert = () => sql(`INSERT INTO prediction_markets (polymarket_id, question, slug, content_hash, data_source, synced_at) VALUES ('pm-1', 'Will it rain?', 'will-it-rain', 'h', 'import', now())`);
      await insert();
      await expectUniqueViolation(insert(), 'uq_prediction_markets_polymarket_id');
    });

    it('rejects a second chat invite with the same code hash, and a use limit below 1', async () => {
      const [{ id: roomId }] = await sql(`INSERT INTO chat_rooms (name, is_private) VALUES ('Invites', true) RETURNING id`);
      const insert = (maxUses: number | null) =>
        sql(`INSERT INTO chat_room_invites (room_id, code_hash, expires_at, max_uses) VALUES ($1, $2, now() + interval '1 day', $3)`, [roomId, 'a'.repeat(64), maxUses]);
      await insert(null);
      await expectUniqueViolation(insert(5), 'uq_chat_room_invites_code_hash');
      await expect(sql(`INSERT INTO chat_room_invites (room_id, code_hash, expires_at, max_uses) VALUES ($1, $2, now(), 0)`, [roomId, 'b'.repeat(64)])).rejects.toMatchObject({
        code: '23514',
        constraint: 'chk_chat_room_invites_max_uses',
      });
    });

    it('rejects a duplicate insider company ticker or CIK, and a duplicate insider CIK', async () => {
      await sql(`INSERT INTO insider_trading_companies (ticker, company_name, cik) VALUES ('NVDA', 'NVIDIA', '0001045810')`);
      await expectUniqueViolation(
        sql(`INSERT INTO insider_trading_companies (ticker, company_name, cik) VALUES ('NVDA', 'Other', '0000000001')`),
        'uq_insider_trading_companies_ticker',
      );
      await expectUniqueViolation(
        sql(`INSERT INTO insider_trading_companies (ticker, company_name, cik) VALUES ('NVDX', 'Other', '0001045810')`),
        'uq_insider_trading_companies_cik',
      );
      await sql(`INSERT INTO insider_trading_insiders (name, cik) VALUES ('Jensen Huang', '0001197647')`);
      await expectUniqueViolation(
        sql(`INSERT INTO insider_trading_insiders (name, cik) VALUES ('J. Huang', '0001197647')`),
        'uq_insider_trading_insiders_cik',
      );
    });
  });

  describe('length limits', () => {
    const expectTooLong = (promise: Promise<unknown>) => expect(promise).rejects.toMatchObject({ code: '22001' });

    it('accepts an email of 255 characters and rejects one of 256', async () => {
      const email = (length: number) => 'a'.repeat(length - '@example.com'.length) + '@example.com';
      await sql(`INSERT INTO users (email) VALUES ($1)`, [email(255)]);
      await expectTooLong(sql(`INSERT INTO users (email) VALUES ($1)`, [email(256)]));
    });

    it('rejects a user name longer than 100 characters', async () => {
      await sql(`INSERT INTO users (email, name) VALUES ('n100@example.com', $1)`, ['n'.repeat(100)]);
      await expectTooLong(sql(`INSERT INTO users (email, name) VALUES ('n101@example.com', $1)`, ['n'.repeat(101)]));
    });

    it('rejects a reaction longer than 10 characters', async () => {
      const [{ id: userId }] = await sql(`INSERT INTO users (email) VALUES ('reactor@example.com') RETURNING id`);
      const [{ id: roomId }] = await sql(`INSERT INTO chat_rooms (name) VALUES ('BTC') RETURNING id`);
      const [{ id: messageId }] = await sql(
        `INSERT INTO chat_messages (room_id, user_id, message) VALUES ($1, $2, 'gm') RETURNING id`,
        [roomId, userId],
      );
      const react = (reaction: string) =>
        sql(`INSERT INTO message_reactions (message_id, user_id, reaction) VALUES ($1, $2, $3)`, [messageId, userId, reaction]);
      await react('x'.repeat(10));
      await expectTooLong(react('y'.repeat(11)));
    });

    it('rejects a CFTC code longer than 20 and a whale address longer than 42 characters', async () => {
      await expectTooLong(
        sql(`INSERT INTO cot_instruments (cftc_code, instrument_name) VALUES ($1, 'X')`, ['1'.repeat(21)]),
      );
      await expectTooLong(sql(`INSERT INTO whale_addresses (address) VALUES ($1)`, ['0x' + 'a'.repeat(41)]));
    });

    it('stores prediction probabilities with scale 4 and rejects values of 10 or more', async () => {
      const [{ id: userId }] = await sql(`INSERT INTO users (email) VALUES ('predictor@example.com') RETURNING id`);
      const [{ id: marketId }] = await sql(
        `INSERT INTO prediction_markets (polymarket_id, question, slug, content_hash, data_source, synced_at) VALUES ('pm-scale', 'Q?', 'q', 'h', 'import', now()) RETURNING id`,
      );
      const [row] = await sql(
        `INSERT INTO user_predictions (user_id, market_id, user_prediction, market_price, input_form, input_text, date_made)
         VALUES ($1, $2, 0.61235, 0.5, 'probability', '0.61235', now()) RETURNING user_prediction, market_price`,
        [userId, marketId],
      );
      expect(row).toEqual({ user_prediction: '0.6124', market_price: '0.5000' });
      await expect(
        sql(`INSERT INTO user_predictions (user_id, market_id, user_prediction, market_price, input_form, input_text, date_made) VALUES ($1, $2, 10, 0.5, 'probability', '10', now())`, [
          userId,
          marketId,
        ]),
      ).rejects.toMatchObject({ code: '22003' });
    });
  });

  // Last: takes the schema down again.
  it('reverts every migration and leaves no product table behind', async () => {
    const executed = async () => Number((await sql('SELECT count(*) AS n FROM migrations'))[0].n);
    while ((await executed()) > 0) await ds.undoLastMigration({ transaction: 'all' });
    expect(await productTables(ds)).toEqual([]);
  });
});
