// The dashboard's billing banners: read-only (unpaid, paused, or past due after the grace period),
// past due within the grace period, and a trial ending within 3 days. Nothing when billing is off
// or all is well; a failed request shows nothing either (the banner is advice, not a page).
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { bannerOf, billingSettingsPath, formatDate, formatDaysLeft, getBillingStatus, getEntitlements, type BillingBanner } from './billing-client';
import './billing.css';

export function BillingBanners() {
  const [banner, setBanner] = useState<BillingBanner | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      const entitlements = await getEntitlements(controller.signal);
      let trialEnd: string | null = null;
      if (entitlements.billing === 'on' && entitlements.status === 'trialing' && entitlements.teamId !== null) {
        trialEnd = (await getBillingStatus(entitlements.teamId, controller.signal)).subscription?.trialEnd ?? null;
      }
      if (!controller.signal.aborted) setBanner(bannerOf(entitlements, trialEnd));
    })().catch(() => undefined);
    return () => controller.abort();
  }, []);
  return banner ? <BillingBannerView banner={banner} /> : null;
}

export function BillingBannerView({ banner }: { banner: BillingBanner }) {
  const link = billingSettingsPath(banner.teamId);
  if (banner.kind === 'trial_ending') {
    return (
      <div className="billing-banner billing-banner--info" role="status">
        <p>
          <strong>Your {banner.planName} trial ends {formatDaysLeft(banner.trialEnd)}</strong> ({formatDate(banner.trialEnd)}). Add a payment method to keep its limits.
        </p>
        <Link to={link} className="button button--small button--secondary">
          Billing
        </Link>
      </div>
    );
  }
  if (banner.kind === 'past_due') {
    return (
      <div className="billing-banner billing-banner--warn" role="alert">
        <p>
          <strong>The {banner.planName} subscription is past due.</strong> Everything keeps working
          {banner.graceEndsAt ? ` until ${formatDate(banner.graceEndsAt)}` : ' for a few days'}; after that the account turns read-only. Update the payment method to keep
          it.
        </p>
        <Link to={link} className="button button--small button--secondary">
          Fix payment
        </Link>
      </div>
    );
  }
  return (
    <div className="billing-banner billing-banner--bad" role="alert">
      <p>
        <strong>Read-only:</strong> the {banner.planName} subscription is {banner.status === 'past_due' ? 'past due beyond its grace period' : (banner.status ?? 'inactive').replace('_', ' ')}. You can
        read everything, but new alerts, watchlists and follows are refused until it is paid.
      </p>
      <Link to={link} className="button button--small button--secondary">
        Billing
      </Link>
    </div>
  );
}
