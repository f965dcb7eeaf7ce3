import { z } from 'zod';
import { named } from '../shapes';

/** What GET /auth/config answers (SamlSignIn.config builds it; src/domain/shapes.ts says how shapes are used). */

export const AuthConfig = named('AuthConfig', z.object({
  password: z.boolean(),
  saml: z.object({ enabled: z.boolean(), loginUrl: z.string().nullable() }),
}), 'The sign-in methods on offer: password login, and SAML with the address that starts it when it is enabled.');
export type AuthConfig = z.output<typeof AuthConfig>;
