/**
 * How alerts and their firings look to their owner (camelCase JSON), and the SQL that reads them.
 * One module, so the api, the web client's types and any later reader agree on one shape.
 */

/** Columns of `alerts a JOIN markets m` that toClientAlert reads. */
export const ALERT_VIEW_COLUMNS = `a.id, a.user_id, a.name, m.symbol, m.type AS market_type, a.condition, a.value, a.params, a.interval,
  a.frequency, a.cooldown_seconds, a.expires_at, a.is_active, a.use_audio, a.audio_message, a.audio_voice_id,
  a.notify_push, a.notify_email, a.webhook_url, a.webhook_secret, a.last_triggered, a.created_at, a.updated_at`;

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

/** An alert as its owner reads it. */
export interface ClientAlert {
  id: number;
  name: string;
  symbol: string;
  marketType: string;
  /** The validated condition, type included (alert-conditions.ts). */
  condition: Record<string, unknown>;
  /** Bar interval of a technical condition; null for price conditions. */
  interval: string | null;
  frequency: string;
  cooldownSeconds: number;
  expiresAt: string | null;
  isActive: boolean;
  useAudio: boolean;
  audioMessage: string | null;
  audioVoiceId: string | null;
  notifyPush: boolean;
  notifyEmail: boolean;
  webhookUrl: string | null;
  /** Shown to the owner only (every alert route is scoped to the owner): they configure the receiver with it. */
  webhookSecret: string | null;
  lastTriggered: string | null;
  createdAt: string;
  updatedAt: string;
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

export const ALERT_LOG_VIEW_COLUMNS = 'id, triggered_at, value, message, was_notified, webhook_status, webhook_attempts, webhook_last_error';

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

/** One firing of an alert, as its owner reads it. */
export interface ClientAlertLog {
  /** bigint, as a string. */
  id: string;
  triggeredAt: string;
  /** The market value that triggered it (decimal string, exact). */
  value: string;
  message: string | null;
  wasNotified: boolean;
  /** null (no webhook), pending, delivered, failed. */
  webhookStatus: string | null;
  webhookAttempts: number;
  /** Why the last webhook attempt failed (the owner debugs their receiver with it). */
  webhookLastError: string | null;
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

/** One entry of POST /api/alerts/crypto/check (the spec's shape plus logId and triggeredAt). */
export interface CheckedAlert {
  /** The alert's id. */
  id: number;
  name: string;
  message: string;
  symbol: string;
  /** The condition type (crossing_up, greater_than, ...). */
  condition: string;
  /** The alert's threshold. */
  value: number;
  /** The price that triggered it. */
  currentPrice: number;
  useAudio: boolean;
  audioMessage: string | null;
  /** Extra: the voice to speak audioMessage with. */
  audioVoiceId: string | null;
  /** The firing (alert_logs id): the client dedupes spoken alerts by it. */
  logId: string;
  triggeredAt: string;
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
