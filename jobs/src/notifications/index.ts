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
