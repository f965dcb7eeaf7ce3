import { describe, expect, it } from '@jest/globals';
import { NAV, visibleNav } from '../../web/src/layout/navigation';

const labels = (can: (p: string) => boolean) => visibleNav(can).flatMap((s) => s.items.map((i) => i.label));

describe('the main navigation', () => {
  it('shows an admin every page', () => {
    expect(labels(() => true)).toEqual(NAV.flatMap((s) => s.items.map((i) => i.label)));
  });

  it('leaves access control, tokens, addons and sign-on out for a user without root grants, and keeps definitions', () => {
    const shown = labels(() => false);
    expect(shown).toEqual(expect.arrayContaining(['Projects', 'Archive', 'Applications', 'Segments', 'Profile']));
    for (const hidden of ['Users', 'Groups', 'Roles', 'API tokens', 'Addons', 'Single sign-on', 'Signup links']) expect(shown).not.toContain(hidden);
    expect(visibleNav(() => false).map((s) => s.label)).not.toContain('Administration');
  });

  it('lists the token page for a user who may read client tokens only', () => {
    const shown = labels((p) => p === 'READ_CLIENT_API_TOKEN');
    expect(shown).toContain('API tokens');
    expect(shown).not.toContain('Users');
  });
});
