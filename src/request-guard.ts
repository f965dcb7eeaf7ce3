import { isUtf8 } from 'node:buffer';
import { MIMEType } from 'node:util';
import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ContentTypeerror, ValidationError, type ErrorDetail } from './domain/errors';
import { depthPath, MAX_INPUT_DEPTH, TEXT_PROBLEMS } from './domain/validation';

/**
 * The door: one check of everything a request carries as text, before routing, for /api and /graphql alike.
 *
 * - URL: every path segment and every query parameter (name and value) must be valid percent-encoding of
 *   well-formed UTF-8 without U+0000. (Express's query parser and URLSearchParams would silently turn bad bytes into
 *   U+FFFD; path parameters would reach the database with a NUL.) For GraphQL, the `variables` and `extensions`
 *   query parameters of a GET are JSON and go through the same JSON checks as a body.
 * - JSON body: charset UTF-8 (or none), bytes valid UTF-8, no NUL and no lone surrogate in any string or property name
 *   (raw or as a `\u` escape), nesting at most MAX_INPUT_DEPTH. One pass over the bytes, before JSON.parse, with no
 *   allocation unless something is wrong; only then a second pass finds the property path to name.
 *
 * Everything refused here is a 400 ValidationError whose `details[0].path` names the property (or query parameter);
 * a wrong charset is a 415 ContentTypeerror; a body over the limit stays a 413 ContentTooLarge.
 */

export type JsonIssueKind = 'utf8' | 'nul' | 'surrogate' | 'depth';

export interface JsonIssue {
  kind: JsonIssueKind;
  /** Byte offset of the offending byte, escape or bracket. */
  offset: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LOWER_U = 0x75;

/** Value of the 4 hex digits at `at`, or -1 when they are not 4 hex digits (JSON.parse reports that). */
function hex4(bytes: Uint8Array, at: number): number {
  let v = 0;
  for (let i = at; i < at + 4; i++) {
    const c = bytes[i];
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else return -1;
    v = (v << 4) | d;
  }
  return v;
}

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence (surrogates and overlongs included). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = 0; i < n;) {
    const b = bytes[i];
    if (b < 0x80) { i += 1; continue; }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) { need = 2; if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; }
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * The first thing in a JSON text that the service refuses to store, or null (the common case, without allocating).
 * Not a JSON validator: a text that is not JSON passes here when it has none of these problems, and JSON.parse then
 * refuses it. Brackets are counted outside strings only, so `"[[["` is no nesting.
 */
export function findJsonIssue(bytes: Uint8Array, maxDepth = MAX_INPUT_DEPTH): JsonIssue | null {
  if (!isUtf8(bytes)) return { kind: 'utf8', offset: firstInvalidUtf8(bytes) };
  const n = bytes.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      for (i++; i < n; i++) {
        let c = bytes[i];
        // The common bytes of a string, in a tight loop.
        while (c !== QUOTE && c !== BACKSLASH && c !== 0 && i < n) c = bytes[++i];
        if (c === QUOTE || i >= n) break;
        if (c === BACKSLASH) {
          const escape = i;
          i++;
          if (bytes[i] !== LOWER_U) continue;
          const code = hex4(bytes, i + 1);
          if (code === 0) return { kind: 'nul', offset: escape };
          if (code >= 0xd800 && code <= 0xdfff) {
            // Only a high surrogate escape followed at once by a low surrogate escape is a character.
            if (code >= 0xdc00 || bytes[i + 5] !== BACKSLASH || bytes[i + 6] !== LOWER_U) return { kind: 'surrogate', offset: escape };
            const low = hex4(bytes, i + 7);
            if (low < 0xdc00 || low > 0xdfff) return { kind: 'surrogate', offset: escape };
            i += 10;
          } else {
            i += 4;
          }
        } else if (c === 0) {
          return { kind: 'nul', offset: i };
        }
      }
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return { kind: 'depth', offset: i };
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
    } else if (b === 0) {
      return { kind: 'nul', offset: i };
    }
  }
  return null;
}

interface Frame {
  array: boolean;
  /** Array: index of the current element. */
  index: number;
  /** Object: the current property name (undefined before the first one), and whether a name comes next. */
  key: string | undefined;
  expectKey: boolean;
}

/** End offset (the closing quote, or n) of the string whose opening quote is at `start`. */
function stringEnd(bytes: Uint8Array, start: number): number {
  for (let i = start + 1; i < bytes.length; i++) {
    if (bytes[i] === BACKSLASH) i++;
    else if (bytes[i] === QUOTE) return i;
  }
  return bytes.length;
}

/**
 * Where the byte at `offset` sits: the path of property names and indexes to it, and whether it is inside a property
 * name (then `segments` is the path of the object). Only called once an issue is found, so it may allocate.
 */
