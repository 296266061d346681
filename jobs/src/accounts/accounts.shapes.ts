// HTTP shapes of the accounts domain's own-account routes (/api/user, /api/user/preferences).
// Plain types and constants with no runtime imports: the web client imports this file as
// `@tickerbell/jobs/accounts/shapes`; the api's schemas and bodies are built from it.

/** The notification preferences a user can switch (columns of user_preferences). */
export const PREFERENCE_FLAGS = [
  'marketOpenNotifications',
  'marketCloseNotifications',
  'marketOpeningSoonNotifications',
  'marketClosingSoonNotifications',
  'soundNotifications',
  'emailNotifications',
  'pushNotifications',
] as const;
export type PreferenceFlag = (typeof PREFERENCE_FLAGS)[number];

/** GET and PUT /api/user/preferences answer every flag. */
export type Preferences = Record<PreferenceFlag, boolean>;
/** PUT /api/user/preferences takes any of the flags (at least one). */
export type PreferencesRequest = Partial<Preferences>;

/** Longest display name (PATCH /api/user). */
export const ACCOUNT_NAME_MAX = 100;
/** Longest email address. */
export const ACCOUNT_EMAIL_MAX = 255;

/** GET and PATCH /api/user: the signed-in user's own account. */
export interface AccountUserBody {
  id: number;
  name: string | null;
  email: string;
  image: string | null;
  role: string;
  isVerified: boolean;
  /** A new address waiting for its owner to open the link sent to it. */
  pendingEmail: string | null;
  hasPassword: boolean;
  googleLinked: boolean;
  createdAt: string;
}
