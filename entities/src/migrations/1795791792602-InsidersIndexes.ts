import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InsidersIndexes1795791792602 implements MigrationInterface {
  name = 'InsidersIndexes1795791792602';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_shares" ON "insider_trading_transactions" ("shares_traded", "id") `);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_transactions_value" ON "insider_trading_transactions" ("total_value", "id") `);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_analytics_cluster_company_date" ON "insider_trading_analytics" ("company_id", "analysis_date") WHERE is_cluster_buy`);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_analytics_cluster_date" ON "insider_trading_analytics" ("analysis_date") WHERE is_cluster_buy`);
    await queryRunner.query(`CREATE INDEX "ix_insider_trading_analytics_date" ON "insider_trading_analytics" ("analysis_date") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_analytics_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_analytics_cluster_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_analytics_cluster_company_date"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_value"`);
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_shares"`);
  }
}
