import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reporting owner's relationship as filed, kept on each transaction line (the screener's role
 * filter reads it instead of a lookup per line), and an index of the open-market purchases that the
 * cluster-buys screen reads index-only.
 */
export class InsidersFiledRoles1795792400000 implements MigrationInterface {
  name = 'InsidersFiledRoles1795792400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "filed_as_officer" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "filed_as_director" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "filed_as_ten_percent_owner" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" ADD "filed_as_other" boolean NOT NULL DEFAULT false`);
    // Lines stored before: the insider's latest known roles, then those of the line's own filing where it has an owner row.
    await queryRunner.query(
      `UPDATE "insider_trading_transactions" t
       SET filed_as_officer = i.is_officer, filed_as_director = i.is_director, filed_as_ten_percent_owner = i.is_ten_percent_owner, filed_as_other = i.is_other
       FROM "insider_trading_insiders" i WHERE i.id = t.insider_id`,
    );
    await queryRunner.query(
      `UPDATE "insider_trading_transactions" t
       SET filed_as_officer = fo.is_officer, filed_as_director = fo.is_director, filed_as_ten_percent_owner = fo.is_ten_percent_owner, filed_as_other = fo.is_other
       FROM "insider_trading_filing_owners" fo WHERE fo.filing_id = t.filing_id AND fo.insider_id = t.insider_id`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_insider_trading_transactions_purchases" ON "insider_trading_transactions" ("company_id", "transaction_date", "sec_filing_date", "id") WHERE transaction_type = 'P'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_insider_trading_transactions_purchases"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "filed_as_other"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "filed_as_ten_percent_owner"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "filed_as_director"`);
    await queryRunner.query(`ALTER TABLE "insider_trading_transactions" DROP COLUMN "filed_as_officer"`);
  }
}
