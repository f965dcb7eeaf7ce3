import { describe, expect, it } from '@jest/globals';
import { href, links, withSearch } from '../../web/src/routing/links';
import { documentTitle } from '../../web/src/routing/title';

describe('the route table\'s link builders', () => {
  it('build each page\'s address with its parameters encoded', () => {
    expect(href('projects')).toBe('/projects');
    expect(links.project('default')).toBe('/projects/default');
    // Names users chose: a slash, a question mark or a space stays inside its segment.
    expect(links.flag('my project', 'a/b?c')).toBe('/projects/my%20project/features/a%2Fb%3Fc');
    expect(links.changeRequest('p', 12)).toBe('/projects/p/change-requests/12');
    expect(href('projectSettings', { projectId: 'p' })).toBe('/projects/p/settings');
    expect(links.application('web app')).toBe('/applications/web%20app');
  });

  it('add a query string, leaving empty values out', () => {
    expect(links.login('/projects/p?x=1')).toBe('/login?next=%2Fprojects%2Fp%3Fx%3D1');
    expect(links.login()).toBe('/login');
    expect(withSearch('/history', { type: 'feature-created', project: '', feature: null })).toBe('/history?type=feature-created');
  });
});

describe('the document title', () => {
  it('is the deepest matched page\'s title from the table, with its parameters', () => {
    expect(documentTitle([{ params: {} }, { handle: { route: 'flag' }, params: { projectId: 'p', featureName: 'checkout' } }])).toBe('checkout · flagdeck');
    expect(documentTitle([{ params: {} }, { handle: { route: 'segments' }, params: {} }])).toBe('Segments · flagdeck');
    expect(documentTitle([])).toBe('flagdeck');
  });
});
