import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Telegram channel of the notifications domain: `telegram_links` (one linked chat per user)
 * and `telegram_link_codes` (the one-time codes a user sends the bot to link a chat; only their
 * SHA-256 is stored). Both belong to the user (jobs/src/accounts/user-owned.ts: 'delete').
 * Written by hand, in the generator's form (npx tsx scripts/generate-migration.ts Check agrees).
 */
export class TelegramChannel1795804900000 implements MigrationInterface {
  name = 'TelegramChannel1795804900000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "telegram_links" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "chat_id" bigint NOT NULL,
        "username" character varying(64),
        "linked_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "uq_telegram_links_user_id" UNIQUE ("user_id"),
        CONSTRAINT "PK_5d7257e051356ddcbbd767c89b0" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_telegram_links_chat_id" ON "telegram_links" ("chat_id") `);
    await queryRunner.query(`CREATE TABLE "telegram_link_codes" (
        "id" SERIAL NOT NULL,
        "user_id" integer NOT NULL,
        "code_hash" character varying(64) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "used_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "uq_telegram_link_codes_code_hash" UNIQUE ("code_hash"),
        CONSTRAINT "PK_b47eff84719ed2ea18041258c23" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_telegram_link_codes_user_id" ON "telegram_link_codes" ("user_id") `);
    await queryRunner.query(
      `ALTER TABLE "telegram_links" ADD CONSTRAINT "FK_4a6112193e0d68ac5bd296bf20c" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "telegram_link_codes" ADD CONSTRAINT "FK_434682c9610bd816ae26a56f023" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "telegram_link_codes" DROP CONSTRAINT "FK_434682c9610bd816ae26a56f023"`);
    await queryRunner.query(`ALTER TABLE "telegram_links" DROP CONSTRAINT "FK_4a6112193e0d68ac5bd296bf20c"`);
    await queryRunner.query(`DROP INDEX "public"."ix_telegram_link_codes_user_id"`);
    await queryRunner.query(`DROP TABLE "telegram_link_codes"`);
    await queryRunner.query(`DROP INDEX "public"."ix_telegram_links_chat_id"`);
    await queryRunner.query(`DROP TABLE "telegram_links"`);
  }
}
