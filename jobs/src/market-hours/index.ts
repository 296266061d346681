export { dueMarketEvents, eventToJson, type ExchangeCalendar, marketEventsBetween, marketStatusAt, MAX_SESSION_RANGE_DAYS, sessionsBetween, regularBreakOf, sessionToJson, toClientExchange } from './market-hours';
export { BUNDLED_EXCHANGE_CALENDARS_PATH, calendarsFromFile, ExchangeCalendarFileError, readExchangeCalendarFile } from './market-hours.import';
export { exchangeExists, followedExchangeIds, importExchangeCalendarFile, LastFollowError, loadExchangeCalendars, setExchangeFollow } from './market-hours.store';
export { marketClockKeys } from './market-clock';
export { createMarketHoursHandlers, type MarketHoursHandlerDeps } from './market-hours.processor';
