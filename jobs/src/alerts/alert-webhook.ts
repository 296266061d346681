import { createHmac } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import type { JobPayload } from '../registry';
import type { JobContext } from '../runtime/job-handler';
import { countDeliveries } from '../runtime/metrics';
import { OutboundTimeoutError, PrivateAddressError, guardedPost } from '../sources/outbound-guard';
import { readWebhookFiring, recordWebhookAttempt } from './alert-firings.store';

/** The spec'd timeout of one webhook request. */
export const WEBHOOK_TIMEOUT_MS = 3000;
export const WEBHOOK_USER_AGENT = 'Tickerbell-Webhooks/1.0';
export const WEBHOOK_SIGNATURE_HEADER = 'X-Tickerbell-Signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'X-Tickerbell-Timestamp';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes under the alert's secret>`: what a receiver recomputes. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The JSON a webhook receives for one firing. */
export interface WebhookBody {
  alert: { id: number; name: string; symbol: string; condition: unknown };
  firing: { logId: string; triggeredAt: string; value: string; message: string | null };
}

export interface WebhookResult {
  status: 'delivered' | 'skipped';
  httpStatus?: number;
  attempts?: number;
}

/** Statuses worth another try: timeouts and rate limits among the 4xx, and every 5xx. */
function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * alerts.webhook: POSTs one firing to its alert's webhook. 2xx: delivered. Other 4xx (and 3xx:
 * redirects are not followed): failed for good. 408, 429, 5xx, timeouts and network errors: thrown,
 * so BullMQ retries with the job's exponential backoff; the last attempt marks it failed. Each
 * attempt is recorded on the log (attempts, status, last error). A delivered log is never sent again.
 */
export async function deliverAlertWebhook(
  payload: JobPayload<'alerts.webhook'>,
  context: JobContext,
  options: { timeoutMs?: number; allowPrivate: boolean },
): Promise<WebhookResult> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const { dataSource, clock } = context;
  const row = await readWebhookFiring(dataSource, payload.alertLogId);
  if (!row || !row.webhook_url || row.webhook_status === 'delivered' || row.webhook_status === 'failed') return { status: 'skipped' };

  const body = JSON.stringify({
    alert: { id: row.alert_id, name: row.name, symbol: row.symbol, condition: row.params },
    firing: { logId: String(row.log_id), triggeredAt: new Date(row.triggered_at).toISOString(), value: row.value, message: row.message },
  } satisfies WebhookBody);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(clock.now().getTime() / 1000)),
  };
  if (row.webhook_secret) headers[WEBHOOK_SIGNATURE_HEADER] = webhookSignature(row.webhook_secret, body);

  // Called without a job (a test, a CLI), the caller decides on retries: the log stays pending.
  const attemptsLeft = context.job ? (context.job.opts.attempts ?? 1) - (context.job.attemptsMade + 1) : 1;
  let failure: { error: string; permanent: boolean };
  try {
    const status = await guardedPost(row.webhook_url, { headers, body, timeoutMs, allowPrivate: options.allowPrivate });
    if (status >= 200 && status < 300) {
      countDeliveries('webhook', 'sent');
      const attempts = await recordWebhookAttempt(dataSource, payload.alertLogId, 'delivered', null);
      return { status: 'delivered', httpStatus: status, attempts };
    }
    failure = { error: `HTTP ${status}`, permanent: !retryable(status) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A private target never becomes public by retrying; everything else (timeouts, resets) may pass.
    failure = { error: error instanceof OutboundTimeoutError ? message : `network error: ${message}`, permanent: error instanceof PrivateAddressError };
  }
  const final = failure.permanent || attemptsLeft <= 0;
  countDeliveries('webhook', final ? 'failed' : 'retry');
  await recordWebhookAttempt(dataSource, payload.alertLogId, final ? 'failed' : 'pending', failure.error);
  const message = `webhook of alert log ${payload.alertLogId}: ${failure.error}`;
  throw failure.permanent ? new UnrecoverableError(message) : new Error(message);
}
