import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Whales phase 2, values: USD price columns of whale_transactions, whale_netflows, label provenance on whale_addresses. */
export class WhalesValues1795792500000 implements MigrationInterface {
  name = 'WhalesValues1795792500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "whale_netflows" (
        "id" BIGSERIAL NOT NULL,
        "chain" character varying(20) NOT NULL DEFAULT 'ethereum',
        "exchange_name" character varying(100) NOT NULL,
        "token_key" character varying(42) NOT NULL,
        "token_symbol" character varying(100),
        "bucket" character varying(4) NOT NULL,
        "bucket_start" TIMESTAMP WITH TIME ZONE NOT NULL,
        "inflow_amount" numeric NOT NULL DEFAULT '0',
        "outflow_amount" numeric NOT NULL DEFAULT '0',
        "inflow_usd" numeric(24,2) NOT NULL DEFAULT '0',
        "outflow_usd" numeric(24,2) NOT NULL DEFAULT '0',
        "transfers" integer NOT NULL DEFAULT '0',
        "unpriced_transfers" integer NOT NULL DEFAULT '0',
        CONSTRAINT "uq_whale_netflows_bucket" UNIQUE ("chain", "exchange_name", "token_key", "bucket", "bucket_start"),
        CONSTRAINT "chk_whale_netflows_bucket" CHECK ("bucket" IN ('hour', 'day')),
        CONSTRAINT "PK_b0e546428612e107c1c7e0cc565" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_whale_netflows_bucket_start" ON "whale_netflows" ("chain", "bucket", "bucket_start") `);
    await queryRunner.query(`ALTER TABLE "whale_addresses" ADD "label_source" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "usd_price" numeric(30,10)`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "price_source" character varying(20)`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "price_confidence" numeric(5,4)`);
    await queryRunner.query(`CREATE INDEX "ix_whale_addresses_exchange_name" ON "whale_addresses" ("exchange_name") WHERE "address_type" = 'exchange'`);
    await queryRunner.query(
      `ALTER TABLE "whale_transactions" ADD CONSTRAINT "chk_whale_transactions_price_source" CHECK ("price_source" IN ('prices', 'defillama', 'simulated'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP CONSTRAINT "chk_whale_transactions_price_source"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_addresses_exchange_name"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "price_confidence"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "price_source"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "usd_price"`);
    await queryRunner.query(`ALTER TABLE "whale_addresses" DROP COLUMN "label_source"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_netflows_bucket_start"`);
    await queryRunner.query(`DROP TABLE "whale_netflows"`);
  }
}