export function jsonPathAt(bytes: Uint8Array, offset: number): { segments: string[]; inKey: boolean } {
  const stack: Frame[] = [];
  const segments = () => stack.map((f) => (f.array ? String(f.index) : f.key ?? ''));
  for (let i = 0; i < bytes.length && i < offset; i++) {
    const b = bytes[i];
    const top = stack[stack.length - 1];
    if (b === QUOTE) {
      const end = stringEnd(bytes, i);
      const isKey = top !== undefined && !top.array && top.expectKey;
      if (offset <= end) {
        if (isKey) return { segments: segments().slice(0, -1), inKey: true };
        return { segments: segments(), inKey: false };
      }
      if (isKey) {
        const raw = Buffer.from(bytes.buffer, bytes.byteOffset + i, end + 1 - i).toString('utf8');
        try {
          top.key = JSON.parse(raw) as string;
        } catch {
          top.key = raw.slice(1, -1);
        }
        top.expectKey = false;
      }
      i = end;
    } else if (b === 0x7b) {
      stack.push({ array: false, index: 0, key: undefined, expectKey: true });
    } else if (b === 0x5b) {
      stack.push({ array: true, index: 0, key: undefined, expectKey: false });
    } else if (b === 0x7d || b === 0x5d) {
      stack.pop();
    } else if (b === 0x2c && top) {
      if (top.array) top.index++;
      else top.expectKey = true;
    }
  }
  return { segments: segments(), inKey: false };
}

/**
 * The ValidationError detail for an issue: its path (prefixed with `prefix`, for the JSON of a query parameter) and a
 * message that names the property.
 */
export function jsonIssueDetail(bytes: Uint8Array, issue: JsonIssue, prefix = ''): ErrorDetail {
  const at = jsonPathAt(bytes, issue.offset);
  const withPrefix = (p: string) => [prefix, p].filter((s) => s !== '').join('/');
  const root = prefix ? `\`${prefix}\` query parameter` : 'request body';
  if (issue.kind === 'depth') {
    const path = withPrefix(depthPath(at.segments));
    return { path, message: `The ${path && path !== prefix ? `\`${path}\` property` : root} is nested deeper than ${MAX_INPUT_DEPTH} levels of arrays and objects.` };
  }
  const path = withPrefix(at.segments.join('/'));
  const what = issue.kind === 'utf8'
    ? `is not valid UTF-8 (byte 0x${bytes[issue.offset].toString(16).toUpperCase().padStart(2, '0')} at position ${issue.offset})`
    : TEXT_PROBLEMS[issue.kind];
  if (at.inKey) {
    const object = path && path !== prefix ? `The \`${path}\` object` : `The root object of the ${root}`;
    return { path, message: `${object} has a property name that ${what}.` };
  }
  return { path, message: `The ${path && path !== prefix ? `\`${path}\` property` : root} ${what}.` };
}

/**
 * Parses JSON bytes after the door's checks, or throws a ValidationError: for text the service cannot store, for
 * nesting over the limit (naming the property), or for text that is not JSON (path ''). A leading UTF-8 byte order
 * mark is ignored, as body-parser did.
 */
export function parseJsonBytes(bytes: Buffer, prefix = ''): unknown {
  const issue = findJsonIssue(bytes);
  if (issue) throw ValidationError.of([jsonIssueDetail(bytes, issue, prefix)]);
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return JSON.parse(bytes.toString('utf8', start));
  } catch (err) {
    const what = prefix ? `The \`${prefix}\` query parameter is` : 'The request body is';
    throw ValidationError.single(prefix, `${what} not valid JSON: ${(err as Error).message}`);
  }
}

const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
// A URL is printable ASCII (the HTTP parser refuses anything else); a raw byte beyond it is refused as well.
const NOT_URL_TEXT = /[^\x21-\x7e]/;

/** Decodes one percent-encoded URL component, or says what is wrong with it. `plus`: '+' means a space (query). */
function decodeComponent(raw: string, plus: boolean): { text: string } | { problem: string } {
  if (NOT_URL_TEXT.test(raw)) return { problem: 'contains a character that is not allowed in a URL; percent-encode it' };
  const spaced = plus && raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!raw.includes('%')) return { text: spaced };
  if (MALFORMED_ESCAPE.test(raw)) return { problem: 'is not valid percent-encoding (a % must be followed by two hex digits)' };
  let text: string;
  try {
    text = decodeURIComponent(spaced);
  } catch {
    return { problem: 'is not valid UTF-8 once percent-decoded' };
  }
  if (text.includes('\u0000')) return { problem: 'must not contain the NUL character (%00)' };
  return { text };
}

export interface UrlCheckOptions {
  /** Query parameters whose values are JSON texts (GraphQL GET: `variables`, `extensions`). */
  jsonParameters?: readonly string[];
}

