import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { ROUTES } from '../../web/src/routing/table';

/**
 * The shape of the web UI (the README's "Web UI" section): every page's address is written once, in the route table
 * (`web/src/routing/`), and pages link with its builders. Each rule names the places that break it.
 */
const ROOT = path.resolve(__dirname, '../..');
const WEB = path.join(ROOT, 'web/src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'gql' ? [] : filesUnder(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file);
const sources = filesUnder(WEB);
/** The files that must not write a page's address: all but the route table, and `api/`, whose paths are the service's REST doors (`/invite/:secret/validate` shares its start with a page). */
const outsideRouting = sources.filter((f) => !['routing', 'api'].some((dir) => f.startsWith(path.join(WEB, dir) + path.sep)));

/** Each string and template literal of a file (not comments, not regular expressions), with its line. */
function literals(file: string): Array<{ text: string; line: number }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Array<{ text: string; line: number }> = [];
  const stack: ts.Node[] = [source];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    else if (ts.isTemplateExpression(node)) found.push({ text: node.head.text + '${', line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    else if (ts.isJsxAttribute(node) && node.initializer && ts.isStringLiteral(node.initializer)) found.push({ text: node.initializer.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    stack.push(...node.getChildren());
  }
  return found;
}

/** The files outside the data modules (`web/src/data/`): pages, components, logic, layout, routing, api. */
const outsideData = sources.filter((f) => !f.startsWith(path.join(WEB, 'data') + path.sep));
/** Code of a file without comments (a rule about calls must not trip over prose). */
const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
/** Lines of a file's code that match, as `file:line text`. */
const matching = (files: string[], rule: RegExp) => files.flatMap((f) => code(f).split('\n').flatMap((text, i) => (rule.test(text) ? [`${rel(f)}:${i + 1} ${text.trim()}`] : [])));

/** The first segment of every page's address (`/projects`, `/admin`, …): a literal starting with one is a hand-built path. */
const PAGE_ROOTS = [...new Set(Object.values(ROUTES).map((r) => r.path.split('/')[1]).filter((s): s is string => !!s && s !== '*'))];
const startsWithPage = (text: string) => PAGE_ROOTS.some((root) => text === `/${root}` || text.startsWith(`/${root}/`) || text.startsWith(`/${root}?`) || text.startsWith(`/${root}$`));

describe('the shape of the web UI', () => {
  it('writes no page address outside the route table: pages link with href() and links', () => {
    const offenders = outsideRouting.flatMap((f) => literals(f).filter((l) => startsWithPage(l.text)).map((l) => `${rel(f)}:${l.line} ${l.text}`));
    expect(offenders).toEqual([]);
  });

  it('has one route per address, and a page (not a redirect) behind every navigation entry and tab', () => {
    const routes = Object.values(ROUTES) as Array<{ path: string; redirect?: string; nav?: unknown; projectTab?: string }>;
    const paths = routes.map((r) => r.path);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
    expect(routes.filter((r) => (r.nav || r.projectTab) && r.redirect).map((r) => r.path)).toEqual([]);
    expect(routes.filter((r) => r.projectTab && !r.path.startsWith('/projects/:projectId')).map((r) => r.path)).toEqual([]);
  });

  it('keeps the query cache in the data modules: no query key, invalidation or cache write in a page or component', () => {
    // main.tsx makes the cache and empties it when the session ends; every other use is a data module's.
    const offenders = matching(outsideData.filter((f) => !f.endsWith(`${path.sep}main.tsx`)),
      /\bqueryKey\b|\b(invalidateQueries|removeQueries|resetQueries|setQueryData|cancelQueries|refetchQueries)\b|\buseQueryClient\b/);
    expect(offenders).toEqual([]);
  });

  it('declares every GraphQL document in a data module', () => {
    expect(matching(outsideData, /\bgraphql\(/)).toEqual([]);
  });

  it('reports what it guards: the rule above reads the pages and would see a hand-built path', () => {
    expect(outsideRouting.length).toBeGreaterThan(100);
    expect(PAGE_ROOTS).toEqual(expect.arrayContaining(['projects', 'admin', 'applications', 'login']));
    expect(startsWithPage('/projects/${')).toBe(true);
    expect(startsWithPage('/api/admin/projects')).toBe(false);
  });
});
