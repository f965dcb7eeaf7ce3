import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { createComplexityRule } from '@pothos/plugin-complexity';
import { GraphQLError, parse, type ValidationRule } from 'graphql';

/**
 * What one GraphQL request may ask for (issue 8, defect 8). Every limit is checked before anything executes, and in
 * time linear in the size of the document:
 * - the text: at most MAX_NESTING levels of `{ [ (` (a scan before parsing, so graphql-js never recurses deeper), and
 *   MAX_TOKENS tokens (graphql-js's own parser limit);
 * - the document: MAX_ALIASES aliases and MAX_DIRECTIVES directives (GraphQL Armor's rules);
 * - the operation, fragments expanded (memoised per fragment by @pothos/plugin-complexity): MAX_DEPTH levels,
 *   MAX_FIELDS selected fields, and a cost (src/resolvers/cost.ts) within the budget, GRAPHQL_MAX_COST.
 * A refused request is a 400 ValidationError whose message states the measure and the limit.
 */
export const MAX_NESTING = 64;
export const MAX_TOKENS = 15_000;
export const MAX_ALIASES = 30;
export const MAX_DIRECTIVES = 50;
export const MAX_DEPTH = 10;
export const MAX_FIELDS = 2_000;
export const DEFAULT_MAX_COST = 100_000;

const refusal = (message: string) => new GraphQLError(message, { extensions: { name: 'ValidationError', code: 400 } });

/**
 * Deepest nesting of `{`, `[` and `(` in a GraphQL text, outside strings, block strings and comments; stops counting
 * once past `limit`. One pass, no recursion.
 */
export function textNesting(source: string, limit = MAX_NESTING): number {
  let depth = 0;
  let deepest = 0;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < n && source.charCodeAt(i) !== 0x0a && source.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (source.startsWith('"""', i)) {
        i += 3;
        while (i < n && !source.startsWith('"""', i)) i += source.startsWith('\\"""', i) ? 4 : 1;
        i += 3;
        continue;
      }
      i++;
      while (i < n && source.charCodeAt(i) !== 0x22 && source.charCodeAt(i) !== 0x0a) i += source.charCodeAt(i) === 0x5c ? 2 : 1;
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth = Math.max(0, depth - 1);
    }
    i++;
  }
  return deepest;
}

/** graphql-js's parse, behind the nesting scan and with its token limit. */
export function parseWithinLimits(source: string): ReturnType<typeof parse> {
  if (textNesting(source) > MAX_NESTING) {
    throw refusal(`The document nests more than ${MAX_NESTING} levels of braces, brackets or parentheses; the limit is ${MAX_NESTING}.`);
  }
  try {
    return parse(source, { maxTokens: MAX_TOKENS });
  } catch (err) {
    if (err instanceof GraphQLError && /contains more th\w* \d+ tokens/i.test(err.message)) {
      throw refusal(`The document has more than ${MAX_TOKENS} tokens; the limit is ${MAX_TOKENS}.`);
    }
    throw err;
  }
}

export interface RequestLimits {
  /** The cost budget of one request (GRAPHQL_MAX_COST). */
  maxCost?: number;
}

/** Rules on the document's shape, run with graphql-js's own rules. */
export const documentRules: readonly ValidationRule[] = [
  maxAliasesRule({ n: MAX_ALIASES, exposeLimits: true }),
  maxDirectivesRule({ n: MAX_DIRECTIVES, exposeLimits: true }),
];

/**
 * Depth, fields and cost of the operation the request runs, with its variables (so never cached by document). Run
 * only on a document that passed every other rule: it measures fields that exist, and reports nothing twice.
 */
export function costRule(request: { context: object; variables?: Record<string, unknown> | null; operationName?: string | null }, { maxCost = DEFAULT_MAX_COST }: RequestLimits = {}): ValidationRule {
  return createComplexityRule({
    context: request.context,
    variableValues: request.variables ?? {},
    operationName: request.operationName ?? undefined,
    validate: ({ complexity, depth, breadth }, report) => {
      if (depth > MAX_DEPTH) report(refusal(`The operation is nested ${depth} levels deep; the limit is ${MAX_DEPTH}.`));
      else if (breadth > MAX_FIELDS) report(refusal(`The operation selects ${breadth} fields (fragments expanded); the limit is ${MAX_FIELDS}.`));
      else if (complexity > maxCost) report(refusal(`The operation costs ${complexity}, over the budget of ${maxCost} per request. Ask for smaller pages (first), fewer aliases or fewer nested lists.`));
    },
  });
}
