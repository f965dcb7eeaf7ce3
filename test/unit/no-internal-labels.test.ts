import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { printSchema } from 'graphql';
import ts from 'typescript';
import { buildSchema } from '../../src/resolvers';

/**
 * What users read must not carry the project's internal labels: design decisions ("D9", "(D3)"), numbered endpoints
 * of the contract ("spec endpoint 3"), sections of the behaviour notes ("reference §3.4"), issue numbers, or "the
 * spec" (a document users do not have). Checked in the README, in the GraphQL schema (the committed print and a fresh
 * one from the resolvers' descriptions) and in every string literal of src/ (error messages, descriptions, pages).
 * Code comments may keep them.
 */
const ROOT = path.resolve(__dirname, '../..');
const LABELS: Array<[string, RegExp]> = [
  ['design decision', /\bD\d+\b/g],
  ['numbered endpoint', /\bspec endpoints?\b/gi],
  ['reference section', /\breference §/gi],
  ['issue number', /\bissue \d+/gi],
  ['the spec', /(?<![-.])\bspec\b/g], // lower case, and not in a name such as the unleash-client-spec header
];

/** Each label found in `text` with its line, URLs left out (html.spec.whatwg.org is an address). */
function labelsIn(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const plain = line.replace(/\bhttps?:\/\/\S+/g, '');
    for (const [kind, re] of LABELS) {
      for (const m of plain.matchAll(re)) found.push(`line ${i + 1}: ${kind} "${m[0]}" in: ${line.trim().slice(0, 160)}`);
    }
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && e.name === 'gql') return [];
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** The text of every string and template literal of a TypeScript file (comments are not literals). */
function stringLiterals(file: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      out.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('no internal labels where users read', () => {
  it('the README', () => {
    expect(labelsIn(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))).toEqual([]);
  });

  it('the committed GraphQL schema and the one the resolvers print now', () => {
    expect(labelsIn(readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8'))).toEqual([]);
    expect(labelsIn(printSchema(buildSchema()))).toEqual([]);
  });

  it('the strings of src/ and of the web UI (error messages, descriptions, pages)', () => {
    const found = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'web', 'src'))].flatMap((file) =>
      stringLiterals(file).flatMap(({ line, text }) =>
        labelsIn(text).map((hit) => `${path.relative(ROOT, file)}:${line} ${hit.replace(/^line \d+: /, '')}`)));
    expect(found).toEqual([]);
  });

  it('finds each label it looks for', () => {
    const sample = 'Copies a feature (D3). See spec endpoint 12, reference §3.4 and issue 12; from the spec.';
    expect(labelsIn(sample).map((h) => /"([^"]+)"/.exec(h)![1])).toEqual(['D3', 'spec endpoint', 'reference §', 'issue 12', 'spec', 'spec']);
    expect(labelsIn('the Unleash-Client-Spec (unleash-client-spec) header; https://html.spec.whatwg.org/multipage/ and UTF-8, D-day, 3D')).toEqual([]);
  });
});
