import { allowsPrivateOutbound } from '../notifications/vapid-keys';
import { defineDomain } from '../runtime/domain';
import { closeAlertIndexes } from './alert-index-cache';
import { alertsEnvSchema } from './alerts.config';
import { createAlertsHandlers } from './alerts.processor';
import { ALERTS_SCHEDULES } from './alerts.schedules';

/** Alerts in the workers: evaluation, webhooks and expiry; the process's alert indexes close with it. */
export const alertsDomain = defineDomain({
  name: 'alerts',
  env: alertsEnvSchema,
  schedules: ALERTS_SCHEDULES,
  start(config, deps) {
    return {
      handlers: createAlertsHandlers({ allowPrivateOutbound: allowsPrivateOutbound(config) }),
      close: () => closeAlertIndexes(deps.dataSource),
    };
  },
});
