import { NAV_SECTIONS, ROUTES, type PageRoute } from '../routing/table';
import type { PermissionName } from '../gql/graphql';

/** One entry of the main navigation. `anyOf`: shown only to a user holding one of these root-level permissions. */
export interface NavItem {
  to: string;
  label: string;
  anyOf?: readonly PermissionName[];
}

export interface NavSection {
  label?: string;
  items: NavItem[];
}

const routes: PageRoute[] = Object.values(ROUTES);

/**
 * The main navigation, from the route table. Definitions are readable by everyone (the pages offer their controls by
 * permission); access control, tokens, addons and sign-on settings are listed only for those the service would let in.
 */
export const NAV: NavSection[] = NAV_SECTIONS.map((section) => ({
  ...(section === 'main' || section === 'account' ? {} : { label: section }),
  items: routes.flatMap((r) => (r.nav?.section === section ? [{ to: r.path, label: r.nav.label, ...(r.anyOf ? { anyOf: r.anyOf } : {}) }] : [])),
}));

/** The sections as a user holding `can` sees them: entries they may not open left out, empty sections too. */
export function visibleNav(can: (permission: PermissionName) => boolean, nav: NavSection[] = NAV): NavSection[] {
  return nav
    .map((section) => ({ ...section, items: section.items.filter((item) => !item.anyOf || item.anyOf.some(can)) }))
    .filter((section) => section.items.length > 0);
}
