// The lockups dashboard screens' one lazy entry (calendar and event page load as one chunk).
export { LockupEventPage } from './lockup-event-page';
export { LockupsCalendarPage } from './lockups-calendar-page';
