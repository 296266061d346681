import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Yields (issue 15): yield_pools gains DefiLlama's identity and descriptors (chain, project, pool UUID,
 * underlying tokens, stablecoin, ilRisk, exposure), the latest /pools values and the tracked flag;
 * yield_data gains DefiLlama's APY parts, mu/sigma/outlier, il7d, predictions, our fee APRs, the
 * spike baseline, the score components and the disagreement flag; yield_alerts gains the spike unit,
 * the tvl_drop window, the cooldown and the hysteresis state; yield_alert_logs is unique per alert
 * and snapshot (exactly once) and keeps its message. Hand-written from the schema builder's diff.
 */
export class Yields1795805000000 implements MigrationInterface {
  name = 'Yields1795805000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "defillama_pool_id" character varying(36)`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "chain" character varying(40) NOT NULL DEFAULT 'Ethereum'`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "project" character varying(60) NOT NULL DEFAULT 'uniswap-v3'`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "pool_meta" character varying(100)`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "pool_address" character varying(66)`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "underlying_tokens" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "stablecoin" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "il_risk" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "exposure" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "tracked" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "tvl_usd" numeric(24,2)`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "apy" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "last_seen_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "yield_pools" ADD "latest_data_id" bigint`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "volume_usd7d" numeric(24,2)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "apr_source" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "fee_apr24h" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "fee_apr7d" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "fee_apr30d" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "score_components" jsonb`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "apy_base" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "apy_reward" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "apy_mean30d" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "apr_mean30d" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "apr_sigma30d" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "mu" numeric(16,6)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "sigma" numeric(16,6)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "outlier" boolean`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "il7d" numeric(12,4)`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "apr_disagrees" boolean`);
    await queryRunner.query(`ALTER TABLE "yield_data" ADD "predictions" jsonb`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD "spike_unit" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD "window_hours" integer`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD "cooldown_minutes" integer NOT NULL DEFAULT '360'`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD "armed" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" ADD "message" character varying(300) NOT NULL DEFAULT ''`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_yield_pools_defillama_pool_id" ON "yield_pools" ("defillama_pool_id") `);
    await queryRunner.query(`CREATE INDEX "ix_yield_pools_chain_tvl" ON "yield_pools" ("chain", "tvl_usd") `);
    await queryRunner.query(`CREATE INDEX "ix_yield_data_timestamp" ON "yield_data" ("timestamp") `);
    await queryRunner.query(`CREATE INDEX "ix_yield_alerts_updated_at" ON "yield_alerts" ("updated_at") `);
    // Nothing created yield alerts before this change; a row of another type could not be evaluated.
    await queryRunner.query(`DELETE FROM "yield_alerts" WHERE "alert_type" NOT IN ('apr', 'apy_spike', 'tvl_drop', 'vtr')`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD CONSTRAINT "chk_yield_alerts_spike_unit" CHECK ("spike_unit" IS NULL OR "spike_unit" IN ('sigma', 'percent'))`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD CONSTRAINT "chk_yield_alerts_condition" CHECK ("condition" IN ('greater_than', 'less_than'))`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" ADD CONSTRAINT "chk_yield_alerts_alert_type" CHECK ("alert_type" IN ('apr', 'apy_spike', 'tvl_drop', 'vtr'))`);
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" ADD CONSTRAINT "uq_yield_alert_logs_alert_data" UNIQUE ("alert_id", "yield_data_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" DROP CONSTRAINT "uq_yield_alert_logs_alert_data"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP CONSTRAINT "chk_yield_alerts_alert_type"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP CONSTRAINT "chk_yield_alerts_condition"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP CONSTRAINT "chk_yield_alerts_spike_unit"`);
    await queryRunner.query(`DROP INDEX "public"."ix_yield_alerts_updated_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_yield_data_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."ix_yield_pools_chain_tvl"`);
    await queryRunner.query(`DROP INDEX "public"."uq_yield_pools_defillama_pool_id"`);
    await queryRunner.query(`ALTER TABLE "yield_alert_logs" DROP COLUMN "message"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP COLUMN "armed"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP COLUMN "cooldown_minutes"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP COLUMN "window_hours"`);
    await queryRunner.query(`ALTER TABLE "yield_alerts" DROP COLUMN "spike_unit"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "predictions"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "apr_disagrees"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "il7d"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "outlier"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "sigma"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "mu"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "apr_sigma30d"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "apr_mean30d"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "apy_mean30d"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "apy_reward"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "apy_base"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "score_components"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "fee_apr30d"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "fee_apr7d"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "fee_apr24h"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "apr_source"`);
    await queryRunner.query(`ALTER TABLE "yield_data" DROP COLUMN "volume_usd7d"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "latest_data_id"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "last_seen_at"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "apy"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "tvl_usd"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "tracked"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "exposure"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "il_risk"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "stablecoin"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "underlying_tokens"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "pool_address"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "pool_meta"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "project"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "chain"`);
    await queryRunner.query(`ALTER TABLE "yield_pools" DROP COLUMN "defillama_pool_id"`);
  }
}
