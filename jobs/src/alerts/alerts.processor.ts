import { defineHandler } from '../runtime/job-handler';
import { evaluateClosedBars, evaluatePriceTicks } from './alert-evaluation';
import { expireAlerts } from './alert-expiry';
import { evaluateNewsLinks, sendNewsDigests } from './alert-news';
import { deliverAlertWebhook } from './alert-webhook';

export interface AlertsHandlerDeps {
  /** Whether webhooks may reach loopback or private addresses (allowsPrivateOutbound of the configuration). */
  allowPrivateOutbound: boolean;
}

export function createAlertsHandlers(deps: AlertsHandlerDeps) {
  return [
    defineHandler('alerts.evaluate', async (payload, context) => {
      const result = await evaluatePriceTicks(payload, context);
      if (result.fired || result.requeued) context.logger.info({ ...result, ticks: payload.ticks.length }, 'alerts fired');
      return result;
    }),
    defineHandler('alerts.evaluate-bars', async (payload, context) => {
      const result = await evaluateClosedBars(payload, context);
      if (result.fired || result.requeued) context.logger.info({ ...result, bars: payload.bars.length }, 'technical alerts fired');
      return result;
    }),
    defineHandler('alerts.evaluate-news', async (payload, context) => {
      const result = await evaluateNewsLinks(payload, context);
      if (result.fired || result.requeued) context.logger.info({ ...result, pairs: payload.pairs.length }, 'news alerts fired');
      return result;
    }),
    defineHandler('alerts.news-digest', async (_payload, context) => {
      const result = await sendNewsDigests(context);
      if (result.fired || result.requeued) context.logger.info(result, 'news digests sent');
      return result;
    }),
    defineHandler('alerts.webhook', async (payload, context) => deliverAlertWebhook(payload, context, { allowPrivate: deps.allowPrivateOutbound })),
    defineHandler('alerts.expire', async (_payload, context) => {
      const result = await expireAlerts(context);
      if (result.expired.length) context.logger.info({ expired: result.expired.length }, 'alerts expired');
      return { expired: result.expired.length };
    }),
  ];
}
