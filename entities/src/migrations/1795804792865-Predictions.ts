import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Predictions1795804792865 implements MigrationInterface {
  name = 'Predictions1795804792865';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_user_predictions_user_id"`);
    await queryRunner.query(`CREATE TABLE "prediction_market_snapshots" (
        "market_id" integer NOT NULL,
        "taken_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "price" numeric(5,4) NOT NULL,
        "best_bid" numeric(5,4),
        "best_ask" numeric(5,4),
        "source" character varying(20) NOT NULL,
        CONSTRAINT "PK_8b8ccf46906c10c089bbc8aecd0" PRIMARY KEY ("market_id", "taken_at")
      )`);
    await queryRunner.query(`CREATE TABLE "prediction_follows" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "market_id" integer,
        "category" character varying(100),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "ck_prediction_follows_target" CHECK ((market_id IS NULL) <> (category IS NULL)),
        CONSTRAINT "PK_848ca8c6eefe8bccc2b0172acae" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_prediction_follows_category" ON "prediction_follows" ("category") `);
    await queryRunner.query(`CREATE INDEX "ix_prediction_follows_market" ON "prediction_follows" ("market_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_prediction_follows_category" ON "prediction_follows" ("user_id", "category") WHERE category IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_prediction_follows_market" ON "prediction_follows" ("user_id", "market_id") WHERE market_id IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "condition_id" character varying(66)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "slug" character varying(300) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "closed_time" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "outcomes" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "yes_price" numeric(5,4)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "best_bid" numeric(5,4)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "best_ask" numeric(5,4)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "spread" numeric(5,4)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "volume" numeric(24,2)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "closed" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "accepting_orders" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "event_id" character varying(40)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "event_slug" character varying(300)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "event_title" text`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "neg_risk" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "neg_risk_augmented" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "clob_token_ids" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "resolution" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "resolved_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "source_updated_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "content_hash" character varying(64) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "data_source" character varying(20) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" ADD "synced_at" TIMESTAMP WITH TIME ZONE NOT NULL`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ADD "input_form" character varying(12) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ADD "input_text" character varying(40) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ADD "superseded_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "prediction_performance" ADD "log_score" numeric(9,6)`);
    await queryRunner.query(`ALTER TABLE "prediction_performance" ADD "details" jsonb`);
    await queryRunner.query(`ALTER TABLE "mispricing_alerts" ADD "fair_value_source" character varying(30) NOT NULL DEFAULT 'consensus'`);
    await queryRunner.query(`ALTER TABLE "mispricing_alerts" ADD "details" jsonb`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ALTER COLUMN "date_made" DROP DEFAULT`);
    await queryRunner.query(`CREATE INDEX "ix_prediction_markets_category" ON "prediction_markets" ("category") `);
    await queryRunner.query(`CREATE INDEX "ix_prediction_markets_end_date" ON "prediction_markets" ("end_date") `);
    await queryRunner.query(`CREATE INDEX "ix_prediction_markets_event_id" ON "prediction_markets" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "ix_prediction_markets_active_volume" ON "prediction_markets" ("is_active", "volume_24h") `);
    await queryRunner.query(`CREATE INDEX "ix_user_predictions_user_made" ON "user_predictions" ("user_id", "date_made") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_user_predictions_current" ON "user_predictions" ("user_id", "market_id") WHERE superseded_at IS NULL`);
    await queryRunner.query(`CREATE INDEX "ix_mispricing_alerts_detected_at" ON "mispricing_alerts" ("detected_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_mispricing_alerts_active" ON "mispricing_alerts" ("market_id", "fair_value_source") WHERE is_active`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ADD CONSTRAINT "ck_user_predictions_confidence" CHECK (confidence IS NULL OR (confidence BETWEEN 0 AND 100))`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ADD CONSTRAINT "ck_user_predictions_probability" CHECK (user_prediction > 0 AND user_prediction < 1)`);
    await queryRunner.query(`ALTER TABLE "prediction_market_snapshots" ADD CONSTRAINT "FK_89cedc97db5aefbbb84ce273ad7" FOREIGN KEY ("market_id") REFERENCES "prediction_markets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "prediction_follows" ADD CONSTRAINT "FK_d4710e32bf9e408923a78d8ec2e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "prediction_follows" ADD CONSTRAINT "FK_11e0db5a6e16bfdbd6667b458cd" FOREIGN KEY ("market_id") REFERENCES "prediction_markets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "prediction_follows" DROP CONSTRAINT "FK_11e0db5a6e16bfdbd6667b458cd"`);
    await queryRunner.query(`ALTER TABLE "prediction_follows" DROP CONSTRAINT "FK_d4710e32bf9e408923a78d8ec2e"`);
    await queryRunner.query(`ALTER TABLE "prediction_market_snapshots" DROP CONSTRAINT "FK_89cedc97db5aefbbb84ce273ad7"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" DROP CONSTRAINT "ck_user_predictions_probability"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" DROP CONSTRAINT "ck_user_predictions_confidence"`);
    await queryRunner.query(`DROP INDEX "public"."uq_mispricing_alerts_active"`);
    await queryRunner.query(`DROP INDEX "public"."ix_mispricing_alerts_detected_at"`);
    await queryRunner.query(`DROP INDEX "public"."uq_user_predictions_current"`);
    await queryRunner.query(`DROP INDEX "public"."ix_user_predictions_user_made"`);
    await queryRunner.query(`DROP INDEX "public"."ix_prediction_markets_active_volume"`);
    await queryRunner.query(`DROP INDEX "public"."ix_prediction_markets_event_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_prediction_markets_end_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_prediction_markets_category"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" ALTER COLUMN "date_made" SET DEFAULT now()`);
    await queryRunner.query(`ALTER TABLE "mispricing_alerts" DROP COLUMN "details"`);
    await queryRunner.query(`ALTER TABLE "mispricing_alerts" DROP COLUMN "fair_value_source"`);
    await queryRunner.query(`ALTER TABLE "prediction_performance" DROP COLUMN "details"`);
    await queryRunner.query(`ALTER TABLE "prediction_performance" DROP COLUMN "log_score"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" DROP COLUMN "superseded_at"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" DROP COLUMN "input_text"`);
    await queryRunner.query(`ALTER TABLE "user_predictions" DROP COLUMN "input_form"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "synced_at"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "data_source"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "content_hash"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "source_updated_at"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "resolved_at"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "resolution"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "clob_token_ids"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "neg_risk_augmented"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "neg_risk"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "event_title"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "event_slug"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "event_id"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "accepting_orders"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "closed"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "volume"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "spread"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "best_ask"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "best_bid"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "yes_price"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "outcomes"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "closed_time"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "slug"`);
    await queryRunner.query(`ALTER TABLE "prediction_markets" DROP COLUMN "condition_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_prediction_follows_market"`);
    await queryRunner.query(`DROP INDEX "public"."uq_prediction_follows_category"`);
    await queryRunner.query(`DROP INDEX "public"."ix_prediction_follows_market"`);
    await queryRunner.query(`DROP INDEX "public"."ix_prediction_follows_category"`);
    await queryRunner.query(`DROP TABLE "prediction_follows"`);
    await queryRunner.query(`DROP TABLE "prediction_market_snapshots"`);
    await queryRunner.query(`CREATE INDEX "ix_user_predictions_user_id" ON "user_predictions" ("user_id") `);
  }
}
