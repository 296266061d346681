import { Router } from 'express';
import type Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { saveContactMessage } from '@tickerbell/jobs/contact';
import { clientIp } from '../accounts/accounts.service';
import { rateLimit } from '../accounts/rate-limit';
import type { ApiConfig } from '../config';

/** The same rules as the form on /contact (web/src/contact/contact-page.tsx). */
export const contactSchema = z.object({
  name: z.string().trim().min(1, 'enter your name').max(100),
  email: z.email().max(255),
  message: z.string().trim().min(10, 'at least 10 characters').max(5000),
});

/**
 * POST /api/contact: records a message from the public contact form in contact_messages. Open to
 * anyone, so it is rate limited per address (shared through Redis by every api instance).
 */
export function contactRoutes(deps: { dataSource: DataSource; redis: Redis; config: ApiConfig }): Router {
  const router = Router();
  const limiter = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.config.RATE_LIMIT_PREFIX ?? `${deps.config.QUEUE_PREFIX}:rl`}:contact`,
    points: 5,
    duration: deps.config.RATE_LIMIT_WINDOW_SECONDS,
  });

  router.post('/contact', rateLimit(limiter, (req) => [clientIp(req.ip) ?? 'unknown']), async (req, res) => {
    const input = contactSchema.parse(req.body);
    const saved = await saveContactMessage(deps.dataSource, { ...input, ipAddress: clientIp(req.ip) });
    res.status(201).json({ id: saved.id, received: true });
  });
  return router;
}
