import { href } from '../routing/links';
import { rest } from './client';

export interface SignInConfig {
  password: boolean;
  saml: { enabled: boolean; loginUrl: string | null };
}

export const signInConfig = () => rest<SignInConfig>('GET', '/auth/config');
export const signIn = (username: string, password: string) => rest('POST', '/auth/simple/login', { username, password });
export const signOut = () => rest('POST', '/auth/logout', {});

/** The REST doors of an invite link (GET /invite/:secret/validate, POST /invite/:secret/signup). */
const invitePath = (secret: string) => `/invite/${encodeURIComponent(secret)}`;
export const validateInvite = (secret: string) => rest('GET', `${invitePath(secret)}/validate`);
export const signUpWithInvite = (secret: string, body: { name: string; email: string; password: string; username?: string }) =>
  rest('POST', `${invitePath(secret)}/signup`, body);

/** Where to go after signing in: only a path of this app (never another origin), default the projects. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith(href('login'))) return href('projects');
  return next;
}
