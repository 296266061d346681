import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Insiders1795461825769 implements MigrationInterface {
  name = 'Insiders1795461825769';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP CONSTRAINT "uq_insider_trading_transactions_natural_key"`);
    await queryRunner.query(`CREATE TABLE "insider_trading_filings" (
        "id" SERIAL NOT NULL,
        "accession_number" character varying(25) NOT NULL,
        "form_type" character varying(10) NOT NULL DEFAULT '4',
        "status" character varying(10) NOT NULL DEFAULT 'pending',
        "failure_reason" text,
        "attempts" smallint NOT NULL DEFAULT '0',
        "company_id" integer,
        "issuer_cik" character varying(10),
        "filed_at" TIMESTAMP WITH TIME ZONE,
        "filing_date" date,
        "period_of_report" date,
        "schema_version" character varying(10),
        "rule10b5_one" boolean,
        "date_of_original_submission" date,
        "amends_filing_id" integer,
        "amended_by_filing_id" integer,
        "footnotes" jsonb,
        "remarks" text,
        "sec_url" text,
        "discovered_via" character varying(12) NOT NULL DEFAULT 'feed',
        "discovered_at" TIMESTAMP WITH TIME ZONE,
        "stored_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_insider_trading_filings_accession" UNIQUE ("accession_number"),
        CONSTRAINT "chk_insider_trading_filings_status" CHECK ("status" IN ('pending', 'parsed', 'failed')),
        CONSTRAINT "PK_f71ff111a00277d790f94bc3bba" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_filings_company_id" ON "insider_trading_filings" ("company_id") `);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_filings_filed_at" ON "insider_trading_filings" ("filed_at", "id") `);
    await queryRunner.query(`CREATE TABLE "insider_trading_filing_owners" (
        "filing_id" integer NOT NULL,
        "insider_id" integer NOT NULL,
        "position" smallint NOT NULL DEFAULT '0',
        "is_officer" boolean NOT NULL DEFAULT false,
        "is_director" boolean NOT NULL DEFAULT false,
        "is_ten_percent_owner" boolean NOT NULL DEFAULT false,
        "is_other" boolean NOT NULL DEFAULT false,
        "officer_title" character varying(200),
        CONSTRAINT "PK_36f3d37ec3039b1f0d0053cea12" PRIMARY KEY ("filing_id", "insider_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_filing_owners_insider_id" ON "insider_trading_filing_owners" ("insider_id") `);
    await queryRunner.query(`CREATE TABLE "insider_trading_index_days" (
        "day" date NOT NULL,
        "filings_listed" integer NOT NULL DEFAULT '0',
        "filings_new" integer NOT NULL DEFAULT '0',
        "read_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_4cf83e0e86d9c2667c33f358aa2" PRIMARY KEY ("day")
      )`);
    await queryRunner.query(`CREATE TABLE "insider_follows" (
        "user_id" integer NOT NULL,
        "company_id" integer NOT NULL,
        "notify_cluster_buy" boolean NOT NULL DEFAULT true,
        "officer_buy_min_value" numeric(24,2) DEFAULT '25000',
        "notify_unusual_activity" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_fcae1d3616e0592c9bb5617e43f" PRIMARY KEY ("user_id", "company_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_insider_follows_company_id" ON "insider_follows" ("company_id") `);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "filing_id" integer`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "table_kind" character varying(14) NOT NULL DEFAULT 'non-derivative'`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "line_number" smallint NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "security_title" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "acquired_disposed" character(1)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "is_weighted_price" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "price_footnote" text`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "direct_or_indirect" character(1)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "nature_of_ownership" character varying(300)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "exercise_price" numeric(30,10)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "underlying_title" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "underlying_shares" numeric(20,4)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "rule10b5_one" boolean`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "trader_pattern" character varying(13)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD "discretionary_buy_value" numeric(24,2) NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD "discretionary_sell_value" numeric(24,2) NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD "distinct_insiders" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD "is_cluster_buy" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD "cluster_insiders" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD "history_percentile" numeric(5,2)`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" ADD "reason_transaction_ids" jsonb`);
    await queryRunner.query(`ALTER TABLE "insider_trading_companies" ALTER COLUMN "ticker" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ALTER COLUMN "price_per_share" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ALTER COLUMN "price_per_share" DROP DEFAULT`);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_filing_id" ON "insider_trading_transactions" ("filing_id") `);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_code_date" ON "insider_trading_transactions" ("transaction_type", "transaction_date") `);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_trade_date" ON "insider_trading_transactions" ("transaction_date", "id") `);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_filing_date" ON "insider_trading_transactions" ("sec_filing_date", "id") `);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD CONSTRAINT "uq_insider_trading_transactions_line" UNIQUE ("sec_accession_number", "table_kind", "line_number")`);
    await queryRunner.query(`ALTER TABLE "insider_trading_filings" ADD CONSTRAINT "FK_f445dc59dc7d661aa131608ff2f" FOREIGN KEY ("company_id") REFERENCES "insider_trading_companies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_trading_filing_owners" ADD CONSTRAINT "FK_8305af7191f2e01485f29e36714" FOREIGN KEY ("filing_id") REFERENCES "insider_trading_filings"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_trading_filing_owners" ADD CONSTRAINT "FK_b8edd5b696cfa4de27020b39c63" FOREIGN KEY ("insider_id") REFERENCES "insider_trading_insiders"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD CONSTRAINT "FK_6ae65d45660fffa33e28b1a45c8" FOREIGN KEY ("filing_id") REFERENCES "insider_trading_filings"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_follows" ADD CONSTRAINT "FK_8a05089b49530e7a4b713b0eef4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "insider_follows" ADD CONSTRAINT "FK_f048caaa0b91c1cf709971f625d" FOREIGN KEY ("company_id") REFERENCES "insider_trading_companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "insider_follows" DROP CONSTRAINT "FK_f048caaa0b91c1cf709971f625d"`);
    await queryRunner.query(`ALTER TABLE "insider_follows" DROP CONSTRAINT "FK_8a05089b49530e7a4b713b0eef4"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP CONSTRAINT "FK_6ae65d45660fffa33e28b1a45c8"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_filing_owners" DROP CONSTRAINT "FK_b8edd5b696cfa4de27020b39c63"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_filing_owners" DROP CONSTRAINT "FK_8305af7191f2e01485f29e36714"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_filings" DROP CONSTRAINT "FK_f445dc59dc7d661aa131608ff2f"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP CONSTRAINT "uq_insider_trading_transactions_line"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_filing_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_trade_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_code_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_filing_id"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ALTER COLUMN "price_per_share" SET DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ALTER COLUMN "price_per_share" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "insider_trading_companies" ALTER COLUMN "ticker" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP COLUMN "reason_transaction_ids"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP COLUMN "history_percentile"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP COLUMN "cluster_insiders"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP COLUMN "is_cluster_buy"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP COLUMN "distinct_insiders"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP COLUMN "discretionary_sell_value"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_analytics" DROP COLUMN "discretionary_buy_value"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "trader_pattern"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "rule10b5_one"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "underlying_shares"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "underlying_title"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "exercise_price"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "nature_of_ownership"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "direct_or_indirect"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "price_footnote"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "is_weighted_price"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "acquired_disposed"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "security_title"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "line_number"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "table_kind"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "filing_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_follows_company_id"`);
    await queryRunner.query(`DROP TABLE "insider_follows"`);
    await queryRunner.query(`DROP TABLE "insider_trading_index_days"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_filing_owners_insider_id"`);
    await queryRunner.query(`DROP TABLE "insider_trading_filing_owners"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_filings_filed_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_filings_company_id"`);
    await queryRunner.query(`DROP TABLE "insider_trading_filings"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD CONSTRAINT "uq_insider_trading_transactions_natural_key" UNIQUE ("insider_id", "transaction_date", "transaction_type", "shares_traded", "price_per_share", "sec_accession_number")`);
  }
}
