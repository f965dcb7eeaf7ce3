import { Table } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { notifyDone } from '../../components/notify';

/** A refusal about one row of a definitions table, shown in a row of its own right under it (nothing when none). */
export function RowError({ error, colSpan }: { error: unknown; colSpan: number }) {
  if (!error) return null;
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan} py={0}><ErrorNotice error={error} /></Table.Td>
    </Table.Tr>
  );
}

/** Which row's action failed last, so its refusal is shown next to it (cleared when another action starts). */
export function useRowError<K>() {
  const [failed, setFailed] = useState<{ key: K; error: unknown } | null>(null);
  return {
    errorFor: (key: K) => (failed && failed.key === key ? failed.error : null),
    fail: (key: K, error: unknown) => setFailed({ key, error }),
    clear: () => setFailed(null),
  };
}

interface ConfirmDeleteOptions<T> {
  title: (item: T) => string;
  message: (item: T) => React.ReactNode;
  run: (item: T) => Promise<unknown>;
  /** Queries that show the item (prefixes). */
  invalidate: QueryKey[];
  done: (item: T) => string;
}

/**
 * A delete through ConfirmDialog: `ask(item)` opens it, and the dialog shows the service's refusal (a segment in
 * use, a strategy type features still use) inside it, next to the button that caused it.
 */
export function useConfirmDelete<T>({ title, message, run, invalidate, done }: ConfirmDeleteOptions<T>) {
  const queryClient = useQueryClient();
  const [item, setItem] = useState<T | null>(null);
  const remove = useMutation({
    mutationFn: (it: T) => run(it),
    onSuccess: async (_r, it) => {
      await Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      notifyDone(done(it));
      setItem(null);
    },
  });
  const close = () => { setItem(null); remove.reset(); };
  const dialog = (
    <ConfirmDialog
      opened={item !== null}
      title={item === null ? '' : title(item)}
      message={item === null ? '' : message(item)}
      confirmLabel="Delete"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => item !== null && remove.mutate(item)}
      onClose={close}
    />
  );
  return { ask: (it: T) => { remove.reset(); setItem(it); }, dialog };
}
