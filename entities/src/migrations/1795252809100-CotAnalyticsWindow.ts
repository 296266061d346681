import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CotAnalyticsWindow1795252809100 implements MigrationInterface {
  name = 'CotAnalyticsWindow1795252809100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "leveraged_cot_index" numeric(5,2)`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "commercial_cot_index" numeric(5,2)`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "asset_manager_cot_index" numeric(5,2)`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "lookback" integer NOT NULL DEFAULT '156'`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "history_size" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "is_provisional" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "alert_events" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" ADD "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "updated_at"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "alert_events"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "is_provisional"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "history_size"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "lookback"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "asset_manager_cot_index"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "commercial_cot_index"`);
    await queryRunner.query(`ALTER TABLE "cot_analytics" DROP COLUMN "leveraged_cot_index"`);
  }
}
