import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whales: inserts into whale_addresses take a transaction-scoped advisory lock before their ids
 * are drawn (a BEFORE INSERT statement trigger), so concurrent writers commit their ids in order.
 * The workers' in-memory filter of watched addresses (jobs/src/whales/whales-watched-index.ts)
 * then stays current by reading the rows above the highest id it holds: no lower id can become
 * visible after a higher one. Writers are rare (a user's first watch of an address, label
 * imports, seeds), so the serialisation costs nothing noticeable. Block lookups by hash (the
 * alerts and live-feed jobs get a block hash) get their indexes.
 */
export class WhalesWatchedIndex1795792700000 implements MigrationInterface {
  name = 'WhalesWatchedIndex1795792700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION whale_addresses_serialize_inserts() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM pg_advisory_xact_lock(hashtext('whale_addresses:insert'));
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER whale_addresses_serialize_inserts BEFORE INSERT ON "whale_addresses" FOR EACH STATEMENT EXECUTE FUNCTION whale_addresses_serialize_inserts()`,
    );
    await queryRunner.query(`CREATE INDEX "ix_whale_blocks_chain_hash" ON "whale_blocks" ("chain", "hash") `);
    await queryRunner.query(`CREATE INDEX "ix_whale_transactions_chain_block_hash" ON "whale_transactions" ("chain", "block_hash") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_whale_transactions_chain_block_hash"`);
    await queryRunner.query(`DROP INDEX "public"."ix_whale_blocks_chain_hash"`);
    await queryRunner.query(`DROP TRIGGER whale_addresses_serialize_inserts ON "whale_addresses"`);
    await queryRunner.query(`DROP FUNCTION whale_addresses_serialize_inserts()`);
  }
}
