import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lockups (issue 17): lockup_events becomes one row per tranche of an offering (unique offering_key +
 * tranche instead of ticker + IPO date) with the prospectus's facts (CIK, IPO price, shares offered,
 * underwriters, lock-up days, who is bound, the quoted clause, the source filing), its status
 * (needs_review events have no date: never a guessed one), the early-release triggers and the day one
 * was met, the score's breakdown and its price inputs; shares become numeric and the score
 * numeric(5,1). lockup_follows (a ticker, or every event above a risk score) and lockup_notices (one
 * notice per user, event and days-before, never twice). Rows from before keep their data under
 * `csv:<TICKER>:<ipoDate>` (they were loaded by hand). Hand-written from the schema builder's diff.
 */
export class Lockups1795806000000 implements MigrationInterface {
  name = 'Lockups1795806000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP CONSTRAINT "uq_lockup_events_ticker_ipo_date"`);
    await queryRunner.query(`CREATE TABLE "lockup_follows" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "kind" character varying(10) NOT NULL,
        "ticker" character varying(20),
        "min_risk_score" numeric(5,1),
        "notice_days" smallint array NOT NULL DEFAULT '{14,7,1}',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "chk_lockup_follows_kind" CHECK (("kind" = 'ticker' AND "ticker" IS NOT NULL AND "min_risk_score" IS NULL) OR ("kind" = 'risk' AND "ticker" IS NULL AND "min_risk_score" IS NOT NULL)),
        CONSTRAINT "PK_5e00cd7c0d416c5b2c7f01e129f" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_lockup_follows_user_id" ON "lockup_follows" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_lockup_follows_ticker" ON "lockup_follows" ("ticker") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_lockup_follows_risk" ON "lockup_follows" ("user_id") WHERE kind = 'risk'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_lockup_follows_ticker" ON "lockup_follows" ("user_id", "ticker") WHERE kind = 'ticker'`);
    await queryRunner.query(`CREATE TABLE "lockup_notices" (
        "user_id" integer NOT NULL,
        "event_id" integer NOT NULL,
        "days_before" smallint NOT NULL,
        "notified_on" date NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_63a8e0deece3993ce30ca9696fa" PRIMARY KEY ("user_id", "event_id", "days_before")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_lockup_notices_event_id" ON "lockup_notices" ("event_id") `);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "cik" character varying(10)`);
    // Existing rows were loaded by hand: each is its own offering, keyed like a CSV row.
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "offering_key" character varying(60)`);
    await queryRunner.query(`UPDATE "lockup_events" SET "offering_key" = 'csv:' || upper("ticker") || ':' || to_char("ipo_date", 'YYYY-MM-DD')`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "offering_key" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "tranche" smallint NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "tranches" smallint NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "tranche_label" character varying(300)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "ipo_price" numeric(20,4)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "shares_offered" numeric(20,0)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "underwriters" text array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "lockup_days" integer`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "bound_parties" text`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "clause" text`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "source_accession" character varying(25)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "source_url" text`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "filing_date" date`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "data_source" character varying(12) NOT NULL DEFAULT 'sec'`);
    await queryRunner.query(`UPDATE "lockup_events" SET "data_source" = 'csv'`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "status" character varying(15) NOT NULL DEFAULT 'scheduled'`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "review_reason" text`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "early_release" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "early_release_met_on" date`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "risk_factors" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "run_up" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD "avg_volume_ratio" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "ticker" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "lockup_expiration_date" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "shares_locked_up" TYPE numeric(20,0)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "total_shares_outstanding" TYPE numeric(20,0)`);
    // Scores were 0..100: one decimal is what the breakdown shows.
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "risk_score" TYPE numeric(5,1) USING LEAST(GREATEST(round("risk_score", 1), 0), 100)`);
    await queryRunner.query(`CREATE INDEX "ix_lockup_events_ticker" ON "lockup_events" ("ticker") `);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD CONSTRAINT "chk_lockup_events_date" CHECK ("lockup_expiration_date" IS NOT NULL OR "status" = 'needs_review')`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD CONSTRAINT "chk_lockup_events_data_source" CHECK ("data_source" IN ('sec', 'sec-replay', 'simulated', 'csv'))`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD CONSTRAINT "chk_lockup_events_status" CHECK ("status" IN ('scheduled', 'needs_review', 'released_early', 'expired'))`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD CONSTRAINT "uq_lockup_events_offering_tranche" UNIQUE ("offering_key", "tranche")`);
    await queryRunner.query(`ALTER TABLE "lockup_follows" ADD CONSTRAINT "FK_d704a08ba871ffa35e9b9cb68ad" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "lockup_notices" ADD CONSTRAINT "FK_74c0c5398647ac72a691ce12c9e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "lockup_notices" ADD CONSTRAINT "FK_e8da3f93c260d06b88d463436fb" FOREIGN KEY ("event_id") REFERENCES "lockup_events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "lockup_notices" DROP CONSTRAINT "FK_e8da3f93c260d06b88d463436fb"`);
    await queryRunner.query(`ALTER TABLE "lockup_notices" DROP CONSTRAINT "FK_74c0c5398647ac72a691ce12c9e"`);
    await queryRunner.query(`ALTER TABLE "lockup_follows" DROP CONSTRAINT "FK_d704a08ba871ffa35e9b9cb68ad"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP CONSTRAINT "uq_lockup_events_offering_tranche"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP CONSTRAINT "chk_lockup_events_status"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP CONSTRAINT "chk_lockup_events_data_source"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP CONSTRAINT "chk_lockup_events_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_lockup_events_ticker"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "risk_score" TYPE numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "total_shares_outstanding" TYPE bigint`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "shares_locked_up" TYPE bigint`);
    // The old table had one dated row per ticker and IPO date: keep the first tranche of each dated offering with a ticker.
    await queryRunner.query(`DELETE FROM "lockup_events" WHERE "ticker" IS NULL OR "lockup_expiration_date" IS NULL OR "tranche" <> 1`);
    await queryRunner.query(`DELETE FROM "lockup_events" e USING "lockup_events" o WHERE o."ticker" = e."ticker" AND o."ipo_date" = e."ipo_date" AND o."id" < e."id"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "lockup_expiration_date" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ALTER COLUMN "ticker" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "avg_volume_ratio"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "run_up"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "risk_factors"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "early_release_met_on"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "early_release"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "review_reason"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "status"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "data_source"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "filing_date"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "source_url"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "source_accession"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "clause"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "bound_parties"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "lockup_days"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "underwriters"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "shares_offered"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "ipo_price"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "tranche_label"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "tranches"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "tranche"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "offering_key"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" DROP COLUMN "cik"`);
    await queryRunner.query(`DROP INDEX "public"."ix_lockup_notices_event_id"`);
    await queryRunner.query(`DROP TABLE "lockup_notices"`);
    await queryRunner.query(`DROP INDEX "public"."uq_lockup_follows_ticker"`);
    await queryRunner.query(`DROP INDEX "public"."uq_lockup_follows_risk"`);
    await queryRunner.query(`DROP INDEX "public"."ix_lockup_follows_ticker"`);
    await queryRunner.query(`DROP INDEX "public"."ix_lockup_follows_user_id"`);
    await queryRunner.query(`DROP TABLE "lockup_follows"`);
    await queryRunner.query(`ALTER TABLE "lockup_events" ADD CONSTRAINT "uq_lockup_events_ticker_ipo_date" UNIQUE ("ticker", "ipo_date")`);
  }
}
