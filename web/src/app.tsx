import type { RouteObject } from 'react-router-dom';
import { AppRoot } from './app-root';
import { SiteLayout } from './layout/site-layout';
import { lazyComponent } from './lazy-component';
import { HomePage } from './pages/home-page';
import { NotFoundPage } from './pages/not-found-page';
import { RouteErrorPage } from './pages/route-error-page';
import { RequireSession } from './accounts/require-session';

// Only the home page is in the initial bundle; every other page loads on demand.
const StatusPage = lazyComponent(() => import('./status/status-page').then((m) => m.StatusPage));
const FeaturesPage = lazyComponent(() => import('./pages/features-page').then((m) => m.FeaturesPage));
const PricingPage = lazyComponent(() => import('./pages/pricing-page').then((m) => m.PricingPage));
const ResearchPage = lazyComponent(() => import('./pages/research-page').then((m) => m.ResearchPage));
const ResearchCotPage = lazyComponent(() => import('./cot/research-cot-page').then((m) => m.ResearchCotPage));
// Both COT screens share one chunk (cot/cot-pages), public and in the dashboard.
const CotScreenerPage = lazyComponent(() => import('./cot/cot-pages').then((m) => m.CotScreenerPage));
const CotInstrumentPage = lazyComponent(() => import('./cot/cot-pages').then((m) => m.CotInstrumentPage));
const ResearchInsidersPage = lazyComponent(() => import('./insiders/research-insiders-page').then((m) => m.ResearchInsidersPage));
// The insiders dashboard screens share one chunk (insiders/insiders-pages).
const InsidersScreenerPage = lazyComponent(() => import('./insiders/insiders-pages').then((m) => m.InsidersScreenerPage));
const InsidersCompanyPage = lazyComponent(() => import('./insiders/insiders-pages').then((m) => m.InsidersCompanyPage));
const InsidersInsiderPage = lazyComponent(() => import('./insiders/insiders-pages').then((m) => m.InsidersInsiderPage));
const ResearchWhalesPage = lazyComponent(() => import('./whales/research-whales-page').then((m) => m.ResearchWhalesPage));
// The whales dashboard screens share one chunk (whales/whales-pages).
const WhalesFeedPage = lazyComponent(() => import('./whales/whales-pages').then((m) => m.WhalesFeedPage));
const WhalesWatchlistPage = lazyComponent(() => import('./whales/whales-pages').then((m) => m.WhalesWatchlistPage));
const WhalesExchangesPage = lazyComponent(() => import('./whales/whales-pages').then((m) => m.WhalesExchangesPage));
const WhalesAddressPage = lazyComponent(() => import('./whales/whales-pages').then((m) => m.WhalesAddressPage));
const ResearchYieldsPage = lazyComponent(() => import('./yields/research-yields-page').then((m) => m.ResearchYieldsPage));
const ResearchPredictionsPage = lazyComponent(() => import('./predictions/research-predictions-page').then((m) => m.ResearchPredictionsPage));
// The yields dashboard screens share one chunk (yields/yields-pages).
const YieldsPoolsPage = lazyComponent(() => import('./yields/yields-pages').then((m) => m.YieldsPoolsPage));
const YieldsPoolPage = lazyComponent(() => import('./yields/yields-pages').then((m) => m.YieldsPoolPage));
const YieldsAlertsPage = lazyComponent(() => import('./yields/yields-pages').then((m) => m.YieldsAlertsPage));
// The predictions dashboard screens share one chunk (predictions/predictions-pages).
const PredictionsMarketsPage = lazyComponent(() => import('./predictions/predictions-pages').then((m) => m.PredictionsMarketsPage));
const PredictionsMarketPage = lazyComponent(() => import('./predictions/predictions-pages').then((m) => m.PredictionsMarketPage));
const PredictionsPerformancePage = lazyComponent(() => import('./predictions/predictions-pages').then((m) => m.PredictionsPerformancePage));
const PredictionsMispricingPage = lazyComponent(() => import('./predictions/predictions-pages').then((m) => m.PredictionsMispricingPage));
const ResearchLockupsPage = lazyComponent(() => import('./lockups/research-lockups-page').then((m) => m.ResearchLockupsPage));
// The lockups dashboard screens share one chunk (lockups/lockups-pages).
const LockupsCalendarPage = lazyComponent(() => import('./lockups/lockups-pages').then((m) => m.LockupsCalendarPage));
const LockupEventPage = lazyComponent(() => import('./lockups/lockups-pages').then((m) => m.LockupEventPage));
// The chat screens share one chunk (chat/chat-pages).
const ChatPage = lazyComponent(() => import('./chat/chat-pages').then((m) => m.ChatPage));
const ChatMentionsPage = lazyComponent(() => import('./chat/chat-pages').then((m) => m.ChatMentionsPage));
const ChatJoinPage = lazyComponent(() => import('./chat/chat-pages').then((m) => m.ChatJoinPage));
const AboutPage = lazyComponent(() => import('./pages/company-pages').then((m) => m.AboutPage));
const TeamPage = lazyComponent(() => import('./pages/company-pages').then((m) => m.TeamPage));
const GuidesPage = lazyComponent(() => import('./pages/guides-page').then((m) => m.GuidesPage));
const FaqPage = lazyComponent(() => import('./pages/faq-page').then((m) => m.FaqPage));
const HelpPage = lazyComponent(() => import('./pages/help-page').then((m) => m.HelpPage));
const ContactPage = lazyComponent(() => import('./contact/contact-page').then((m) => m.ContactPage));
const PrivacyPage = lazyComponent(() => import('./pages/legal-pages').then((m) => m.PrivacyPage));
const TermsPage = lazyComponent(() => import('./pages/legal-pages').then((m) => m.TermsPage));
const CookiesPage = lazyComponent(() => import('./pages/legal-pages').then((m) => m.CookiesPage));

