import { z } from 'zod';
import { pushEnvSchema } from '../notifications/vapid-keys';

/**
 * The alerts variables (every process validates them at start). How many active alerts a user may
 * have is their plan's (the billing entitlements, limit `activeAlerts`).
 */
export const alertsEnvSchema = z.object({
  // Webhooks follow the same outbound rule as push endpoints (jobs/src/sources/outbound-guard.ts).
  ...pushEnvSchema.pick({ NODE_ENV: true, OUTBOUND_ALLOW_PRIVATE: true }).shape,
});

export type AlertsConfig = z.infer<typeof alertsEnvSchema>;
