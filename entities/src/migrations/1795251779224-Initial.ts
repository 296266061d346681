import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795251779224 implements MigrationInterface {
  name = 'Initial1795251779224';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "users" (
        "id" SERIAL NOT NULL,
        "name" character varying(100),
        "email" character varying(255) NOT NULL,
        "password_hash" character varying(255),
        "google_id" character varying(255),
        "role" character varying(20) NOT NULL DEFAULT 'member',
        "is_verified" boolean NOT NULL DEFAULT false,
        "verification_token" character varying(255),
        "verification_token_expiry" TIMESTAMP WITH TIME ZONE,
        "reset_token" character varying(255),
        "reset_token_expiry" TIMESTAMP WITH TIME ZONE,
        "subscription_status" character varying(30) NOT NULL DEFAULT 'inactive',
        "subscription_plan" character varying(50),
        "subscription_id" character varying(255),
        "subscription_start_date" TIMESTAMP WITH TIME ZONE,
        "subscription_end_date" TIMESTAMP WITH TIME ZONE,
        "trial_end_date" TIMESTAMP WITH TIME ZONE,
        "pwa_installed" boolean NOT NULL DEFAULT false,
        "pwa_install_date" TIMESTAMP WITH TIME ZONE,
        "pwa_install_source" character varying(50),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "deleted_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "uq_users_reset_token" UNIQUE ("reset_token"),
        CONSTRAINT "uq_users_verification_token" UNIQUE ("verification_token"),
        CONSTRAINT "uq_users_google_id" UNIQUE ("google_id"),
        CONSTRAINT "chk_users_role" CHECK ("role" IN ('member', 'admin')),
        CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "teams" (
        "id" SERIAL NOT NULL,
        "name" character varying(100) NOT NULL,
        "stripe_customer_id" character varying(255),
        "stripe_subscription_id" character varying(255),
        "stripe_product_id" character varying(255),
        "plan_name" character varying(50),
        "subscription_status" character varying(30),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_teams_stripe_subscription_id" UNIQUE ("stripe_subscription_id"),
        CONSTRAINT "uq_teams_stripe_customer_id" UNIQUE ("stripe_customer_id"),
        CONSTRAINT "PK_7e5523774a38b08a6236d322403" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "team_members" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "team_id" integer NOT NULL,
        "role" character varying(20) NOT NULL DEFAULT 'member',
        "joined_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_team_members_team_user" UNIQUE ("team_id", "user_id"),
        CONSTRAINT "chk_team_members_role" CHECK ("role" IN ('owner', 'admin', 'member')),
        CONSTRAINT "PK_ca3eae89dcf20c9fd95bf7460aa" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_team_members_user_id" ON "team_members" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "activity_logs" (
        "id" BIGSERIAL NOT NULL,
        "team_id" integer,
        "user_id" integer,
        "action" character varying(40) NOT NULL,
        "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "ip_address" character varying(45),
        "details" jsonb,
        CONSTRAINT "chk_activity_logs_action" CHECK ("action" IN ('SIGN_UP', 'SIGN_IN', 'SIGN_OUT', 'UPDATE_PASSWORD', 'DELETE_ACCOUNT', 'UPDATE_ACCOUNT', 'CREATE_TEAM', 'REMOVE_TEAM_MEMBER', 'INVITE_TEAM_MEMBER', 'ACCEPT_INVITATION', 'MARKET_OPEN', 'MARKET_CLOSE', 'MARKET_OPENING_SOON', 'MARKET_CLOSING_SOON', 'MARKET_ALERT_TECHNICAL', 'MARKET_ALERT_PRICE', 'MARKET_ALERT_VOLATILITY', 'MARKET_ALERT_NEWS')),
        CONSTRAINT "PK_f25287b6140c5ba18d38776a796" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_activity_logs_user_id" ON "activity_logs" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_activity_logs_team_timestamp" ON "activity_logs" ("team_id", "timestamp") `);
    await queryRunner.query(`CREATE TABLE "invitations" (
        "id" SERIAL NOT NULL,
        "team_id" integer NOT NULL,
        "email" character varying(255) NOT NULL,
        "role" character varying(20) NOT NULL DEFAULT 'member',
        "invited_by" integer,
        "invited_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "status" character varying(20) NOT NULL DEFAULT 'pending',
        CONSTRAINT "chk_invitations_status" CHECK ("status" IN ('pending', 'accepted', 'revoked', 'expired')),
        CONSTRAINT "chk_invitations_role" CHECK ("role" IN ('owner', 'admin', 'member')),
        CONSTRAINT "PK_5dec98cfdfd562e4ad3648bbb07" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_invitations_team_id" ON "invitations" ("team_id") `);
    await queryRunner.query(`CREATE INDEX "ix_invitations_email" ON "invitations" ("email") `);
    await queryRunner.query(`CREATE INDEX "ix_invitations_invited_by" ON "invitations" ("invited_by") `);
    await queryRunner.query(`CREATE TABLE "accounts" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "provider" character varying(50) NOT NULL,
        "provider_account_id" character varying(255) NOT NULL,
        "type" character varying(30) NOT NULL,
        "access_token" text,
        "refresh_token" text,
        "expires_at" TIMESTAMP WITH TIME ZONE,
        "token_type" character varying(50),
        "scope" text,
        "id_token" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_accounts_provider_account" UNIQUE ("provider", "provider_account_id"),
        CONSTRAINT "PK_5a7a02c20412299d198e097a8fe" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_accounts_user_id" ON "accounts" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "sessions" (
        "sid" character varying NOT NULL,
        "sess" json NOT NULL,
        "expire" TIMESTAMP(6) NOT NULL,
        "user_id" integer,
        CONSTRAINT "PK_e2d6172ca19b8ebef797c362b05" PRIMARY KEY ("sid")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_sessions_expire" ON "sessions" ("expire") `);
    await queryRunner.query(`CREATE INDEX "ix_sessions_user_id" ON "sessions" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "verification_tokens" (
        "identifier" character varying(255) NOT NULL,
        "token" character varying(255) NOT NULL,
        "expires" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "uq_verification_tokens_token" UNIQUE ("token"),
        CONSTRAINT "PK_8e338f6e5b12ee0e24e59ed93d2" PRIMARY KEY ("identifier", "token")
      )`);
    await queryRunner.query(`CREATE TABLE "user_preferences" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "market_open_notifications" boolean NOT NULL DEFAULT true,
        "market_close_notifications" boolean NOT NULL DEFAULT true,
        "market_opening_soon_notifications" boolean NOT NULL DEFAULT true,
        "market_closing_soon_notifications" boolean NOT NULL DEFAULT true,
        "sound_notifications" boolean NOT NULL DEFAULT true,
        "email_notifications" boolean NOT NULL DEFAULT false,
        "push_notifications" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_user_preferences_user_id" UNIQUE ("user_id"),
        CONSTRAINT "PK_e8cfb5b31af61cd363a6b6d7c25" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "markets" (
        "id" SERIAL NOT NULL,
        "name" character varying(100) NOT NULL,
        "symbol" character varying(30) NOT NULL,
        "type" character varying(20) NOT NULL,
        "description" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_markets_symbol" UNIQUE ("symbol"),
        CONSTRAINT "PK_dda44129b32f21ae9f1c28dcf99" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "alerts" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "market_id" integer NOT NULL,
        "name" character varying(100) NOT NULL,
        "condition" character varying(30) NOT NULL,
        "value" numeric(30,10) NOT NULL,
        "is_active" boolean NOT NULL DEFAULT true,
        "use_audio" boolean NOT NULL DEFAULT false,
        "audio_message" character varying(500),
        "audio_voice_id" character varying(100),
        "last_triggered" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_60f895662df096bfcdfab7f4b96" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_alerts_user_id" ON "alerts" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_alerts_market_active" ON "alerts" ("market_id", "is_active") `);
    await queryRunner.query(`CREATE TABLE "alert_logs" (
        "id" BIGSERIAL NOT NULL,
        "alert_id" integer NOT NULL,
        "triggered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "value" numeric(30,10) NOT NULL,
        "was_notified" boolean NOT NULL DEFAULT false,
        CONSTRAINT "PK_839d59dc0124b583ee4233a7df9" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_alert_logs_alert_triggered_at" ON "alert_logs" ("alert_id", "triggered_at") `);
    await queryRunner.query(`CREATE TABLE "products" (
        "id" SERIAL NOT NULL,
        "stripe_product_id" character varying(255) NOT NULL,
        "name" character varying(100) NOT NULL,
        "description" text,
        "active" boolean NOT NULL DEFAULT true,
        "metadata" jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_products_stripe_product_id" UNIQUE ("stripe_product_id"),
        CONSTRAINT "PK_0806c755e0aca124e67c0cf6d7d" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "prices" (
        "id" SERIAL NOT NULL,
        "product_id" integer NOT NULL,
        "stripe_price_id" character varying(255) NOT NULL,
        "unit_amount" numeric(20,0),
        "currency" character varying(3) NOT NULL DEFAULT 'usd',
        "interval" character varying(10),
        "trial_period_days" integer,
        "active" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_prices_stripe_price_id" UNIQUE ("stripe_price_id"),
        CONSTRAINT "PK_2e40b9e4e631a53cd514d82ccd2" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_prices_product_id" ON "prices" ("product_id") `);
    await queryRunner.query(`CREATE TABLE "subscriptions" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "stripe_subscription_id" character varying(255) NOT NULL,
        "stripe_customer_id" character varying(255) NOT NULL,
        "stripe_price_id" character varying(255),
        "plan_name" character varying(50),
        "status" character varying(30) NOT NULL DEFAULT 'inactive',
        "current_period_start" TIMESTAMP WITH TIME ZONE,
        "current_period_end" TIMESTAMP WITH TIME ZONE,
        "cancel_at_period_end" boolean NOT NULL DEFAULT false,
        "trial_start" TIMESTAMP WITH TIME ZONE,
        "trial_end" TIMESTAMP WITH TIME ZONE,
        "canceled_at" TIMESTAMP WITH TIME ZONE,
        "metadata" jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_subscriptions_stripe_subscription_id" UNIQUE ("stripe_subscription_id"),
        CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_subscriptions_user_id" ON "subscriptions" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_subscriptions_stripe_customer_id" ON "subscriptions" ("stripe_customer_id") `);
    await queryRunner.query(`CREATE TABLE "subscription_events" (
        "id" SERIAL NOT NULL,
        "subscription_id" integer NOT NULL,
        "event_type" character varying(100) NOT NULL,
        "event_data" jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_7eb5647aa3071cffad0124bceee" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_subscription_events_subscription_id" ON "subscription_events" ("subscription_id") `);
    await queryRunner.query(`CREATE TABLE "chat_rooms" (
        "id" SERIAL NOT NULL,
        "name" character varying(100) NOT NULL,
        "type" character varying(20) NOT NULL DEFAULT 'chat',
        "description" text,
        "trading_pair" character varying(30),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_c69082bd83bffeb71b0f455bd59" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "chat_messages" (
        "id" BIGSERIAL NOT NULL,
        "room_id" integer NOT NULL,
        "user_id" integer,
        "message" text NOT NULL,
        "message_type" character varying(20) NOT NULL DEFAULT 'user_message',
        "reply_to_message_id" bigint,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_40c55ee0e571e268b0d3cd37d10" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_messages_user_id" ON "chat_messages" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_chat_messages_reply_to_message_id" ON "chat_messages" ("reply_to_message_id") `);
    await queryRunner.query(`CREATE INDEX "ix_chat_messages_room_created_at" ON "chat_messages" ("room_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "message_reactions" (
        "id" SERIAL NOT NULL,
        "message_id" bigint NOT NULL,
        "user_id" integer NOT NULL,
        "reaction" character varying(10) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_message_reactions_message_user_reaction" UNIQUE ("message_id", "user_id", "reaction"),
        CONSTRAINT "PK_654a9f0059ff93a8f156be66a5b" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_message_reactions_user_id" ON "message_reactions" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "chat_room_members" (
        "id" SERIAL NOT NULL,
        "room_id" integer NOT NULL,
        "user_id" integer NOT NULL,
        "role" character varying(20) NOT NULL DEFAULT 'member',
        "joined_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "last_read_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "uq_chat_room_members_room_user" UNIQUE ("room_id", "user_id"),
        CONSTRAINT "chk_chat_room_members_role" CHECK ("role" IN ('owner', 'moderator', 'member')),
        CONSTRAINT "PK_736e2c819bfb5e5ab96ce8b43c6" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_room_members_user_id" ON "chat_room_members" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "chat_notifications" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "message_id" bigint NOT NULL,
        "type" character varying(20) NOT NULL DEFAULT 'room_message',
        "is_read" boolean NOT NULL DEFAULT false,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_d2e27028c53bd963063b5afaaa4" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_notifications_message_id" ON "chat_notifications" ("message_id") `);
    await queryRunner.query(`CREATE INDEX "ix_chat_notifications_user_read" ON "chat_notifications" ("user_id", "is_read") `);
    await queryRunner.query(`CREATE TABLE "user_chat_preferences" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "sound_notifications" boolean NOT NULL DEFAULT true,
        "desktop_notifications" boolean NOT NULL DEFAULT true,
        "show_online_status" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_user_chat_preferences_user_id" UNIQUE ("user_id"),
        CONSTRAINT "PK_60063d5cfc824d12d39834ccb7a" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "cot_instruments" (
        "id" SERIAL NOT NULL,
        "cftc_code" character varying(20) NOT NULL,
        "instrument_name" character varying(200) NOT NULL,
        "symbol" character varying(20),
        "exchange" character varying(100),
        "contract_size" numeric(24,4),
        "category" character varying(50),
        "is_active" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_cot_instruments_cftc_code" UNIQUE ("cftc_code"),
        CONSTRAINT "PK_5b6fc7675776dc71a04e649a08f" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "cot_reports" (
        "id" SERIAL NOT NULL,
        "report_date" date NOT NULL,
        "report_type" character varying(30) NOT NULL DEFAULT 'financial',
        "source_url" text,
        "raw_data" jsonb,
        "processed_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_cot_reports_date_type" UNIQUE ("report_date", "report_type"),
        CONSTRAINT "PK_aff7858d17d3cc05ee2404879ef" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "cot_positions" (
        "id" BIGSERIAL NOT NULL,
        "report_id" integer NOT NULL,
        "instrument_id" integer NOT NULL,
        "open_interest" integer NOT NULL,
        "dealer_long" integer NOT NULL DEFAULT '0',
        "dealer_short" integer NOT NULL DEFAULT '0',
        "dealer_spreading" integer NOT NULL DEFAULT '0',
        "dealer_long_change" integer,
        "dealer_short_change" integer,
        "dealer_spreading_change" integer,
        "dealer_long_percent" numeric(5,2),
        "dealer_short_percent" numeric(5,2),
        "dealer_spreading_percent" numeric(5,2),
        "dealer_long_traders" integer,
        "dealer_short_traders" integer,
        "dealer_spreading_traders" integer,
        "asset_manager_long" integer NOT NULL DEFAULT '0',
        "asset_manager_short" integer NOT NULL DEFAULT '0',
        "asset_manager_spreading" integer NOT NULL DEFAULT '0',
        "asset_manager_long_change" integer,
        "asset_manager_short_change" integer,
        "asset_manager_spreading_change" integer,
        "asset_manager_long_percent" numeric(5,2),
        "asset_manager_short_percent" numeric(5,2),
        "asset_manager_spreading_percent" numeric(5,2),
        "asset_manager_long_traders" integer,
        "asset_manager_short_traders" integer,
        "asset_manager_spreading_traders" integer,
        "leveraged_long" integer NOT NULL DEFAULT '0',
        "leveraged_short" integer NOT NULL DEFAULT '0',
        "leveraged_spreading" integer NOT NULL DEFAULT '0',
        "leveraged_long_change" integer,
        "leveraged_short_change" integer,
        "leveraged_spreading_change" integer,
        "leveraged_long_percent" numeric(5,2),
        "leveraged_short_percent" numeric(5,2),
        "leveraged_spreading_percent" numeric(5,2),
        "leveraged_long_traders" integer,
        "leveraged_short_traders" integer,
        "leveraged_spreading_traders" integer,
        "other_long" integer NOT NULL DEFAULT '0',
        "other_short" integer NOT NULL DEFAULT '0',
        "other_spreading" integer NOT NULL DEFAULT '0',
        "other_long_change" integer,
        "other_short_change" integer,
        "other_spreading_change" integer,
        "other_long_percent" numeric(5,2),
        "other_short_percent" numeric(5,2),
        "other_spreading_percent" numeric(5,2),
        "other_long_traders" integer,
        "other_short_traders" integer,
        "other_spreading_traders" integer,
        "non_reportable_long" integer NOT NULL DEFAULT '0',
        "non_reportable_short" integer NOT NULL DEFAULT '0',
        "non_reportable_long_change" integer,
        "non_reportable_short_change" integer,
        "non_reportable_long_percent" numeric(5,2),
        "non_reportable_short_percent" numeric(5,2),
        "total_traders" integer,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_cot_positions_report_instrument" UNIQUE ("report_id", "instrument_id"),
        CONSTRAINT "PK_3e14954022b74b7917832883963" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_cot_positions_instrument_report" ON "cot_positions" ("instrument_id", "report_id") `);
    await queryRunner.query(`CREATE TABLE "cot_analytics" (
        "id" SERIAL NOT NULL,
        "position_id" bigint NOT NULL,
        "leveraged_net_percent" numeric(5,2),
        "commercial_net_percent" numeric(5,2),
        "asset_manager_net_percent" numeric(5,2),
        "dealer_net_percent" numeric(5,2),
        "other_net_percent" numeric(5,2),
        "non_reportable_net_percent" numeric(5,2),
        "leveraged_percentile_rank" numeric(5,2),
        "commercial_percentile_rank" numeric(5,2),
        "asset_manager_percentile_rank" numeric(5,2),
        "is_leveraged_extreme" boolean NOT NULL DEFAULT false,
        "is_commercial_extreme" boolean NOT NULL DEFAULT false,
        "is_asset_manager_extreme" boolean NOT NULL DEFAULT false,
        "divergence_score" numeric(12,4),
        "divergence_type" character varying(50),
        "alert_level" character varying(20),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_cot_analytics_position_id" UNIQUE ("position_id"),
        CONSTRAINT "PK_75b92546790ade3361552123530" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "exchanges" (
        "id" character varying(10) NOT NULL,
        "name" character varying(100) NOT NULL,
        "location" character varying(100) NOT NULL,
        "timezone" character varying(64) NOT NULL,
        "open_time" character varying(5) NOT NULL,
        "close_time" character varying(5) NOT NULL,
        "break_start" character varying(5),
        "break_end" character varying(5),
        "weekdays" smallint array NOT NULL,
        "is_active" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "chk_exchanges_weekdays" CHECK ("weekdays" <@ ARRAY[0, 1, 2, 3, 4, 5, 6]::smallint[]),
        CONSTRAINT "chk_exchanges_break_pair" CHECK (("break_start" IS NULL) = ("break_end" IS NULL)),
        CONSTRAINT "chk_exchanges_break_end" CHECK ("break_end" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT "chk_exchanges_break_start" CHECK ("break_start" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT "chk_exchanges_close_time" CHECK ("close_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT "chk_exchanges_open_time" CHECK ("open_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT "PK_17ccd29473f939c68de98c2cea3" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "exchange_calendar_days" (
        "id" SERIAL NOT NULL,
        "exchange_id" character varying(10) NOT NULL,
        "date" date NOT NULL,
        "kind" character varying(20) NOT NULL,
        "open_time" character varying(5),
        "close_time" character varying(5),
        "name" character varying(200),
        "source" character varying(200),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_exchange_calendar_days_exchange_date" UNIQUE ("exchange_id", "date"),
        CONSTRAINT "chk_exchange_calendar_days_close_time" CHECK ("close_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT "chk_exchange_calendar_days_open_time" CHECK ("open_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT "chk_exchange_calendar_days_kind" CHECK ("kind" IN ('holiday', 'early_close', 'late_open')),
        CONSTRAINT "PK_29892d16ce4e411b373505d0851" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "exchange_follows" (
        "user_id" integer NOT NULL,
        "exchange_id" character varying(10) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_840313889194a0eac5ff9b37119" PRIMARY KEY ("user_id", "exchange_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_exchange_follows_exchange_id" ON "exchange_follows" ("exchange_id") `);
    await queryRunner.query(`CREATE TABLE "insider_trading_companies" (
        "id" SERIAL NOT NULL,
        "ticker" character varying(20) NOT NULL,
        "company_name" character varying(200) NOT NULL,
        "cik" character varying(10) NOT NULL,
        "industry" character varying(100),
        "sector" character varying(100),
        "market_cap" numeric(24,2),
        "is_active" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_insider_trading_companies_cik" UNIQUE ("cik"),
        CONSTRAINT "uq_insider_trading_companies_ticker" UNIQUE ("ticker"),
        CONSTRAINT "PK_c1daf69cb4978f7712589693811" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "insider_trading_insiders" (
        "id" SERIAL NOT NULL,
        "name" character varying(200) NOT NULL,
        "cik" character varying(10) NOT NULL,
        "is_officer" boolean NOT NULL DEFAULT false,
        "is_director" boolean NOT NULL DEFAULT false,
        "is_ten_percent_owner" boolean NOT NULL DEFAULT false,
        "is_other" boolean NOT NULL DEFAULT false,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_insider_trading_insiders_cik" UNIQUE ("cik"),
        CONSTRAINT "PK_8d96468637d993a051183bbcc90" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "insider_trading_transactions" (
        "id" BIGSERIAL NOT NULL,
        "company_id" integer NOT NULL,
        "insider_id" integer NOT NULL,
        "transaction_date" date NOT NULL,
        "transaction_type" character varying(20) NOT NULL,
        "shares_traded" numeric(20,4) NOT NULL,
        "price_per_share" numeric(30,10) NOT NULL DEFAULT '0',
        "total_value" numeric(24,2),
        "shares_owned_after" numeric(20,4),
        "ownership_percent" numeric(7,4),
        "sec_form_type" character varying(10) NOT NULL DEFAULT '4',
        "sec_accession_number" character varying(25) NOT NULL,
        "sec_filing_date" date,
        "sec_url" text,
        "relationship" character varying(200),
        "is_proposed" boolean NOT NULL DEFAULT false,
        "data_source" character varying(20) NOT NULL DEFAULT 'sec',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_insider_trading_transactions_natural_key" UNIQUE ("sec_accession_number", "insider_id", "transaction_date", "transaction_type", "shares_traded", "price_per_share"),
        CONSTRAINT "PK_7bccbda349d02eb53eea5c13a61" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_insider_id" ON "insider_trading_transactions" ("insider_id") `);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_company_date" ON "insider_trading_transactions" ("company_id", "transaction_date") `);
    await queryRunner.query(`CREATE TABLE "insider_trading_analytics" (
        "id" SERIAL NOT NULL,
        "company_id" integer NOT NULL,
        "analysis_date" date NOT NULL,
        "total_transactions_30d" integer NOT NULL DEFAULT '0',
        "buy_transactions_30d" integer NOT NULL DEFAULT '0',
        "sell_transactions_30d" integer NOT NULL DEFAULT '0',
        "net_shares_30d" numeric(20,4) NOT NULL DEFAULT '0',
        "net_value_30d" numeric(24,2) NOT NULL DEFAULT '0',
        "total_volume_30d" numeric(20,4) NOT NULL DEFAULT '0',
        "avg_transaction_size" numeric(24,2),
        "insider_sentiment" character varying(20),
        "sentiment_score" numeric(12,4),
        "confidence_level" numeric(5,4),
        "percentile_rank" numeric(5,2),
        "is_unusual_activity" boolean NOT NULL DEFAULT false,
        "alert_level" character varying(20),
        "alert_reason" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_insider_trading_analytics_company_date" UNIQUE ("company_id", "analysis_date"),
        CONSTRAINT "PK_9f3cf3ea229dc33732eaa065e23" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "lockup_events" (
        "id" SERIAL NOT NULL,
        "ticker" character varying(20) NOT NULL,
        "company_name" character varying(200) NOT NULL,
        "ipo_date" date NOT NULL,
        "lockup_expiration_date" date NOT NULL,
        "shares_locked_up" bigint,
        "total_shares_outstanding" bigint,
        "current_price" numeric(30,10),
        "market_cap" numeric(24,2),
        "vc_backed" boolean NOT NULL DEFAULT false,
        "industry" character varying(100),
        "risk_score" numeric(12,4) NOT NULL DEFAULT '0',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_lockup_events_ticker_ipo_date" UNIQUE ("ticker", "ipo_date"),
        CONSTRAINT "PK_5d2d2b475e52a322b884f2c6b26" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_lockup_events_lockup_expiration_date" ON "lockup_events" ("lockup_expiration_date") `);
    await queryRunner.query(`CREATE TABLE "chart_layouts" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "name" character varying(100) NOT NULL,
        "layout" jsonb NOT NULL,
        "is_default" boolean NOT NULL DEFAULT false,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_38d32900d8223f4327488006e36" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chart_layouts_user_id" ON "chart_layouts" ("user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_chart_layouts_default_per_user" ON "chart_layouts" ("user_id") WHERE "is_default"`);
    await queryRunner.query(`CREATE TABLE "watchlists" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "name" character varying(100) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_aa3c717b50a10f7a435c65eda5a" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_watchlists_user_id" ON "watchlists" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "watchlist_items" (
        "id" SERIAL NOT NULL,
        "watchlist_id" integer NOT NULL,
        "market_id" integer NOT NULL,
        "order" integer NOT NULL DEFAULT '0',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_watchlist_items_watchlist_market" UNIQUE ("watchlist_id", "market_id"),
        CONSTRAINT "PK_0a02323c5cc02e094871f24062b" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_watchlist_items_market_id" ON "watchlist_items" ("market_id") `);
    await queryRunner.query(`CREATE TABLE "notifications" (
        "id" BIGSERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "title" character varying(200) NOT NULL,
        "message" text NOT NULL,
        "type" character varying(10) NOT NULL DEFAULT 'info',
        "activity_type" character varying(40),
        "exchange_id" character varying(10),
        "symbol_id" character varying(30),
        "details" jsonb,
        "dedupe_key" character varying(200),
        "read_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_notifications_user_dedupe_key" UNIQUE ("user_id", "dedupe_key"),
        CONSTRAINT "chk_notifications_type" CHECK ("type" IN ('info', 'success', 'warning', 'error')),
        CONSTRAINT "PK_6a72c3c0f683f6462415e653c3a" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_notifications_user_unread" ON "notifications" ("user_id") WHERE "read_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "ix_notifications_user_created_at" ON "notifications" ("user_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "push_subscriptions" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "endpoint" text NOT NULL,
        "p256dh" character varying(255) NOT NULL,
        "auth" character varying(255) NOT NULL,
        "user_agent" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "last_success_at" TIMESTAMP WITH TIME ZONE,
        "failure_count" integer NOT NULL DEFAULT '0',
        CONSTRAINT "uq_push_subscriptions_endpoint" UNIQUE ("endpoint"),
        CONSTRAINT "PK_757fc8f00c34f66832668dc2e53" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_push_subscriptions_user_id" ON "push_subscriptions" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "prediction_markets" (
        "id" SERIAL NOT NULL,
        "polymarket_id" character varying(100) NOT NULL,
        "question" text NOT NULL,
        "description" text,
        "category" character varying(50),
        "subcategory" character varying(50),
        "end_date" TIMESTAMP WITH TIME ZONE,
        "resolution_source" text,
        "current_prices" jsonb,
        "volume_24h" numeric(24,2),
        "liquidity" numeric(24,2),
        "is_active" boolean NOT NULL DEFAULT true,
        "tags" text array,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_prediction_markets_polymarket_id" UNIQUE ("polymarket_id"),
        CONSTRAINT "PK_4562a7ed043f6d7fc7c20e2e6f1" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "user_predictions" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "market_id" integer NOT NULL,
        "user_prediction" numeric(5,4) NOT NULL,
        "market_price" numeric(5,4) NOT NULL,
        "confidence" smallint,
        "notes" text,
        "date_made" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "resolution" character varying(50),
        "date_resolved" TIMESTAMP WITH TIME ZONE,
        "points" numeric(12,4),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_17da34461ed67d6ec552a4dc863" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_user_predictions_user_id" ON "user_predictions" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_user_predictions_market_id" ON "user_predictions" ("market_id") `);
    await queryRunner.query(`CREATE TABLE "mispricing_alerts" (
        "id" SERIAL NOT NULL,
        "market_id" integer NOT NULL,
        "current_price" numeric(5,4) NOT NULL,
        "fair_value" numeric(5,4) NOT NULL,
        "confidence" numeric(5,4) NOT NULL,
        "reasoning" text,
        "deviation" numeric(5,4) NOT NULL,
        "is_active" boolean NOT NULL DEFAULT true,
        "detected_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "resolved_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_abd09fa22f90edabf76de8ed072" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_mispricing_alerts_market_active" ON "mispricing_alerts" ("market_id", "is_active") `);
    await queryRunner.query(`CREATE TABLE "prediction_performance" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "total_predictions" integer NOT NULL DEFAULT '0',
        "correct_predictions" integer NOT NULL DEFAULT '0',
        "accuracy" numeric(5,4),
        "brier_score" numeric(5,4),
        "calibration" numeric(5,4),
        "total_points" numeric(12,4) NOT NULL DEFAULT '0',
        "best_categories" jsonb,
        "improvement_areas" jsonb,
        "last_calculated" TIMESTAMP WITH TIME ZONE,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_prediction_performance_user_id" UNIQUE ("user_id"),
        CONSTRAINT "PK_4898f940b413ddec1d836768892" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "source_health" (
        "source" character varying(50) NOT NULL,
        "last_success_at" TIMESTAMP WITH TIME ZONE,
        "last_error_at" TIMESTAMP WITH TIME ZONE,
        "last_error" text,
        "last_data_at" TIMESTAMP WITH TIME ZONE,
        "consecutive_failures" integer NOT NULL DEFAULT '0',
        "details" jsonb,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_9f9b3c699843f759be2524a523d" PRIMARY KEY ("source")
      )`);
    await queryRunner.query(`CREATE TABLE "processed_events" (
        "provider" character varying(30) NOT NULL,
        "event_id" character varying(255) NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "processed_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_a1cb2fc867ba3e8902d844fd85d" PRIMARY KEY ("provider", "event_id")
      )`);
    await queryRunner.query(`CREATE TABLE "seed_history" (
        "name" character varying(100) NOT NULL,
        "applied_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_3593e1c2b96d3b0a2d31cafba11" PRIMARY KEY ("name")
      )`);
    await queryRunner.query(`CREATE TABLE "whale_addresses" (
        "id" SERIAL NOT NULL,
        "address" character varying(42) NOT NULL,
        "chain" character varying(20) NOT NULL DEFAULT 'ethereum',
        "label" character varying(100),
        "address_type" character varying(30),
        "exchange_name" character varying(100),
        "added_by" character varying(50) NOT NULL DEFAULT 'system',
        "added_date" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "is_active" boolean NOT NULL DEFAULT true,
        "balance_threshold" numeric(78,0),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_whale_addresses_address" UNIQUE ("address"),
        CONSTRAINT "chk_whale_addresses_address_lowercase" CHECK ("address" = lower("address")),
        CONSTRAINT "PK_78c518ef3dfb637540ad27cc0ea" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "user_watchlists" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "address_id" integer NOT NULL,
        "custom_label" character varying(100),
        "alert_enabled" boolean NOT NULL DEFAULT true,
        "alert_threshold" numeric(78,0),
        "alert_frequency" character varying(20) NOT NULL DEFAULT 'immediate',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_user_watchlists_user_address" UNIQUE ("user_id", "address_id"),
        CONSTRAINT "PK_30733728fa9500503730713b320" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_user_watchlists_address_id" ON "user_watchlists" ("address_id") `);
    await queryRunner.query(`CREATE TABLE "whale_transactions" (
        "id" BIGSERIAL NOT NULL,
        "hash" character varying(66) NOT NULL,
        "from_address" character varying(42) NOT NULL,
        "to_address" character varying(42),
        "value" numeric(78,0) NOT NULL,
        "token_symbol" character varying(20) NOT NULL DEFAULT 'ETH',
        "token_address" character varying(42),
        "block_number" bigint NOT NULL,
        "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL,
        "gas_price" numeric(78,0),
        "gas_used" bigint,
        "chain" character varying(20) NOT NULL DEFAULT 'ethereum',
        "transaction_type" character varying(30),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_whale_transactions_hash" UNIQUE ("hash"),
        CONSTRAINT "chk_whale_transactions_lowercase" CHECK ("hash" = lower("hash") AND "from_address" = lower("from_address") AND "to_address" = lower("to_address") AND "token_address" = lower("token_address")),
        CONSTRAINT "PK_5b1eca1243c63f17e6ab0502839" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_whale_transactions_block_number" ON "whale_transactions" ("block_number") `);
    await queryRunner.query(`CREATE INDEX "ix_whale_transactions_to_timestamp" ON "whale_transactions" ("to_address", "timestamp") `);
    await queryRunner.query(`CREATE INDEX "ix_whale_transactions_from_timestamp" ON "whale_transactions" ("from_address", "timestamp") `);
    await queryRunner.query(`CREATE TABLE "whale_alerts" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "address_id" integer NOT NULL,
        "transaction_id" bigint,
        "alert_type" character varying(30) NOT NULL,
        "message" text NOT NULL,
        "is_read" boolean NOT NULL DEFAULT false,
        "sent_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_whale_alerts_user_address_transaction" UNIQUE ("user_id", "address_id", "transaction_id"),
        CONSTRAINT "PK_c9ce986ce666a19020810ba8b6e" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_whale_alerts_address_id" ON "whale_alerts" ("address_id") `);
    await queryRunner.query(`CREATE INDEX "ix_whale_alerts_transaction_id" ON "whale_alerts" ("transaction_id") `);
    await queryRunner.query(`CREATE INDEX "ix_whale_alerts_user_read" ON "whale_alerts" ("user_id", "is_read") `);
    await queryRunner.query(`CREATE TABLE "yield_pools" (
        "id" SERIAL NOT NULL,
        "pool_id" character varying(100) NOT NULL,
        "symbol" character varying(50) NOT NULL,
        "token0" character varying(42) NOT NULL,
        "token1" character varying(42) NOT NULL,
        "token0_symbol" character varying(20) NOT NULL,
        "token1_symbol" character varying(20) NOT NULL,
        "fee_tier" integer NOT NULL,
        "dex" character varying(30) NOT NULL DEFAULT 'uniswap-v3',
        "is_active" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_yield_pools_pool_id" UNIQUE ("pool_id"),
        CONSTRAINT "PK_38716473400590d2a5589f68752" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "yield_data" (
        "id" BIGSERIAL NOT NULL,
        "pool_id" integer NOT NULL,
        "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL,
        "tvl_usd" numeric(24,2),
        "volume_usd" numeric(24,2),
        "fees_usd" numeric(24,2),
        "apr" numeric(12,4),
        "vtr" numeric(12,4),
        "yield_score" numeric(12,4),
        "defillama_apy" numeric(12,4),
        "data_source" character varying(30) NOT NULL DEFAULT 'uniswap-subgraph',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_yield_data_pool_timestamp" UNIQUE ("pool_id", "timestamp"),
        CONSTRAINT "PK_b90448d5904e80dca80f9271382" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE TABLE "yield_alerts" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "pool_id" integer NOT NULL,
        "alert_type" character varying(30) NOT NULL,
        "threshold" numeric(24,4) NOT NULL,
        "condition" character varying(20) NOT NULL DEFAULT 'greater_than',
        "is_active" boolean NOT NULL DEFAULT true,
        "email_enabled" boolean NOT NULL DEFAULT false,
        "telegram_enabled" boolean NOT NULL DEFAULT false,
        "last_triggered" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_0524383176305b370612e433310" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_yield_alerts_user_id" ON "yield_alerts" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_yield_alerts_pool_active" ON "yield_alerts" ("pool_id", "is_active") `);
    await queryRunner.query(`CREATE TABLE "yield_alert_logs" (
        "id" SERIAL NOT NULL,
        "alert_id" integer NOT NULL,
        "yield_data_id" bigint,
        "triggered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "triggered_value" numeric(24,4) NOT NULL,
        "threshold" numeric(24,4) NOT NULL,
        "email_sent" boolean NOT NULL DEFAULT false,
        "telegram_sent" boolean NOT NULL DEFAULT false,
        CONSTRAINT "PK_d983a0caf190545618614d99fbb" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_yield_alert_logs_yield_data_id" ON "yield_alert_logs" ("yield_data_id") `);
    await queryRunner.query(`CREATE INDEX "ix_yield_alert_logs_alert_triggered_at" ON "yield_alert_logs" ("alert_id", "triggered_at") `);
    await queryRunner.query(`ALTER TABLE "team_members" ADD CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "team_members" ADD CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD CONSTRAINT "FK_f674c743aa15eeb7e578b4e31dd" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD CONSTRAINT "FK_d54f841fa5478e4734590d44036" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invitations" ADD CONSTRAINT "FK_67a78e8571040a0deb60ee6c319" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invitations" ADD CONSTRAINT "FK_29b1cef6891d9b9d4e35f793b81" FOREIGN KEY ("invited_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "accounts" ADD CONSTRAINT "FK_3000dad1da61b29953f07476324" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "user_preferences" ADD CONSTRAINT "FK_458057fa75b66e68a275647da2e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD CONSTRAINT "FK_f1eba840c1761991f142affee66" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD CONSTRAINT "FK_2b107f05054a8150379e952d5da" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD CONSTRAINT "FK_b94d11c174f92e91994785d7caa" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "prices" ADD CONSTRAINT "FK_144765f6b6bef86e113b507ed12" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD CONSTRAINT "FK_485cf051a532ff3a47059d440da" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD CONSTRAINT "FK_7f52e11d11d4e8cc41224352869" FOREIGN KEY ("room_id") REFERENCES "chat_rooms"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD CONSTRAINT "FK_5588b6cea298cedec7063c0d33e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD CONSTRAINT "FK_686a3bfebb7545534342c5fa272" FOREIGN KEY ("reply_to_message_id") REFERENCES "chat_messages"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "message_reactions" ADD CONSTRAINT "FK_ce61e365d81a9dfc15cd36513b0" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "message_reactions" ADD CONSTRAINT "FK_b6d3eda2f99b64016d6a4cf112f" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD CONSTRAINT "FK_58f6a1eac4ffde565c8b078bf4e" FOREIGN KEY ("room_id") REFERENCES "chat_rooms"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD CONSTRAINT "FK_f7d4d1d255b71027906de8357f5" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_notifications" ADD CONSTRAINT "FK_4b082b1b67efefb6763691ed398" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_notifications" ADD CONSTRAINT "FK_5ec76dac0e988e0531de828267e" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "user_chat_preferences" ADD CONSTRAINT "FK_720ed64eb7ba10104c4356d146f" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "cot_positions" ADD CONSTRAINT "FK_fbd027ca36c9fb0214a514d48b5" FOREIGN KEY ("report_id") REFERENCES "cot_reports"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "cot_positions" ADD CONSTRAINT "FK_066c2dfad0cb090c7f21689d806" FOREIGN KEY ("instrument_id") REFERENCES "cot_instruments"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD CONSTRAINT "FK_db30d7c600539a444ad868d805a" FOREIGN KEY ("position_id") REFERENCES "cot_positions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "exchange_calendar_days" ADD CONSTRAINT "FK_5fd5c07383b0551b6c6166ab18d" FOREIGN KEY ("exchange_id") REFERENCES "exchanges"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "exchange_follows" ADD CONSTRAINT "FK_5e85f8a88ba87b7bbc30291d588" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "exchange_follows" ADD CONSTRAINT "FK_f39cf58c62c3af29c995049cfb2" FOREIGN KEY ("exchange_id") REFERENCES "exchanges"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD CONSTRAINT "FK_481d248c65f3ab36d461148a4ae" FOREIGN KEY ("company_id") REFERENCES "insider_trading_companies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD CONSTRAINT "FK_89bccbcbce4fd89a190ad270702" FOREIGN KEY ("insider_id") REFERENCES "insider_trading_insiders"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD CONSTRAINT "FK_4443d312d84a4ceae81fbd577fe" FOREIGN KEY ("company_id") REFERENCES "insider_trading_companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chart_layouts" ADD CONSTRAINT "FK_880b12450edeadbfa3dbcf0d443" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "watchlists" ADD CONSTRAINT "FK_3e8bccad3dcd75fa977892c54bb" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "watchlist_items" ADD CONSTRAINT "FK_39dffbdc9256662f284befadc16" FOREIGN KEY ("watchlist_id") REFERENCES "watchlists"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "watchlist_items" ADD CONSTRAINT "FK_462b2799d9196e2b536dad5619c" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notifications" ADD CONSTRAINT "FK_9a8a82462cab47c73d25f49261f" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "push_subscriptions" ADD CONSTRAINT "FK_6771f119f1c06d2ccf38f238664" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ADD CONSTRAINT "FK_c93bc167e02d746a2d4bb4ea96d" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ADD CONSTRAINT "FK_e3207a6d6737f78f1f4847c3383" FOREIGN KEY ("market_id") REFERENCES "prediction_markets"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "mispricing_alerts" ADD CONSTRAINT "FK_fa7c7332a99f32af2981961b489" FOREIGN KEY ("market_id") REFERENCES "prediction_markets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "prediction_performance" ADD CONSTRAINT "FK_c84b0606a7791b1464ba13be545" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" ADD CONSTRAINT "FK_ef45623acebd455444c7a277074" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" ADD CONSTRAINT "FK_19d76bf02f978448681b1528744" FOREIGN KEY ("address_id") REFERENCES "whale_addresses"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD CONSTRAINT "FK_09429a0824d20b11f3c513a7c82" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD CONSTRAINT "FK_c6fb3e80a3d066d7399ea4476a8" FOREIGN KEY ("address_id") REFERENCES "whale_addresses"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD CONSTRAINT "FK_575f3e90e14d17b9a3c047d9ca6" FOREIGN KEY ("transaction_id") REFERENCES "whale_transactions"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD CONSTRAINT "FK_667515d444f94bcfc98e56d64d9" FOREIGN KEY ("pool_id") REFERENCES "yield_pools"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD CONSTRAINT "FK_46d30d7c27aebca75bfef853684" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD CONSTRAINT "FK_3a64f411969a90b35101d21b564" FOREIGN KEY ("pool_id") REFERENCES "yield_pools"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" ADD CONSTRAINT "FK_bf9a8fde3ac7ca2fc8f35969120" FOREIGN KEY ("alert_id") REFERENCES "yield_alerts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" ADD CONSTRAINT "FK_3c6e4e809ecefcd2d0a9e48f15a" FOREIGN KEY ("yield_data_id") REFERENCES "yield_data"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);

    // Written by hand: TypeORM cannot express an expression index.
    // Email is unique case-insensitively among live users; a soft-deleted user frees the address.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_users_email_active" ON "users" (lower("email")) WHERE "deleted_at" IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Written by hand: the reverse of the hand-written part of up().
    await queryRunner.query(`DROP INDEX "public"."uq_users_email_active"`);
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" DROP CONSTRAINT "FK_3c6e4e809ecefcd2d0a9e48f15a"`);
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" DROP CONSTRAINT "FK_bf9a8fde3ac7ca2fc8f35969120"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP CONSTRAINT "FK_3a64f411969a90b35101d21b564"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP CONSTRAINT "FK_46d30d7c27aebca75bfef853684"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP CONSTRAINT "FK_667515d444f94bcfc98e56d64d9"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP CONSTRAINT "FK_575f3e90e14d17b9a3c047d9ca6"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP CONSTRAINT "FK_c6fb3e80a3d066d7399ea4476a8"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP CONSTRAINT "FK_09429a0824d20b11f3c513a7c82"`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" DROP CONSTRAINT "FK_19d76bf02f978448681b1528744"`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" DROP CONSTRAINT "FK_ef45623acebd455444c7a277074"`);
    await queryRunner.query(`ALTER TABLE "prediction_performance" DROP CONSTRAINT "FK_c84b0606a7791b1464ba13be545"`);
    await queryRunner.query(`ALTER TABLE "mispricing_alerts" DROP CONSTRAINT "FK_fa7c7332a99f32af2981961b489"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" DROP CONSTRAINT "FK_e3207a6d6737f78f1f4847c3383"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" DROP CONSTRAINT "FK_c93bc167e02d746a2d4bb4ea96d"`);
    await queryRunner.query(`ALTER TABLE "push_subscriptions" DROP CONSTRAINT "FK_6771f119f1c06d2ccf38f238664"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP CONSTRAINT "FK_9a8a82462cab47c73d25f49261f"`);
    await queryRunner.query(`ALTER TABLE "watchlist_items" DROP CONSTRAINT "FK_462b2799d9196e2b536dad5619c"`);
    await queryRunner.query(`ALTER TABLE "watchlist_items" DROP CONSTRAINT "FK_39dffbdc9256662f284befadc16"`);
    await queryRunner.query(`ALTER TABLE "watchlists" DROP CONSTRAINT "FK_3e8bccad3dcd75fa977892c54bb"`);
    await queryRunner.query(`ALTER TABLE "chart_layouts" DROP CONSTRAINT "FK_880b12450edeadbfa3dbcf0d443"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP CONSTRAINT "FK_4443d312d84a4ceae81fbd577fe"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP CONSTRAINT "FK_89bccbcbce4fd89a190ad270702"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP CONSTRAINT "FK_481d248c65f3ab36d461148a4ae"`);
    await queryRunner.query(`ALTER TABLE "exchange_follows" DROP CONSTRAINT "FK_f39cf58c62c3af29c995049cfb2"`);
    await queryRunner.query(`ALTER TABLE "exchange_follows" DROP CONSTRAINT "FK_5e85f8a88ba87b7bbc30291d588"`);
    await queryRunner.query(`ALTER TABLE "exchange_calendar_days" DROP CONSTRAINT "FK_5fd5c07383b0551b6c6166ab18d"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP CONSTRAINT "FK_db30d7c600539a444ad868d805a"`);
    await queryRunner.query(`ALTER TABLE "cot_positions" DROP CONSTRAINT "FK_066c2dfad0cb090c7f21689d806"`);
    await queryRunner.query(`ALTER TABLE "cot_positions" DROP CONSTRAINT "FK_fbd027ca36c9fb0214a514d48b5"`);
    await queryRunner.query(`ALTER TABLE "user_chat_preferences" DROP CONSTRAINT "FK_720ed64eb7ba10104c4356d146f"`);
    await queryRunner.query(`ALTER TABLE "chat_notifications" DROP CONSTRAINT "FK_5ec76dac0e988e0531de828267e"`);
    await queryRunner.query(`ALTER TABLE "chat_notifications" DROP CONSTRAINT "FK_4b082b1b67efefb6763691ed398"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP CONSTRAINT "FK_f7d4d1d255b71027906de8357f5"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP CONSTRAINT "FK_58f6a1eac4ffde565c8b078bf4e"`);
    await queryRunner.query(`ALTER TABLE "message_reactions" DROP CONSTRAINT "FK_b6d3eda2f99b64016d6a4cf112f"`);
    await queryRunner.query(`ALTER TABLE "message_reactions" DROP CONSTRAINT "FK_ce61e365d81a9dfc15cd36513b0"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP CONSTRAINT "FK_686a3bfebb7545534342c5fa272"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP CONSTRAINT "FK_5588b6cea298cedec7063c0d33e"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP CONSTRAINT "FK_7f52e11d11d4e8cc41224352869"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP CONSTRAINT "FK_485cf051a532ff3a47059d440da"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1"`);
    await queryRunner.query(`ALTER TABLE "prices" DROP CONSTRAINT "FK_144765f6b6bef86e113b507ed12"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP CONSTRAINT "FK_b94d11c174f92e91994785d7caa"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP CONSTRAINT "FK_2b107f05054a8150379e952d5da"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP CONSTRAINT "FK_f1eba840c1761991f142affee66"`);
    await queryRunner.query(`ALTER TABLE "user_preferences" DROP CONSTRAINT "FK_458057fa75b66e68a275647da2e"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19"`);
    await queryRunner.query(`ALTER TABLE "accounts" DROP CONSTRAINT "FK_3000dad1da61b29953f07476324"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "FK_29b1cef6891d9b9d4e35f793b81"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "FK_67a78e8571040a0deb60ee6c319"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP CONSTRAINT "FK_d54f841fa5478e4734590d44036"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP CONSTRAINT "FK_f674c743aa15eeb7e578b4e31dd"`);
    await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea"`);
    await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4"`);
    await queryRunner.query(`DROP INDEX "public"."ix_yield_alert_logs_alert_triggered_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_yield_alert_logs_yield_data_id"`);
    await queryRunner.query(`DROP TABLE "yield_alert_logs"`);
    await queryRunner.query(`DROP INDEX "public"."ix_yield_alerts_pool_active"`);
    await queryRunner.query(`DROP INDEX "public"."ix_yield_alerts_user_id"`);
    await queryRunner.query(`DROP TABLE "yield_alerts"`);
    await queryRunner.query(`DROP TABLE "yield_data"`);
    await queryRunner.query(`DROP TABLE "yield_pools"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_alerts_user_read"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_alerts_transaction_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_alerts_address_id"`);
    await queryRunner.query(`DROP TABLE "whale_alerts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_transactions_from_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_transactions_to_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_transactions_block_number"`);
    await queryRunner.query(`DROP TABLE "whale_transactions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_user_watchlists_address_id"`);
    await queryRunner.query(`DROP TABLE "user_watchlists"`);
    await queryRunner.query(`DROP TABLE "whale_addresses"`);
    await queryRunner.query(`DROP TABLE "seed_history"`);
    await queryRunner.query(`DROP TABLE "processed_events"`);
    await queryRunner.query(`DROP TABLE "source_health"`);
    await queryRunner.query(`DROP TABLE "prediction_performance"`);
    await queryRunner.query(`DROP INDEX "public"."ix_mispricing_alerts_market_active"`);
    await queryRunner.query(`DROP TABLE "mispricing_alerts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_user_predictions_market_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_user_predictions_user_id"`);
    await queryRunner.query(`DROP TABLE "user_predictions"`);
    await queryRunner.query(`DROP TABLE "prediction_markets"`);
    await queryRunner.query(`DROP INDEX "public"."ix_push_subscriptions_user_id"`);
    await queryRunner.query(`DROP TABLE "push_subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notifications_user_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notifications_user_unread"`);
    await queryRunner.query(`DROP TABLE "notifications"`);
    await queryRunner.query(`DROP INDEX "public"."ix_watchlist_items_market_id"`);
    await queryRunner.query(`DROP TABLE "watchlist_items"`);
    await queryRunner.query(`DROP INDEX "public"."ix_watchlists_user_id"`);
    await queryRunner.query(`DROP TABLE "watchlists"`);
    await queryRunner.query(`DROP INDEX "public"."uq_chart_layouts_default_per_user"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chart_layouts_user_id"`);
    await queryRunner.query(`DROP TABLE "chart_layouts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_lockup_events_lockup_expiration_date"`);
    await queryRunner.query(`DROP TABLE "lockup_events"`);
    await queryRunner.query(`DROP TABLE "insider_trading_analytics"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_company_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_insider_id"`);
    await queryRunner.query(`DROP TABLE "insider_trading_transactions"`);
    await queryRunner.query(`DROP TABLE "insider_trading_insiders"`);
    await queryRunner.query(`DROP TABLE "insider_trading_companies"`);
    await queryRunner.query(`DROP INDEX "public"."ix_exchange_follows_exchange_id"`);
    await queryRunner.query(`DROP TABLE "exchange_follows"`);
    await queryRunner.query(`DROP TABLE "exchange_calendar_days"`);
    await queryRunner.query(`DROP TABLE "exchanges"`);
    await queryRunner.query(`DROP TABLE "cot_analytics"`);
    await queryRunner.query(`DROP INDEX "public"."ix_cot_positions_instrument_report"`);
    await queryRunner.query(`DROP TABLE "cot_positions"`);
    await queryRunner.query(`DROP TABLE "cot_reports"`);
    await queryRunner.query(`DROP TABLE "cot_instruments"`);
    await queryRunner.query(`DROP TABLE "user_chat_preferences"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_notifications_user_read"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_notifications_message_id"`);
    await queryRunner.query(`DROP TABLE "chat_notifications"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_room_members_user_id"`);
    await queryRunner.query(`DROP TABLE "chat_room_members"`);
    await queryRunner.query(`DROP INDEX "public"."ix_message_reactions_user_id"`);
    await queryRunner.query(`DROP TABLE "message_reactions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_messages_room_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_messages_reply_to_message_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_messages_user_id"`);
    await queryRunner.query(`DROP TABLE "chat_messages"`);
    await queryRunner.query(`DROP TABLE "chat_rooms"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscription_events_subscription_id"`);
    await queryRunner.query(`DROP TABLE "subscription_events"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_stripe_customer_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_user_id"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_prices_product_id"`);
    await queryRunner.query(`DROP TABLE "prices"`);
    await queryRunner.query(`DROP TABLE "products"`);
    await queryRunner.query(`DROP INDEX "public"."ix_alert_logs_alert_triggered_at"`);
    await queryRunner.query(`DROP TABLE "alert_logs"`);
    await queryRunner.query(`DROP INDEX "public"."ix_alerts_market_active"`);
    await queryRunner.query(`DROP INDEX "public"."ix_alerts_user_id"`);
    await queryRunner.query(`DROP TABLE "alerts"`);
    await queryRunner.query(`DROP TABLE "markets"`);
    await queryRunner.query(`DROP TABLE "user_preferences"`);
    await queryRunner.query(`DROP TABLE "verification_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."ix_sessions_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_sessions_expire"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_accounts_user_id"`);
    await queryRunner.query(`DROP TABLE "accounts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_invitations_invited_by"`);
    await queryRunner.query(`DROP INDEX "public"."ix_invitations_email"`);
    await queryRunner.query(`DROP INDEX "public"."ix_invitations_team_id"`);
    await queryRunner.query(`DROP TABLE "invitations"`);
    await queryRunner.query(`DROP INDEX "public"."ix_activity_logs_team_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."ix_activity_logs_user_id"`);
    await queryRunner.query(`DROP TABLE "activity_logs"`);
    await queryRunner.query(`DROP INDEX "public"."ix_team_members_user_id"`);
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP TABLE "teams"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
