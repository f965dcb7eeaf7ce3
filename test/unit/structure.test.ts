import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';

/**
 * The shape of the code (the README's Architecture section): a service holds rules, permission checks, the transaction
 * and events and leaves SQL to its store and read model; HTTP (bytes, gzip, ETags, Express) lives in src/rest; the
 * domain depends on nothing outside itself; modules do not import each other in a circle; no file grows past 400
 * lines. Each rule names the files that break it.
 */
const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');
const MAX_LINES = 400;
/** A raw statement: `em.execute(`, `execute<T>(`, or the connection or query builder under the ORM. */
const RUNS_SQL = /\bexecute\s*[<(]|\bgetConnection\s*\(|\bgetKnex\s*\(/;
/** Row access through the EntityManager (a transaction's `tx` or the request's `em`). */
const USES_ORM = /\b(?:tx|em)\.(?:find|findOne|findOneOrFail|findAndCount|count|create|persist|remove|flush|insert|insertMany|nativeUpdate|nativeDelete|upsert|assign)\s*[<(]|\blockedFindOne\s*\(/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file);
const sources = filesUnder(SRC);
const text = new Map(sources.map((f) => [f, readFileSync(f, 'utf8')]));
const domain = sources.filter((f) => f.startsWith(path.join(SRC, 'domain') + path.sep));

/** The code of a file without its comments and string contents' line breaks: what the rules below read. */
function code(file: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text.get(file));
  let out = '';
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) continue;
    out += scanner.getTokenText();
  }
  return out;
}

/** The relative modules a file imports (static imports and exports, `import type` included), as absolute paths. */
function imports(file: string): string[] {
  const source = ts.createSourceFile(file, text.get(file)!, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of source.statements) {
    const spec = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) ? statement.moduleSpecifier : undefined;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) {
      const base = path.resolve(path.dirname(file), spec.text);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => text.has(f));
      if (target) found.push(target);
    }
  }
  return found;
}

describe('the shape of src/', () => {
  it('no service runs SQL: every *.service.ts leaves it to its store or read model', () => {
    const offenders = domain.filter((f) => f.endsWith('.service.ts')).filter((f) => RUNS_SQL.test(code(f))).map(rel);
    expect(offenders).toEqual([]);
  });

  it('no service reads or writes rows through the ORM either: loads, creates and removes are the stores\'', () => {
    const offenders = domain.filter((f) => f.endsWith('.service.ts')).filter((f) => USES_ORM.test(code(f))).map(rel);
    expect(offenders).toEqual([]);
  });

  it('SQL runs only in stores and read models (workers, schedulers and writers hand theirs over too)', () => {
    const offenders = domain.filter((f) => !/\.(store|read-model)\.ts$/.test(f)).filter((f) => RUNS_SQL.test(code(f))).map(rel);
    expect(offenders).toEqual([]);
  });

  it('no HTTP in the domain: no gzip, ETag or Express under src/domain', () => {
    // (SAML's HTTP-Redirect messages are raw DEFLATE, decoded inside the SAML sign-in: that is the protocol, not HTTP.)
    const offenders = domain.filter((f) => /\bgzip|\bgunzip|createGzip|\betag\b|['"]express['"]/i.test(code(f))).map(rel);
    expect(offenders).toEqual([]);
  });

  it('the domain imports nothing outside src/domain', () => {
    const outward = domain.flatMap((f) => imports(f).filter((t) => !t.startsWith(path.join(SRC, 'domain') + path.sep))
      .map((t) => `${rel(f)} → ${rel(t)}`));
    expect(outward).toEqual([]);
  });

  it('no import cycles in src/', () => {
    const graph = new Map(sources.map((f) => [f, imports(f)]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    // Iterative depth-first search (no recursion over the module graph).
    for (const start of sources) {
      if (state.has(start)) continue;
      const stack: Array<{ file: string; next: number }> = [{ file: start, next: 0 }];
      state.set(start, 'open');
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        const targets = graph.get(top.file) ?? [];
        if (top.next === targets.length) {
          state.set(top.file, 'done');
          stack.pop();
          continue;
        }
        const target = targets[top.next++];
        if (state.get(target) === 'open') {
          const from = stack.findIndex((s) => s.file === target);
          cycles.push([...stack.slice(from).map((s) => rel(s.file)), rel(target)].join(' → '));
        } else if (!state.has(target)) {
          state.set(target, 'open');
          stack.push({ file: target, next: 0 });
        }
      }
    }
    expect(cycles).toEqual([]);
  });

  it(`no file in src/ over ${MAX_LINES} lines`, () => {
    const long = sources.map((f) => ({ file: rel(f), lines: text.get(f)!.split('\n').length - (text.get(f)!.endsWith('\n') ? 1 : 0) }))
      .filter((f) => f.lines > MAX_LINES).map((f) => `${f.file}: ${f.lines}`);
    expect(long).toEqual([]);
  });

  it('reports what it guards: the rules above see the files they are about', () => {
    // A rule that read no files would pass for the wrong reason.
    expect(domain.filter((f) => f.endsWith('.service.ts')).length).toBeGreaterThan(20);
    expect(domain.filter((f) => f.endsWith('.store.ts')).length).toBeGreaterThan(10);
    expect(sources.filter((f) => imports(f).length > 0).length).toBeGreaterThan(150);
  });
});
