/** One entry of the main navigation. `anyOf`: shown only to a user holding one of these root-level permissions. */
export interface NavItem {
  to: string;
  label: string;
  anyOf?: string[];
}

export interface NavSection {
  label?: string;
  items: NavItem[];
}

const TOKENS = ['READ_CLIENT_API_TOKEN', 'READ_FRONTEND_API_TOKEN', 'CREATE_CLIENT_API_TOKEN', 'CREATE_FRONTEND_API_TOKEN'];

/**
 * The main navigation. Definitions are readable by everyone (the pages offer their controls by permission); access
 * control, tokens, addons and sign-on settings are listed only for those the service would let in.
 */
export const NAV: NavSection[] = [
  {
    items: [
      { to: '/projects', label: 'Projects' },
      { to: '/playground', label: 'Playground' },
      { to: '/history', label: 'Event log' },
      { to: '/archive', label: 'Archive' },
      { to: '/applications', label: 'Applications' },
    ],
  },
  {
    label: 'Definitions',
    items: [
      { to: '/admin/environments', label: 'Environments' },
      { to: '/admin/context-fields', label: 'Context fields' },
      { to: '/admin/segments', label: 'Segments' },
      { to: '/admin/strategies', label: 'Strategies' },
      { to: '/admin/tag-types', label: 'Tag types' },
    ],
  },
  {
    label: 'Administration',
    items: [
      { to: '/admin/users', label: 'Users', anyOf: ['ADMIN'] },
      { to: '/admin/groups', label: 'Groups', anyOf: ['ADMIN'] },
      { to: '/admin/roles', label: 'Roles', anyOf: ['ADMIN', 'READ_ROLE'] },
      { to: '/admin/signup-links', label: 'Signup links', anyOf: ['ADMIN'] },
      { to: '/admin/api-tokens', label: 'API tokens', anyOf: ['ADMIN', ...TOKENS] },
      { to: '/admin/addons', label: 'Addons', anyOf: ['ADMIN', 'CREATE_ADDON', 'UPDATE_ADDON', 'DELETE_ADDON'] },
      { to: '/admin/auth', label: 'Single sign-on', anyOf: ['ADMIN'] },
    ],
  },
  { items: [{ to: '/profile', label: 'Profile' }] },
];

/** The sections as a user holding `can` sees them: entries they may not open left out, empty sections too. */
export function visibleNav(can: (permission: string) => boolean, nav: NavSection[] = NAV): NavSection[] {
  return nav
    .map((section) => ({ ...section, items: section.items.filter((item) => !item.anyOf || item.anyOf.some(can)) }))
    .filter((section) => section.items.length > 0);
}