const SignInPage = lazyComponent(() => import('./accounts/sign-in-page').then((m) => m.SignInPage));
const SignUpPage = lazyComponent(() => import('./accounts/sign-up-page').then((m) => m.SignUpPage));
const VerifyEmailPage = lazyComponent(() => import('./accounts/token-pages').then((m) => m.VerifyEmailPage));
const ForgotPasswordPage = lazyComponent(() => import('./accounts/token-pages').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyComponent(() => import('./accounts/token-pages').then((m) => m.ResetPasswordPage));

const DashboardLayout = lazyComponent(() => import('./dashboard/dashboard-layout').then((m) => m.DashboardLayout));
const OverviewPage = lazyComponent(() => import('./dashboard/overview-page').then((m) => m.OverviewPage));
const ExchangesPage = lazyComponent(() => import('./market-hours/exchanges-page').then((m) => m.ExchangesPage));
const ActivityPage = lazyComponent(() => import('./notifications/activity-page').then((m) => m.ActivityPage));
const SettingsPage = lazyComponent(() => import('./accounts/settings-page').then((m) => m.SettingsPage));
const BillingSettingsPage = lazyComponent(() => import('./billing/billing-settings-page').then((m) => m.BillingSettingsPage));
const DemoPage = lazyComponent(() => import('./dashboard/demo-page').then((m) => m.DemoPage));
const AlertsPage = lazyComponent(() => import('./alerts/alerts-page').then((m) => m.AlertsPage));
const WatchlistsPage = lazyComponent(() => import('./watchlists/watchlists-page').then((m) => m.WatchlistsPage));
const ChartsPage = lazyComponent(() => import('./charts/charts-page').then((m) => m.ChartsPage));

export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    children: [
      {
        element: <SiteLayout />,
        children: [
          {
            // A pathless route so a failing page keeps the header and footer around its error.
            errorElement: <RouteErrorPage />,
            children: [
              { index: true, element: <HomePage /> },
              { path: 'status', element: <StatusPage /> },
              { path: 'features', element: <FeaturesPage /> },
              { path: 'pricing', element: <PricingPage /> },
              { path: 'research', element: <ResearchPage /> },
              { path: 'research/cot', element: <ResearchCotPage /> },
              { path: 'research/cot/screener', element: <CotScreenerPage variant="public" /> },
              { path: 'research/cot/:code', element: <CotInstrumentPage variant="public" /> },
              { path: 'research/insiders', element: <ResearchInsidersPage /> },
              { path: 'research/whales', element: <ResearchWhalesPage /> },
              { path: 'research/yields', element: <ResearchYieldsPage /> },
              { path: 'research/predictions', element: <ResearchPredictionsPage /> },
              { path: 'research/lockups', element: <ResearchLockupsPage /> },
              { path: 'about', element: <AboutPage /> },
              { path: 'team', element: <TeamPage /> },
              { path: 'guides', element: <GuidesPage /> },
              { path: 'faq', element: <FaqPage /> },
              { path: 'help', element: <HelpPage /> },
              { path: 'contact', element: <ContactPage /> },
              { path: 'privacy', element: <PrivacyPage /> },
              { path: 'terms', element: <TermsPage /> },
              { path: 'cookies', element: <CookiesPage /> },
              { path: 'sign-in', element: <SignInPage /> },
              { path: 'sign-up', element: <SignUpPage /> },
              { path: 'verify-email', element: <VerifyEmailPage /> },
              { path: 'forgot-password', element: <ForgotPasswordPage /> },
              { path: 'reset-password', element: <ResetPasswordPage /> },
              // Public: the demo works without signing in.
              { path: 'dashboard/demo', element: <DemoPage /> },
              {
                path: 'dashboard',
                element: (
                  <RequireSession>
                    <DashboardLayout />
                  </RequireSession>
                ),
                children: [
                  { index: true, element: <OverviewPage /> },
                  { path: 'exchanges', element: <ExchangesPage /> },
                  { path: 'alerts', element: <AlertsPage /> },
                  { path: 'cot', element: <CotScreenerPage variant="dashboard" /> },
                  { path: 'cot/:code', element: <CotInstrumentPage variant="dashboard" /> },
                  { path: 'insiders', element: <InsidersScreenerPage /> },
                  { path: 'insiders/companies/:ticker', element: <InsidersCompanyPage /> },
                  { path: 'insiders/insiders/:cik', element: <InsidersInsiderPage /> },
                  { path: 'whales', element: <WhalesFeedPage /> },
                  { path: 'whales/watchlist', element: <WhalesWatchlistPage /> },
                  { path: 'whales/exchanges', element: <WhalesExchangesPage /> },
                  { path: 'whales/addresses/:address', element: <WhalesAddressPage /> },
                  { path: 'yields', element: <YieldsPoolsPage /> },
                  { path: 'yields/pools/:poolId', element: <YieldsPoolPage /> },
                  { path: 'yields/alerts', element: <YieldsAlertsPage /> },
                  { path: 'predictions', element: <PredictionsMarketsPage /> },
                  { path: 'predictions/markets/:id', element: <PredictionsMarketPage /> },
                  { path: 'predictions/performance', element: <PredictionsPerformancePage /> },
                  { path: 'predictions/mispricing', element: <PredictionsMispricingPage /> },
                  { path: 'lockups', element: <LockupsCalendarPage /> },
                  { path: 'lockups/:eventId', element: <LockupEventPage /> },
                  { path: 'chat', element: <ChatPage /> },
                  { path: 'chat/mentions', element: <ChatMentionsPage /> },
                  { path: 'chat/join/:code', element: <ChatJoinPage /> },
                  { path: 'chat/:roomId', element: <ChatPage /> },
                  { path: 'watchlists', element: <WatchlistsPage /> },
                  { path: 'charts/:symbol?', element: <ChartsPage /> },
                  { path: 'activity', element: <ActivityPage /> },
                  { path: 'settings', element: <SettingsPage /> },
                  { path: 'settings/billing', element: <BillingSettingsPage /> },
                ],
              },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];
