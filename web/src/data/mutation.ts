import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';
import { notifyDone, type Notice } from '../components/notify';

type Stale<TData, TVars> = readonly QueryKey[] | ((vars: TVars, data: TData | undefined) => readonly QueryKey[]);

export interface AppMutationOptions<TData, TVars, TContext> extends Omit<UseMutationOptions<TData, Error, TVars, TContext>, 'mutationFn' | 'onSettled'> {
  mutationFn: (vars: TVars) => Promise<TData>;
  /**
   * The queries the change makes stale, by key prefix (from the areas' key factories). They are read again once the
   * change settles, whatever its outcome, so a page shows the service's state rather than what it hoped it would be.
   */
  invalidates: Stale<TData, TVars>;
  /** The success notice (a line, or a title over a line), shown once the stale queries are fresh again. */
  done?: Notice | ((data: TData, vars: TVars) => Notice);
}

/**
 * Every change the UI makes goes through this hook (in the areas' data modules): it invalidates what the change makes
 * stale and announces success one way. A page passes its own `onSuccess` to `mutate` (closing its form, say), which runs
 * after both.
 */
export function useAppMutation<TData = unknown, TVars = void, TContext = unknown>(options: AppMutationOptions<TData, TVars, TContext>) {
  const client = useQueryClient();
  const { invalidates, done, ...rest } = options;
  return useMutation<TData, Error, TVars, TContext>({
    ...rest,
    onSettled: async (data, error, vars) => {
      const keys = typeof invalidates === 'function' ? invalidates(vars, data) : invalidates;
      await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
      if (!error && done) notifyDone(typeof done === 'function' ? done(data as TData, vars) : done);
    },
  });
}
