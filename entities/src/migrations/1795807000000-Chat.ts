import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chat (issue 18): rooms get is_private, slow_mode_seconds and created_by; messages get edit/delete
 * marks (deleted messages stay for their replies), the bullish/bearish tag, cashtags, resolved
 * mentions, thread counters, a 2,000-character CHECK and a (room_id, id) index for cursor paging;
 * members get the read cursor (last_read_message_id), the notify level and its mute, and the
 * moderator's mute and ban. New: chat_thread_follows, chat_reports, chat_moderation_actions (the
 * audit log) and chat_blocks. Generated from the entities.
 */
export class Chat1795807000000 implements MigrationInterface {
  name = 'Chat1795807000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "chat_thread_follows" (
        "user_id" integer NOT NULL,
        "message_id" bigint NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_20b9f68d2dd4ca0b9248de7fc8b" PRIMARY KEY ("user_id", "message_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_thread_follows_message_id" ON "chat_thread_follows" ("message_id") `);
    await queryRunner.query(`CREATE TABLE "chat_reports" (
        "id" SERIAL NOT NULL,
        "message_id" bigint NOT NULL,
        "reporter_id" integer NOT NULL,
        "reason" character varying(500) NOT NULL,
        "status" character varying(10) NOT NULL DEFAULT 'open',
        "resolved_by" integer,
        "resolved_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_chat_reports_message_reporter" UNIQUE ("message_id", "reporter_id"),
        CONSTRAINT "chk_chat_reports_status" CHECK ("status" IN ('open', 'resolved', 'dismissed')),
        CONSTRAINT "PK_723a48cf6cb1df543d81717f4d2" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_reports_reporter_id" ON "chat_reports" ("reporter_id") `);
    await queryRunner.query(`CREATE INDEX "ix_chat_reports_status_id" ON "chat_reports" ("status", "id") `);
    await queryRunner.query(`CREATE TABLE "chat_moderation_actions" (
        "id" SERIAL NOT NULL,
        "room_id" integer NOT NULL,
        "moderator_id" integer NOT NULL,
        "target_user_id" integer,
        "message_id" bigint,
        "report_id" integer,
        "action" character varying(20) NOT NULL,
        "rule" character varying(20),
        "reason" character varying(500),
        "until" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_343136c46f2da2f92b07848ca72" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_moderation_actions_moderator_id" ON "chat_moderation_actions" ("moderator_id") `);
    await queryRunner.query(`CREATE INDEX "ix_chat_moderation_actions_target_user_id" ON "chat_moderation_actions" ("target_user_id") `);
    await queryRunner.query(`CREATE INDEX "ix_chat_moderation_actions_room_id_id" ON "chat_moderation_actions" ("room_id", "id") `);
    await queryRunner.query(`CREATE TABLE "chat_blocks" (
        "blocker_id" integer NOT NULL,
        "blocked_id" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_72b62ca50e2e6edbffe73197ed3" PRIMARY KEY ("blocker_id", "blocked_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_blocks_blocked_id" ON "chat_blocks" ("blocked_id") `);
    await queryRunner.query(`ALTER TABLE "chat_rooms" ADD "is_private" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "chat_rooms" ADD "slow_mode_seconds" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "chat_rooms" ADD "created_by" integer`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "sentiment" character varying(8)`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "cashtags" text array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "mention_user_ids" integer array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "reply_count" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "last_reply_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "edited_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD "deleted_by" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD "last_read_message_id" bigint`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD "notify_level" character varying(10) NOT NULL DEFAULT 'all'`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD "notify_muted_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD "muted_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD "banned_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD "ban_reason" text`);
    await queryRunner.query(`CREATE INDEX "ix_chat_messages_room_id_id" ON "chat_messages" ("room_id", "id") `);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD CONSTRAINT "chk_chat_messages_sentiment" CHECK ("sentiment" IN ('bullish', 'bearish'))`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD CONSTRAINT "chk_chat_messages_deleted_by" CHECK ("deleted_by" IN ('author', 'moderator'))`);
    await queryRunner.query(`ALTER TABLE "chat_messages" ADD CONSTRAINT "chk_chat_messages_length" CHECK (char_length("message") <= 2000)`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" ADD CONSTRAINT "chk_chat_room_members_notify_level" CHECK ("notify_level" IN ('all', 'mentions', 'mute'))`);
    await queryRunner.query(`ALTER TABLE "chat_rooms" ADD CONSTRAINT "FK_0ab506d5205f68799f59438ea6a" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_thread_follows" ADD CONSTRAINT "FK_9eec56bf475790b4ffb5c24a446" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_thread_follows" ADD CONSTRAINT "FK_6f956f17bf6579bd41293eec487" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_reports" ADD CONSTRAINT "FK_441d25b57fe0e909c9cd2c57f14" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_reports" ADD CONSTRAINT "FK_1298944e21d25bca32191ce717b" FOREIGN KEY ("reporter_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_reports" ADD CONSTRAINT "FK_4ec1bb3a46628ffbcfc6a9b5867" FOREIGN KEY ("resolved_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_moderation_actions" ADD CONSTRAINT "FK_e89e803dba67379ea1e86db4524" FOREIGN KEY ("room_id") REFERENCES "chat_rooms"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_moderation_actions" ADD CONSTRAINT "FK_c68692520324e2d123e933eb229" FOREIGN KEY ("moderator_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_moderation_actions" ADD CONSTRAINT "FK_c11e0129c31a05bdf202a6fc92e" FOREIGN KEY ("target_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_blocks" ADD CONSTRAINT "FK_d417c882b341f8e817d4d507988" FOREIGN KEY ("blocker_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_blocks" ADD CONSTRAINT "FK_a73cbe33a3516e4283b32ff9791" FOREIGN KEY ("blocked_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chat_blocks" DROP CONSTRAINT "FK_a73cbe33a3516e4283b32ff9791"`);
    await queryRunner.query(`ALTER TABLE "chat_blocks" DROP CONSTRAINT "FK_d417c882b341f8e817d4d507988"`);
    await queryRunner.query(`ALTER TABLE "chat_moderation_actions" DROP CONSTRAINT "FK_c11e0129c31a05bdf202a6fc92e"`);
    await queryRunner.query(`ALTER TABLE "chat_moderation_actions" DROP CONSTRAINT "FK_c68692520324e2d123e933eb229"`);
    await queryRunner.query(`ALTER TABLE "chat_moderation_actions" DROP CONSTRAINT "FK_e89e803dba67379ea1e86db4524"`);
    await queryRunner.query(`ALTER TABLE "chat_reports" DROP CONSTRAINT "FK_4ec1bb3a46628ffbcfc6a9b5867"`);
    await queryRunner.query(`ALTER TABLE "chat_reports" DROP CONSTRAINT "FK_1298944e21d25bca32191ce717b"`);
    await queryRunner.query(`ALTER TABLE "chat_reports" DROP CONSTRAINT "FK_441d25b57fe0e909c9cd2c57f14"`);
    await queryRunner.query(`ALTER TABLE "chat_thread_follows" DROP CONSTRAINT "FK_6f956f17bf6579bd41293eec487"`);
    await queryRunner.query(`ALTER TABLE "chat_thread_follows" DROP CONSTRAINT "FK_9eec56bf475790b4ffb5c24a446"`);
    await queryRunner.query(`ALTER TABLE "chat_rooms" DROP CONSTRAINT "FK_0ab506d5205f68799f59438ea6a"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP CONSTRAINT "chk_chat_room_members_notify_level"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP CONSTRAINT "chk_chat_messages_length"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP CONSTRAINT "chk_chat_messages_deleted_by"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP CONSTRAINT "chk_chat_messages_sentiment"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_messages_room_id_id"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP COLUMN "ban_reason"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP COLUMN "banned_until"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP COLUMN "muted_until"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP COLUMN "notify_muted_until"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP COLUMN "notify_level"`);
    await queryRunner.query(`ALTER TABLE "chat_room_members" DROP COLUMN "last_read_message_id"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "deleted_by"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "deleted_at"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "edited_at"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "last_reply_at"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "reply_count"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "mention_user_ids"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "cashtags"`);
    await queryRunner.query(`ALTER TABLE "chat_messages" DROP COLUMN "sentiment"`);
    await queryRunner.query(`ALTER TABLE "chat_rooms" DROP COLUMN "created_by"`);
    await queryRunner.query(`ALTER TABLE "chat_rooms" DROP COLUMN "slow_mode_seconds"`);
    await queryRunner.query(`ALTER TABLE "chat_rooms" DROP COLUMN "is_private"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_blocks_blocked_id"`);
    await queryRunner.query(`DROP TABLE "chat_blocks"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_moderation_actions_room_id_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_moderation_actions_target_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_moderation_actions_moderator_id"`);
    await queryRunner.query(`DROP TABLE "chat_moderation_actions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_reports_status_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_reports_reporter_id"`);
    await queryRunner.query(`DROP TABLE "chat_reports"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_thread_follows_message_id"`);
    await queryRunner.query(`DROP TABLE "chat_thread_follows"`);
  }
}
