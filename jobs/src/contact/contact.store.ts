import type { DataSource, EntityManager } from 'typeorm';
import { ContactMessage } from '@tickerbell/entities';

export interface NewContactMessage {
  name: string;
  email: string;
  message: string;
  ipAddress: string | null;
}

/** Records a message from the public contact form in contact_messages; its id. */
export async function saveContactMessage(db: DataSource | EntityManager, input: NewContactMessage): Promise<{ id: number }> {
  const saved = await db.getRepository(ContactMessage).save({ ...input });
  return { id: saved.id };
}
