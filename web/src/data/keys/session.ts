/** The signed-in user and what they may do; the sign-in page's configuration; invitation and reset links. */
export const sessionKeys = {
  all: ['session'] as const,
  me: () => ['session', 'me'] as const,
  /** Every `allowed` answer (all projects and environments): what a change of roles or grants makes stale. */
  allowedAll: () => ['session', 'allowed'] as const,
  allowed: (project?: string, environment?: string) => ['session', 'allowed', project ?? null, environment ?? null] as const,
  signInConfig: () => ['session', 'sign-in-config'] as const,
  invite: (secret: string) => ['session', 'invite', secret] as const,
  resetToken: (token: string) => ['session', 'reset-token', token] as const,
};
