import { z } from 'zod';
import { applyPatch, JsonPatchError, type Operation } from 'fast-json-patch';
import { ValidationError } from '../errors';
import { parse } from '../validation';

const operationSchema = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: z.string().max(1000),
  value: z.unknown().optional(),
  from: z.string().max(1000).optional(),
}).strict();
export const patchSchema = z.array(operationSchema).max(1000);

/**
 * Applies an RFC 6902 JSON patch to a copy of `document` (the PATCH endpoints). A malformed patch, or one whose
 * operations cannot apply (a failed `test`, a missing path), is a 400 naming the operation.
 * Recursion is bounded: fast-json-patch walks each operation's `value` recursively when validating it, and
 * structuredClone walks the document; `parse` has refused any operation nested deeper than MAX_INPUT_DEPTH (with an
 * iterative walk) before either runs, and the document is a stored value, written through the same `parse`.
 */
export function applyJsonPatch<T>(document: T, input: unknown): T {
  const ops = parse(patchSchema, input) as Operation[];
  // The library refuses to walk through `__proto__` (a guard against prototype pollution); say so in our words. A
  // property of that name is kept by replacing the object that holds it (see records.ts).
  ops.forEach((op, i) => {
    for (const field of ['path', 'from'] as const) {
      const pointer = (op as { path: string; from?: string })[field];
      if (pointer !== undefined && pointer.split('/').some((token) => token.replace(/~1/g, '/').replace(/~0/g, '~') === '__proto__')) {
        throw ValidationError.single(`${i}/${field}`, `The patch operation ${i} addresses a property named "__proto__", which a patch cannot; replace the object that holds it instead.`);
      }
    }
  });
  try {
    return applyPatch(structuredClone(document), ops, true, false).newDocument;
  } catch (err) {
    // Every failure here is about the patch the caller sent (including the library's refusal to touch __proto__).
    const index = err instanceof JsonPatchError && typeof err.index === 'number' ? err.index : 0;
    const reason = err instanceof JsonPatchError ? `${err.name} (${err.message.split('\n')[0]})` : (err as Error).message.split('.')[0];
    throw ValidationError.single(`${index}`, `The patch operation ${index} cannot be applied: ${reason}.`);
  }
}
