import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AlertsPricesWatchlists1795260314908 implements MigrationInterface {
  name = 'AlertsPricesWatchlists1795260314908';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "price_bars" (
        "market_id" integer NOT NULL,
        "interval" character varying(4) NOT NULL,
        "open_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "open" numeric(30,10) NOT NULL,
        "high" numeric(30,10) NOT NULL,
        "low" numeric(30,10) NOT NULL,
        "close" numeric(30,10) NOT NULL,
        "volume" numeric(38,10) NOT NULL DEFAULT '0',
        "source" character varying(30) NOT NULL,
        "simulated" boolean NOT NULL DEFAULT false,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_fe5be3d00f9a33a890cd42d5ce9" PRIMARY KEY ("market_id", "interval", "open_time")
      )`);
    await queryRunner.query(`ALTER TABLE "markets" ADD "exchange_id" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "params" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "interval" character varying(4)`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "frequency" character varying(20) NOT NULL DEFAULT 'once'`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "cooldown_seconds" integer NOT NULL DEFAULT '60'`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "notify_push" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "notify_email" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "webhook_url" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "webhook_secret" character varying(128)`);
    // Rows written before dedupe keys existed get a key of their own, then the column is required.
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD "dedupe_key" character varying(200)`);
    await queryRunner.query(`UPDATE "alert_logs" SET "dedupe_key" = "alert_id" || ':log:' || "id"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ALTER COLUMN "dedupe_key" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD "message" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD "notification_id" bigint`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD "checked_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD "webhook_status" character varying(20)`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD "webhook_attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD "webhook_last_error" character varying(500)`);
    await queryRunner.query(`CREATE INDEX "ix_alert_logs_unchecked" ON "alert_logs" ("alert_id") WHERE "checked_at" IS NULL`);
    await queryRunner.query(`ALTER TABLE "alert_logs" ADD CONSTRAINT "uq_alert_logs_alert_dedupe_key" UNIQUE ("alert_id", "dedupe_key")`);
    await queryRunner.query(`ALTER TABLE "watchlists" ADD CONSTRAINT "uq_watchlists_user_name" UNIQUE ("user_id", "name")`);
    await queryRunner.query(`ALTER TABLE "price_bars" ADD CONSTRAINT "FK_b6d8633d8ee4fa5c5895f2a9e7d" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "price_bars" DROP CONSTRAINT "FK_b6d8633d8ee4fa5c5895f2a9e7d"`);
    await queryRunner.query(`ALTER TABLE "watchlists" DROP CONSTRAINT "uq_watchlists_user_name"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP CONSTRAINT "uq_alert_logs_alert_dedupe_key"`);
    await queryRunner.query(`DROP INDEX "public"."ix_alert_logs_unchecked"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP COLUMN "webhook_last_error"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP COLUMN "webhook_attempts"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP COLUMN "webhook_status"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP COLUMN "checked_at"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP COLUMN "notification_id"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP COLUMN "message"`);
    await queryRunner.query(`ALTER TABLE "alert_logs" DROP COLUMN "dedupe_key"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "webhook_secret"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "webhook_url"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "notify_email"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "notify_push"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "expires_at"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "cooldown_seconds"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "frequency"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "interval"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "params"`);
    await queryRunner.query(`ALTER TABLE "markets" DROP COLUMN "exchange_id"`);
    await queryRunner.query(`DROP TABLE "price_bars"`);
  }
}
