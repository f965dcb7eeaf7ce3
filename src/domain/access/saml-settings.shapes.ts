import { z } from 'zod';
import { named } from '../shapes';

/** What both doors answer for the SAML settings (src/domain/shapes.ts says how shapes are used). */

/** The root roles a user created at SAML sign-in may get. */
export const ROOT_ROLES = ['Viewer', 'Editor', 'Admin'] as const;

export const SamlSettings = named('SamlSettings', z.object({
  enabled: z.boolean(),
  entityId: z.string().optional(),
  signOnUrl: z.string().optional(),
  certificate: z.string().optional(),
  signOutUrl: z.string().optional(),
  spCertificate: z.string().optional(),
  autoCreate: z.boolean(),
  emailDomains: z.string().optional(),
  defaultRootRole: z.enum(ROOT_ROLES),
}), 'The SAML sign-in settings. `spCertificate` is the service\'s own signing certificate (also in the SP metadata). Before any settings are saved: `{enabled: false, autoCreate: false, defaultRootRole: "Viewer", spCertificate}`.');
export type SamlSettings = z.output<typeof SamlSettings>;
