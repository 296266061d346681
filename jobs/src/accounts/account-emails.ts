import type { MailMessage } from '../mail/mail.jobs';

/** Absolute link on the public site. */
export function siteLink(publicUrl: string, pathname: string, query: Record<string, string>): string {
  const url = new URL(pathname, publicUrl);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}

const signature = '\n\n-- \nTickerbell\nIf you did not ask for this email, you can ignore it.';

export function verificationEmail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your email address',
    text: `Welcome to Tickerbell.\n\nConfirm your email address by opening this link (valid for 24 hours):\n\n${link}${signature}`,
  };
}

export function passwordResetEmail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your password',
    text: `Someone (hopefully you) asked to reset the password of your Tickerbell account.\n\nChoose a new password here (valid for 1 hour, once):\n\n${link}${signature}`,
  };
}

export function invitationEmail(to: string, teamName: string, role: string, inviter: string, link: string): MailMessage {
  return {
    to,
    subject: `You are invited to join ${teamName} on Tickerbell`,
    text: `${inviter} invited you to join the team "${teamName}" as ${role}.\n\nAccept the invitation here (valid for 7 days; sign in or create an account with this email address first):\n\n${link}${signature}`,
  };
}