/** The ValidationError for a URL (path and query string) the service refuses, or undefined. */
export function checkUrl(url: string, options: UrlCheckOptions = {}): ValidationError | undefined {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.includes('%') || NOT_URL_TEXT.test(path)) {
    for (const segment of path.split('/')) {
      const decoded = decodeComponent(segment, false);
      if ('problem' in decoded) return ValidationError.single('', `The request path segment \`${segment.slice(0, 200)}\` ${decoded.problem}.`);
    }
  }
  if (q === -1) return undefined;
  const query = url.slice(q + 1);
  const json = options.jsonParameters ?? [];
  const simple = !query.includes('%') && !NOT_URL_TEXT.test(query);
  if (simple && json.length === 0) return undefined;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const name = decodeComponent(rawName, true);
    if ('problem' in name) return ValidationError.single(rawName.slice(0, 200), `The name of the query parameter \`${rawName.slice(0, 200)}\` ${name.problem}.`);
    const value = decodeComponent(eq === -1 ? '' : part.slice(eq + 1), true);
    if ('problem' in value) return ValidationError.single(name.text, `The \`${name.text}\` query parameter ${value.problem}.`);
    if (value.text !== '' && json.includes(name.text)) {
      try {
        parseJsonBytes(Buffer.from(value.text, 'utf8'), name.text);
      } catch (err) {
        if (err instanceof ValidationError) return err;
        throw err;
      }
    }
  }
  return undefined;
}

/** Express middleware: refuses a URL the service cannot take as text (see `checkUrl`). */
export function urlGuard(options: UrlCheckOptions = {}): RequestHandler {
  return (req, _res, next) => next(checkUrl(req.originalUrl, options));
}

const UTF8 = new Set(['utf-8', 'utf8']);

/** Whether the request has a body (a length other than 0, or a chunked body). */
export const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * The charset a Content-Type names, parsed as the WHATWG MIME type rules say (Node's util.MIMEType), or undefined
 * when it names none; null when the header cannot be parsed at all.
 */
function charsetOf(header: string): string | undefined | null {
  try {
    return new MIMEType(header).params.get('charset')?.toLowerCase() ?? undefined;
  } catch {
    return null;
  }
}

/**
 * Express middlewares that read a JSON body: the charset (UTF-8 or none; anything else is a 415, since the byte checks
 * are UTF-8 checks and the bytes are decoded as UTF-8), the raw bytes (over the limit: 413; a Content-Encoding is
 * inflated first, so the checks see the bytes that are parsed), then `parseJsonBytes`. An empty body parses as `{}`,
 * as before. A request without a body keeps `req.body` undefined.
 */
export function jsonBody(limit: string): RequestHandler[] {
  const raw = express.raw({ limit, type: () => true });
  const charset = (req: Request, _res: Response, next: NextFunction) => {
    const header = req.headers['content-type'];
    if (header === undefined || !hasBody(req)) return next();
    const given = charsetOf(header);
    if (given === null || (given !== undefined && !UTF8.has(given))) return next(new ContentTypeerror(header));
    next();
  };
  const parse = (req: Request, _res: Response, next: NextFunction) => {
    const bytes: unknown = req.body;
    if (!Buffer.isBuffer(bytes)) return next();
    try {
      req.body = bytes.length === 0 ? {} : parseJsonBytes(bytes);
    } catch (err) {
      return next(err);
    }
    next();
  };
  return [charset, raw, parse];
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * The fields of an `application/x-www-form-urlencoded` body (SAML's HTTP-POST binding), with the door's text rules:
 * the body is URL text (printable ASCII; anything else percent-encoded), every name and value percent-decodes to
 * well-formed UTF-8 without NUL, and no field is given twice. A bad value is a 400 ValidationError naming its field;
 * a bad field name one naming the form (path ''), as a bad property name of a JSON body names the object holding it.
 */
export function parseFormBytes(bytes: Buffer): Record<string, string> {
  const fields = new Map<string, string>();
  for (const part of bytes.toString('latin1').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const name = decodeComponent(rawName, true);
    if ('problem' in name) throw ValidationError.single('', `The request body has a form field name that ${name.problem}.`);
    const value = decodeComponent(eq === -1 ? '' : part.slice(eq + 1), true);
    if ('problem' in value) throw ValidationError.single(name.text, `The \`${name.text}\` form field ${value.problem}.`);
    if (fields.has(name.text)) throw ValidationError.single(name.text, `The \`${name.text}\` form field is given more than once.`);
    fields.set(name.text, value.text);
  }
  return Object.fromEntries(fields);
}

/**
 * Express middlewares that read a form body (the SAML assertion consumer service): the content type must be
 * `application/x-www-form-urlencoded` with charset UTF-8 or none (else 415), the bytes at most `limit` (else 413),
 * then `parseFormBytes`. A request without a body gets `{}`.
 */
export function formBody(limit: string): RequestHandler[] {
  const raw = express.raw({ limit, type: () => true });
  const contentType = (req: Request, _res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const header = req.headers['content-type'];
    const given = header === undefined ? null : charsetOf(header);
    if (!req.is(FORM) || given === null || (given !== undefined && !UTF8.has(given))) return next(new ContentTypeerror(header, FORM));
    next();
  };
  const parse = (req: Request, _res: Response, next: NextFunction) => {
    const bytes: unknown = req.body;
    try {
      req.body = Buffer.isBuffer(bytes) ? parseFormBytes(bytes) : {};
    } catch (err) {
      return next(err);
    }
    next();
  };
  return [contentType, raw, parse];
}
