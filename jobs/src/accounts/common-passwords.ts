/**
 * Passwords that top every breach list (lower-cased). Short on purpose: the policy is "not
 * trivially guessable", not a full breach-corpus check.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '12345678910', '87654321', '11111111', '00000000', '88888888',
  '11223344', '12341234', '12344321', '123123123', '147258369', '987654321', '1q2w3e4r', '1q2w3e4r5t',
  '1qaz2wsx', 'q1w2e3r4', 'qwertyui', 'qwertyuiop', 'qwerty123', 'qwerty12', 'asdfghjk', 'asdfghjkl',
  'zxcvbnm1', 'password', 'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'p@ssword',
  'pa$$word', 'iloveyou', 'iloveyou1', 'sunshine', 'princess', 'football', 'baseball', 'basketball',
  'superman', 'batman123', 'whatever', 'trustno1', 'letmein1', 'letmein123', 'welcome1', 'welcome123',
  'admin123', 'administrator', 'changeme', 'changeme1', 'starwars', 'dragon123', 'monkey123', 'master123',
  'michael1', 'jennifer', 'jordan23', 'computer', 'internet', 'liverpool', 'chelsea1', 'arsenal1',
  'charlie1', 'shadow12', 'ashley12', 'corvette', 'mercedes', 'nicholas', 'qazwsxedc', 'zaq12wsx',
  'abcd1234', 'abc12345', 'abcdefgh', 'aaaaaaaa', 'test1234', 'testtest', 'secret123', 'letmeinnow',
  'tickerbell', 'tickerbell1', 'trading1', 'trader123', 'bitcoin1', 'ethereum', 'stocks123', 'money123',
]);
