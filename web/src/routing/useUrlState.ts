import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list page's state (search, filters, sort, page) kept in the address, so a reload or a shared link shows the same
 * list. Each name is a query parameter; an empty value is left out of the address. Changes replace the history entry
 * (typing a search does not fill the back button).
 */
export function useUrlState<const K extends string>(names: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const values = useMemo(
    () => Object.fromEntries(names.map((n) => [n, params.get(n) || null])) as Record<K, string | null>,
    [params, names.join('\u0000')], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const set = useCallback((changes: Partial<Record<K, string | null>>) => {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [name, value] of Object.entries(changes) as Array<[K, string | null | undefined]>) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      return next;
    }, { replace: true });
  }, [setParams]);
  return [values, set] as const;
}
