import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Whales1795792475719 implements MigrationInterface {
  name = 'Whales1795792475719';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "whale_blocks" (
        "chain" character varying(20) NOT NULL,
        "number" bigint NOT NULL,
        "hash" character varying(66) NOT NULL,
        "parent_hash" character varying(66) NOT NULL,
        "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL,
        "transfers_count" integer NOT NULL DEFAULT '0',
        "scanned_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "chk_whale_blocks_hash_lowercase" CHECK ("hash" = lower("hash") AND "parent_hash" = lower("parent_hash")),
        CONSTRAINT "PK_602b43654444cf06e386137e707" PRIMARY KEY ("chain", "number")
      )`);
    await queryRunner.query(`CREATE TABLE "whale_scan_state" (
        "chain" character varying(20) NOT NULL,
        "checkpoint_number" bigint NOT NULL,
        "checkpoint_hash" character varying(66) NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_0c664aa068bf05983c0a01fd477" PRIMARY KEY ("chain")
      )`);
    await queryRunner.query(`CREATE TABLE "whale_tokens" (
        "address" character varying(42) NOT NULL,
        "symbol" character varying(100),
        "decimals" smallint,
        "source" character varying(20) NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "chk_whale_tokens_address_lowercase" CHECK ("address" = lower("address")),
        CONSTRAINT "PK_52155030aeec47c0abdd0051a19" PRIMARY KEY ("address")
      )`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "log_index" integer NOT NULL DEFAULT '-1'`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "amount" numeric`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "usd_value" numeric(24,2)`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "price_status" character varying(10) NOT NULL DEFAULT 'unknown'`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "is_whale" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD "block_hash" character varying(66) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP CONSTRAINT "uq_whale_transactions_hash"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD CONSTRAINT "chk_whale_transactions_price_status" CHECK ("price_status" IN ('priced', 'unknown'))`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD CONSTRAINT "chk_whale_transactions_log_index" CHECK ("log_index" >= -1)`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD CONSTRAINT "chk_whale_transactions_block_hash_lowercase" CHECK ("block_hash" = lower("block_hash"))`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD CONSTRAINT "uq_whale_transactions_chain_hash_log_index" UNIQUE ("chain", "hash", "log_index")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP CONSTRAINT "uq_whale_transactions_chain_hash_log_index"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP CONSTRAINT "chk_whale_transactions_block_hash_lowercase"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP CONSTRAINT "chk_whale_transactions_log_index"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP CONSTRAINT "chk_whale_transactions_price_status"`);
    // One row per hash again: keep the first of a transaction's transfers.
    await queryRunner.query(`DELETE FROM "whale_transactions" a USING "whale_transactions" b WHERE a."hash" = b."hash" AND a."id" > b."id"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" ADD CONSTRAINT "uq_whale_transactions_hash" UNIQUE ("hash")`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "block_hash"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "is_whale"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "price_status"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "usd_value"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "amount"`);
    await queryRunner.query(`ALTER TABLE "whale_transactions" DROP COLUMN "log_index"`);
    await queryRunner.query(`DROP TABLE "whale_tokens"`);
    await queryRunner.query(`DROP TABLE "whale_scan_state"`);
    await queryRunner.query(`DROP TABLE "whale_blocks"`);
  }
}
