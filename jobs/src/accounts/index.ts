export * from './account-emails';
export * from './account-tokens';
export * from './callback-url';
export * from './common-passwords';
export * from './password-policy';
export * from './team-rules';
