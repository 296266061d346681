/**
 * How alerts and their firings look to their owner (camelCase JSON), mapped from the rows that
 * alerts.store.ts reads. One module, so the api, the web client's types and any later reader agree on one shape.
 */
import type { CheckedAlert, ClientAlert, ClientAlertLog } from './alerts.shapes';

export type { CheckedAlert, ClientAlert, ClientAlertLog } from './alerts.shapes';

export interface AlertViewRow {
  id: number;
  user_id: number;
  name: string;
  symbol: string;
  market_type: string;
  condition: string;
  value: string;
  params: Record<string, unknown>;
  interval: string | null;
  frequency: string;
  cooldown_seconds: number;
  expires_at: Date | null;
  is_active: boolean;
  use_audio: boolean;
  audio_message: string | null;
  audio_voice_id: string | null;
  notify_push: boolean;
  notify_email: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  last_triggered: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function toClientAlert(row: AlertViewRow): ClientAlert {
  return {
    id: row.id,
    name: row.name,
    symbol: row.symbol,
    marketType: row.market_type,
    condition: row.params,
    interval: row.interval,
    frequency: row.frequency,
    cooldownSeconds: row.cooldown_seconds,
    expiresAt: iso(row.expires_at),
    isActive: row.is_active,
    useAudio: row.use_audio,
    audioMessage: row.audio_message,
    audioVoiceId: row.audio_voice_id,
    notifyPush: row.notify_push,
    notifyEmail: row.notify_email,
    webhookUrl: row.webhook_url,
    webhookSecret: row.webhook_secret,
    lastTriggered: iso(row.last_triggered),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export interface AlertLogViewRow {
  id: string;
  triggered_at: Date;
  value: string;
  message: string | null;
  was_notified: boolean;
  webhook_status: string | null;
  webhook_attempts: number;
  webhook_last_error: string | null;
}

/** numeric(30,10) as PostgreSQL prints it, without the trailing zeros of the scale. */
export function alertDecimalText(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

export function toClientAlertLog(row: AlertLogViewRow): ClientAlertLog {
  return {
    id: String(row.id),
    triggeredAt: new Date(row.triggered_at).toISOString(),
    value: alertDecimalText(row.value),
    message: row.message,
    wasNotified: row.was_notified,
    webhookStatus: row.webhook_status,
    webhookAttempts: row.webhook_attempts,
    webhookLastError: row.webhook_last_error,
  };
}

export interface CheckedAlertRow {
  log_id: string;
  triggered_at: Date;
  log_value: string;
  message: string | null;
  alert_id: number;
  name: string;
  symbol: string;
  condition: string;
  threshold: string;
  use_audio: boolean;
  audio_message: string | null;
  audio_voice_id: string | null;
}

/** The spec's notification text of a firing ("{name} Alert Triggered"), for a log written without one. */
export function alertLogFallbackMessage(name: string): string {
  return `${name} Alert Triggered`;
}

export function toCheckedAlert(row: CheckedAlertRow): CheckedAlert {
  return {
    id: row.alert_id,
    name: row.name,
    message: row.message ?? alertLogFallbackMessage(row.name),
    symbol: row.symbol,
    condition: row.condition,
    value: Number(row.threshold),
    currentPrice: Number(row.log_value),
    useAudio: row.use_audio,
    audioMessage: row.audio_message,
    audioVoiceId: row.audio_voice_id,
    logId: String(row.log_id),
    triggeredAt: new Date(row.triggered_at).toISOString(),
  };
}
