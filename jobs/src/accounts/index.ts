// The accounts domain entry: what the api and the workers' CLI use. Everything else stays inside.
export { deleteAccount, type AccountDeletionDeps } from './account-deletion';
export { passwordResetEmail, invitationEmail, siteLink, verificationEmail } from './account-emails';
export { RESET_TOKEN_TTL_MS, VERIFICATION_TOKEN_TTL_MS, createAccountToken, hashAccountToken, normalizeEmail } from './account-tokens';
export { AccountsError, emailTaken, type AccountsErrorCode } from './accounts-error';
export { ACCOUNT_EMAIL_MAX, ACCOUNT_NAME_MAX, PREFERENCE_FLAGS, type AccountUserBody, type PreferenceFlag, type Preferences } from './accounts.shapes';
export {
  changePassword,
  createUser,
  deleteUser,
  findLiveUserByEmail,
  findUser,
  findUserByResetToken,
  getPreferences,
  getUser,
  logClientActivity,
  logUserActivity,
  recordPwaInstall,
  recordSignIn,
  resetPassword,
  setResetToken,
  setUserRole,
  setVerificationToken,
  signInWithGoogle,
  updateAccount,
  updatePreferences,
  updateProfile,
  verifyEmail,
  type AccountChanges,
  type DeletedUser,
  type GoogleProfileInput,
  type GoogleSignInRefusal,
  type LoggedActivity,
  type NewUser,
  type PreferenceChanges,
} from './accounts.store';
export { sameOriginUrl } from './callback-url';
export { PASSWORD_MAX_LENGTH, PASSWORD_PROBLEM_MESSAGES, passwordProblems } from './password-policy';
export { INVITATION_TTL_DAYS } from './team-rules';
export { USER_OWNED_COLUMNS, type UserOwnedColumn, type UserRowsOnDeletion } from './user-owned';
export {
  acceptInvitation,
  changeMemberRole,
  createTeam,
  getTeam,
  inviteMember,
  listInvitations,
  listMembers,
  listTeams,
  lookupInvitation,
  removeMember,
  revokeInvitation,
  teamActivity,
  type InvitationOffer,
  type InvitationView,
  type NewInvitation,
  type TeamActivityItem,
  type TeamMemberView,
  type TeamSummary,
  type TeamView,
} from './teams.store';
