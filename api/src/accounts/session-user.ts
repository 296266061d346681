import type { User, UserRole } from '@tickerbell/entities';

/** What a signed-in request carries as req.user (loaded from the database on every request). */
export interface SessionUser {
  id: number;
  name: string | null;
  email: string;
  image: string | null;
  role: UserRole;
  isVerified: boolean;
}

declare global {
  // passport types req.user as Express.User: it is our SessionUser.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends SessionUser {}
  }
}

export function toSessionUser(user: User): SessionUser {
  return { id: user.id, name: user.name, email: user.email, image: user.image, role: user.role, isVerified: user.isVerified };
}
