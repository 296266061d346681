export { type ClientNotification, toClientNotification } from './notification-content';
export { notificationChannel, type NotificationMessage, notificationMessageSchema, publishNotifications } from './notification-channel';
export { deliverNotifications } from './notification-delivery';
export { notificationsJobIds } from './notifications.jobs';
export {
  clearNotifications,
  deletePushSubscription,
  followersOf,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationsAfter,
  savePushSubscription,
  unreadNotificationCount,
  type Audience,
} from './notifications.store';
export { type PushEnv, resolveVapidKeys } from './vapid-keys';
export { createNotificationsHandlers, type NotificationsHandlerDeps } from './notifications.processor';
export { readPushEnv } from './notifications.config';
export {
  DELIVERY_RECEIPT_TARGETS,
  deliveryReceiptSchema,
  isDelivered,
  setDeliveryReceipt,
  type DeliveryReceipt,
  type DeliveryReceiptTarget,
} from './delivery-receipts';
export { telegramConfigured, type TelegramEnv } from './telegram.config';
export { createTelegramLinkCode, telegramLinkOf, unlinkTelegram, TELEGRAM_CODE_TTL_MS } from './telegram.store';
