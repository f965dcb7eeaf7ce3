import { appendFileSync, readFileSync } from 'node:fs';
import { expect } from '@jest/globals';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { buildOpenApiDocument } from '../../src/rest/openapi/document';
import { ROUTE_DOCS } from '../../src/rest/openapi/routes';

/**
 * Every REST answer the e2e suite receives through the harness is checked against the OpenAPI document
 * (`/docs/openapi.json`): its status must be documented for the route, and its body must match the documented schema
 * (or be empty where none is documented). A mismatch fails the test that received it.
 *
 * OPENAPI_CHECK=report:<file> writes mismatches to <file> (one JSON line each) instead of failing, to list them all in
 * one run.
 */

type Json = Record<string, any>;

interface Operation {
  key: string;
  method: string;
  pattern: RegExp;
  literals: number;
  pointer: string;
  responses: Json;
}

const ID = 'https://flagdeck.invalid/openapi.json';
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

let state: { operations: Operation[]; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

function load() {
  if (state) return state;
  // Built once for the run by the global setup (test/support/global-setup.ts); built here when run without it.
  const built = process.env.FLAGDECK_TEST_OPENAPI;
  const document = (built ? JSON.parse(readFileSync(built, 'utf8')) : buildOpenApiDocument('test')) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: ID });
  const operations: Operation[] = [];
  for (const key of Object.keys(ROUTE_DOCS)) {
    const [method, path] = key.split(' ');
    const segments = path.split('/').filter(Boolean);
    const source = segments.map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    const openApiPath = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const pointer = `#/paths/${encodeURIComponent(openApiPath.replace(/~/g, '~0').replace(/\//g, '~1'))}/${method.toLowerCase()}`;
    operations.push({
      key, method, pattern: new RegExp(`^/${source}/?$`, 'i'), literals: segments.filter((s) => !s.startsWith(':')).length,
      pointer, responses: document.paths[openApiPath][method.toLowerCase()].responses,
    });
  }
  state = { operations, ajv, validators: new Map() };
  return state;
}

/** The documented operation a request reaches (as Express routes it: case-insensitive, a trailing slash ignored). */
export function operationFor(method: string, path: string): Operation | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  let best: Operation | undefined;
  for (const op of load().operations) {
    if (op.method !== m || !op.pattern.test(path)) continue;
    if (!best || op.literals > best.literals) best = op;
  }
  return best;
}

function validator(pointer: string): ValidateFunction {
  const s = load();
  let v = s.validators.get(pointer);
  if (!v) {
    v = s.ajv.compile({ $ref: `${ID}${pointer}` });
    s.validators.set(pointer, v);
  }
  return v;
}

/** Why an answer does not match the document, or undefined when it does (or the request reaches no documented route). */
export function responseMismatch(method: string, url: string, status: number, contentType: string | null, text: string): string | undefined {
  const path = url.split('?')[0];
  const op = operationFor(method, path);
  if (!op) return undefined;
  const documented = op.responses[String(status)];
  if (!documented) return `${op.key}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`;
  const content = documented.content as Json | undefined;
  // A redirect's body is a courtesy line for people (Express writes "Found. Redirecting to …"); clients follow Location.
  if (REDIRECTS.has(status)) return undefined;
  if (!content || method === 'HEAD') {
    if (text !== '' && method !== 'HEAD') return `${op.key}: status ${status} is documented without a body, but one was sent: ${text.slice(0, 200)}`;
    return undefined;
  }
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const mediaKey = Object.keys(content).find((k) => k === media);
  if (!mediaKey) return `${op.key}: status ${status} answered ${media || 'no content type'}, documented: ${Object.keys(content).join(', ')}`;
  if (!content[mediaKey].schema || !/json/.test(mediaKey)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${op.key}: status ${status} body is not JSON`;
  }
  const status_ = String(status);
  const validate = validator(`${op.pointer}/responses/${status_}/content/${encodeURIComponent(mediaKey.replace(/~/g, '~0').replace(/\//g, '~1'))}/schema`);
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`);
  return `${op.key}: status ${status} body does not match its schema: ${errors.join('; ')}`;
}

/** Fails (or reports, with OPENAPI_CHECK=report:<file>) an answer that does not match the document. */
export function checkResponse(method: string, url: string, status: number, contentType: string | null, text: string): void {
  const mismatch = responseMismatch(method, url, status, contentType, text);
  if (!mismatch) return;
  const mode = process.env.OPENAPI_CHECK ?? '';
  if (mode.startsWith('report:')) {
    appendFileSync(mode.slice(7), `${JSON.stringify({ test: expect.getState().currentTestName, file: expect.getState().testPath, mismatch })}\n`);
    return;
  }
  throw new Error(`The answer does not match the OpenAPI document: ${mismatch}`);
}
