import { Account, ActivityLog, Invitation, Session, Team, TeamMember, User, UserPreferences, VerificationToken } from './accounts';
import { Alert, AlertLog } from './alerts';
import { Price, Product, Subscription, SubscriptionEvent } from './billing';
import {
  ChatBlock,
  ChatMessage,
  ChatModerationAction,
  ChatNotification,
  ChatReport,
  ChatRoom,
  ChatRoomInvite,
  ChatRoomMember,
  ChatThreadFollow,
  MessageReaction,
  UserChatPreferences,
} from './chat';
import { CotAnalytics, CotFollow, CotInstrument, CotPosition, CotReport } from './cot';
import { Exchange, ExchangeCalendarDay, ExchangeFollow } from './market-hours';
import {
  InsiderFollow,
  InsiderTradingAnalytics,
  InsiderTradingCompany,
  InsiderTradingFiling,
  InsiderTradingFilingOwner,
  InsiderTradingIndexDay,
  InsiderTradingInsider,
  InsiderTradingTransaction,
} from './insiders';
import { LockupEvent, LockupFollow, LockupNotice } from './lockups';
import { ChartLayout, Market, PriceBar, Watchlist, WatchlistItem } from './markets';
import { NewsItem, NewsItemMarket } from './news';
import { Notification, PushSubscription, TelegramLink, TelegramLinkCode } from './notifications';
import { MispricingAlert, PredictionFollow, PredictionMarket, PredictionMarketSnapshot, PredictionPerformance, PredictionQuestionScore, UserPrediction } from './predictions';
import { ContactMessage } from './contact';
import { ProcessedEvent, SeedHistory, SourceHealth } from './system';
import { UserWatchlist, WhaleAddress, WhaleAlert, WhaleBlock, WhaleNetflow, WhaleScanState, WhaleToken, WhaleTransaction } from './whales';
import { YieldAlert, YieldAlertLog, YieldData, YieldPool } from './yields';

// Every entity class, grouped by domain. The data source and migrations are built from this list.
export const ENTITIES: Function[] = [
  // accounts
  User,
  Team,
  TeamMember,
  ActivityLog,
  Invitation,
  Account,
  Session,
  VerificationToken,
  UserPreferences,
  // billing
  Product,
  Price,
  Subscription,
  SubscriptionEvent,
  // markets
  Market,
  ChartLayout,
  PriceBar,
  Watchlist,
  WatchlistItem,
  // alerts
  Alert,
  AlertLog,
  // predictions
  PredictionMarket,
  UserPrediction,
  MispricingAlert,
  PredictionPerformance,
  PredictionMarketSnapshot,
  PredictionFollow,
  PredictionQuestionScore,
  // cot
  CotInstrument,
  CotReport,
  CotPosition,
  CotAnalytics,
  CotFollow,
  // chat
  ChatRoom,
  ChatMessage,
  MessageReaction,
  ChatRoomMember,
  ChatNotification,
  UserChatPreferences,
  ChatThreadFollow,
  ChatReport,
  ChatModerationAction,
  ChatBlock,
  ChatRoomInvite,
  // whales
  WhaleAddress,
  UserWatchlist,
  WhaleTransaction,
  WhaleAlert,
  WhaleBlock,
  WhaleScanState,
  WhaleToken,
  WhaleNetflow,
  // lockups
  LockupEvent,
  LockupFollow,
  LockupNotice,
  // insiders
  InsiderTradingCompany,
  InsiderTradingInsider,
  InsiderTradingTransaction,
  InsiderTradingAnalytics,
  InsiderTradingFiling,
  InsiderTradingFilingOwner,
  InsiderTradingIndexDay,
  InsiderFollow,
  // yields
  YieldPool,
  YieldData,
  YieldAlert,
  YieldAlertLog,
  // notifications
  Notification,
  PushSubscription,
  TelegramLink,
  TelegramLinkCode,
  // exchanges
  Exchange,
  ExchangeCalendarDay,
  ExchangeFollow,
  // contact
  ContactMessage,
  // news
  NewsItem,
  NewsItemMarket,
  // system
  SourceHealth,
  ProcessedEvent,
  SeedHistory,
];
