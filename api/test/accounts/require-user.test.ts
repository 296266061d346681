import express from 'express';
import pino from 'pino';
import request from 'supertest';
import type { SessionUser } from '../../src/accounts/session-user';
import { requireAdmin, requireUser } from '../../src/accounts/require-user';
import { errorHandler } from '../../src/http/errors';

function appAs(user: SessionUser | undefined) {
  const app = express();
  app.use((req, _res, next) => {
    req.user = user;
    next();
  });
  app.get('/member', requireUser, (_req, res) => void res.json({ ok: true }));
  app.get('/admin', requireAdmin, (_req, res) => void res.json({ ok: true }));
  app.use(errorHandler(pino({ level: 'silent' })));
  return app;
}

const member: SessionUser = { id: 1, name: 'M', email: 'm@example.com', image: null, role: 'member', isVerified: true };

describe('requireUser and requireAdmin (for every domain\'s routes)', () => {
  it('answers 401 Not authenticated without a user', async () => {
    for (const path of ['/member', '/admin']) {
      const res = await request(appAs(undefined)).get(path).expect(401);
      expect(res.body.error.message).toBe('Not authenticated');
    }
  });

  it('lets a member through requireUser but not requireAdmin (403)', async () => {
    await request(appAs(member)).get('/member').expect(200);
    await request(appAs(member)).get('/admin').expect(403);
  });

  it('lets an admin through requireAdmin', async () => {
    await request(appAs({ ...member, role: 'admin' })).get('/admin').expect(200);
  });
});
