import { rest } from './client';

// The REST doors of signing in and out and of the links the service hands out; the hooks are in data/session.ts.

export interface SignInConfig {
  password: boolean;
  saml: { enabled: boolean; loginUrl: string | null };
}

export const signInConfig = () => rest<SignInConfig>('GET', '/auth/config');
export const signIn = (username: string, password: string) => rest('POST', '/auth/simple/login', { username, password });
export const signOut = () => rest('POST', '/auth/logout', {});

/** Who a reset or invitation link (`?token=`) is for (GET /auth/reset/validate), and setting its password with it. */
export interface TokenHolder {
  id: number;
  name: string | null;
  email: string;
}
export const validateResetToken = (token: string) => rest<TokenHolder>('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`);
export const resetPassword = (token: string, password: string) => rest('POST', '/auth/reset/password', { token, password });

/** The REST doors of an invite link (GET /invite/:secret/validate, POST /invite/:secret/signup). */
const invitePath = (secret: string) => `/invite/${encodeURIComponent(secret)}`;
export const validateInvite = (secret: string) => rest('GET', `${invitePath(secret)}/validate`);
export const signUpWithInvite = (secret: string, body: { name: string; email: string; password: string; username?: string }) =>
  rest('POST', `${invitePath(secret)}/signup`, body);
