import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whales phase 2, alerts: user_watchlists gains a USD threshold, a time zone for daily digests and
 * the time of its last alert; whale_alerts records each alerted transfer (tx hash + log index,
 * unique per user and address unless retracted), its frequency, status and digest.
 */
export class WhalesAlerts1795792600000 implements MigrationInterface {
  name = 'WhalesAlerts1795792600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP CONSTRAINT "uq_whale_alerts_user_address_transaction"`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" ADD "time_zone" character varying(64) NOT NULL DEFAULT 'UTC'`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" ADD "last_alert_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "chain" character varying(20) NOT NULL DEFAULT 'ethereum'`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "status" character varying(12) NOT NULL DEFAULT 'pending'`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "frequency" character varying(20) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "tx_hash" character varying(66) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "log_index" integer NOT NULL`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "block_number" bigint NOT NULL`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "usd_value" numeric(24,2)`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "direction" character varying(20) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "digest_key" character varying(80)`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD "delivered_at" TIMESTAMP WITH TIME ZONE`);
    // The old thresholds were token base units, meaningless in USD (and too wide for numeric(24,2)): null = the global threshold.
    await queryRunner.query(`UPDATE "user_watchlists" SET "alert_threshold" = NULL`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" ALTER COLUMN "alert_threshold" TYPE numeric(24,2)`);
    await queryRunner.query(`CREATE INDEX "ix_whale_alerts_chain_block" ON "whale_alerts" ("chain", "block_number") `);
    await queryRunner.query(`CREATE INDEX "ix_whale_alerts_pending" ON "whale_alerts" ("frequency", "sent_at") WHERE "status" = 'pending'`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_whale_alerts_user_address_transfer" ON "whale_alerts" ("user_id", "address_id", "tx_hash", "log_index") WHERE "status" <> 'retracted'`,
    );
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD CONSTRAINT "chk_whale_alerts_frequency" CHECK ("frequency" IN ('immediate', 'hourly', 'daily'))`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD CONSTRAINT "chk_whale_alerts_status" CHECK ("status" IN ('pending', 'sent', 'retracted'))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP CONSTRAINT "chk_whale_alerts_status"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP CONSTRAINT "chk_whale_alerts_frequency"`);
    await queryRunner.query(`DROP INDEX "public"."uq_whale_alerts_user_address_transfer"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_alerts_pending"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_alerts_chain_block"`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" ALTER COLUMN "alert_threshold" TYPE numeric(78,0)`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "delivered_at"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "digest_key"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "direction"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "usd_value"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "block_number"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "log_index"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "tx_hash"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "frequency"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "status"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" DROP COLUMN "chain"`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" DROP COLUMN "last_alert_at"`);
    await queryRunner.query(`ALTER TABLE "user_watchlists" DROP COLUMN "time_zone"`);
    await queryRunner.query(`ALTER TABLE "whale_alerts" ADD CONSTRAINT "uq_whale_alerts_user_address_transaction" UNIQUE ("user_id", "address_id", "transaction_id")`);
  }
}
