import { z } from 'zod';

/**
 * Objects keyed by names users choose (strategy parameters, playground context properties), and how to read them.
 *
 * Any name is a legal key, `__proto__`, `constructor` and `toString` included, so such an object is never indexed
 * blindly: `obj[name]` would find Object.prototype's members for a name the object lacks, and `obj[name] = value`
 * on a plain `{}` would set the prototype instead of a property for `__proto__`.
 *
 * `__proto__` round-trips: JSON.parse (Express, node-postgres, GraphQL variables) makes it an own property, jsonb
 * stores it, JSON.stringify writes it. What loses it is assignment into a plain object, and zod's own `z.record` and
 * `.passthrough()`, which skip the key without checking its value (zod 4.6.7: `if (key === "__proto__") continue`).
 * `ownRecord` replaces `z.record` for such objects: every own key is checked, and the output has no prototype, so
 * writing any name into it makes a property.
 */

/** An object without a prototype: reading a name it lacks gives undefined, writing any name makes an own property. */
export function nameMap<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** `object[name]` when the object itself has that property; never a member of its prototype. */
export function ownValue(object: object, name: string): unknown {
  return Object.hasOwn(object, name) ? (object as Record<string, unknown>)[name] : undefined;
}

/**
 * Like `z.record(key, value)` for an object keyed by names users chose: every own key is validated (`__proto__` too),
 * issues are reported at `[key, ...]`, and the output is a prototype-free object holding exactly the keys sent.
 */
export function ownRecord<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V) {
  return z.custom<Record<string, z.input<V>>>(() => true).transform((input, ctx) => {
    const out = nameMap<z.output<V>>();
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      ctx.addIssue({ code: 'invalid_type', expected: 'object', input });
      return out;
    }
    for (const name of Object.keys(input)) {
      const k = key.safeParse(name);
      if (!k.success) {
        for (const issue of k.error.issues) ctx.addIssue({ code: 'custom', path: [name], input: name, message: `is not a valid name: ${issue.message}` });
        continue;
      }
      const v = value.safeParse((input as Record<string, unknown>)[name]);
      if (!v.success) {
        for (const issue of v.error.issues) ctx.addIssue({ ...issue, path: [name, ...issue.path] } as never);
        continue;
      }
      out[k.data] = v.data;
    }
    return out;
  });
}
