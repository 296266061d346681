import passport from 'passport';
import { Strategy as GoogleStrategy, type Profile as GoogleProfile } from 'passport-google-oauth20';
import { Strategy as LocalStrategy } from 'passport-local';
import type { DataSource } from 'typeorm';
import { findLiveUserByEmail, findUser, normalizeEmail, signInWithGoogle, type GoogleProfileInput } from '@tickerbell/jobs/accounts';
import type { ApiConfig } from '../config';
import { googleEnabled } from './accounts.config';
import { clientIp } from './accounts.service';
import { verifyPassword } from './password-hash';
import { toSessionUser } from './session-user';

/** Why a sign-in failed, as the client reads it from `error=` (spec section 8). */
export type SignInErrorCode = 'CredentialsSignin' | 'EmailNotVerified' | 'OAuthCallbackError' | 'AccountNotLinkedError';

/** passport's `info` of a failed sign-in: the error code rides in `message`. */
export interface SignInFailure {
  message: SignInErrorCode;
}

export const GOOGLE_CALLBACK_PATH = '/api/auth/callback/google';

/** A passport instance of its own per app (tests build several apps with different settings). */
export function createPassport(deps: { config: ApiConfig; dataSource: DataSource }): passport.Authenticator {
  const { config, dataSource } = deps;
  const authenticator = new passport.Passport();

  // The session holds only the user id; the user is read afresh on every request, so a deleted
  // or changed account takes effect at once.
  authenticator.serializeUser<number>((user, done) => done(null, user.id));
  authenticator.deserializeUser<number>((id, done) => {
    findUser(dataSource, id).then((user) => done(null, user ? toSessionUser(user) : false), done);
  });

  authenticator.use(
    'credentials',
    new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
      findLiveUserByEmail(dataSource, normalizeEmail(email))
        .then(async (user) => {
          // Same answer, and about the same time, for an unknown email and a wrong password.
          const valid = await verifyPassword(user?.passwordHash ?? null, password);
          if (!user || !valid) return done(null, false, { message: 'CredentialsSignin' } satisfies SignInFailure);
          if (!user.isVerified) return done(null, false, { message: 'EmailNotVerified' } satisfies SignInFailure);
          return done(null, toSessionUser(user));
        })
        .catch(done);
    }),
  );

  if (googleEnabled(config)) {
    authenticator.use(
      'google',
      new GoogleStrategy(
        {
          clientID: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
          callbackURL: new URL(GOOGLE_CALLBACK_PATH, config.PUBLIC_URL).toString(),
          authorizationURL: config.GOOGLE_AUTHORIZATION_URL,
          tokenURL: config.GOOGLE_TOKEN_URL,
          userProfileURL: config.GOOGLE_USERINFO_URL,
          scope: ['openid', 'email', 'profile'],
          state: true,
          passReqToCallback: true,
        },
        (req, _accessToken, _refreshToken, profile, done) => {
          signInWithGoogle(dataSource, googleProfile(profile), req.user?.id ?? null, clientIp(req.ip))
            .then((result) =>
              'refusal' in result ? done(null, false, { message: result.refusal } satisfies SignInFailure) : done(null, toSessionUser(result)),
            )
            .catch((error: unknown) => done(error instanceof Error ? error : new Error(String(error))));
        },
      ),
    );
  }
  return authenticator;
}

/** What the store needs of a Google profile (the user it signs in: signInWithGoogle). */
function googleProfile(profile: GoogleProfile): GoogleProfileInput {
  const emailEntry = profile.emails?.[0];
  return {
    googleId: profile.id,
    email: emailEntry?.value,
    emailVerified: emailEntry?.verified === true || String(emailEntry?.verified) === 'true',
    displayName: profile.displayName,
    photo: profile.photos?.[0]?.value,
  };
}
