import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A message sent through the public contact form (/contact), kept for the operators to answer by
 * email. Not linked to an account: the route takes no CSRF token, so a link could be forged.
 */
@Entity({ name: 'contact_messages' })
@Index('ix_contact_messages_created_at', ['createdAt'])
export class ContactMessage {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'varchar', length: 45, nullable: true })
  ipAddress: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
