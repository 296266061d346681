import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsAuth1795252851460 implements MigrationInterface {
  name = 'AccountsAuth1795252851460';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "image" character varying(2048)`);
    await queryRunner.query(`ALTER TABLE "users" ADD "pending_email" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "invitations" ADD "token_hash" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "invitations" ADD CONSTRAINT "uq_invitations_token_hash" UNIQUE ("token_hash")`);
    await queryRunner.query(`ALTER TABLE "invitations" ADD "responded_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invitations" DROP COLUMN "responded_at"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "uq_invitations_token_hash"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP COLUMN "token_hash"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "pending_email"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "image"`);
  }
}
