import { Alert, List } from '@mantine/core';
import { ApiError } from '../api/errors';

/**
 * A refusal of the service shown where it happened, in its own words: the message, each detail with the field it names,
 * and the error's name (NoAccessError, NameExistsError, ...) for a reader who looks it up. Nothing for no error.
 */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const message = api?.message ?? (error instanceof Error ? error.message : String(error));
  return (
    <Alert color="red" role="alert" title={title ?? (api ? `Refused: ${api.errorName}` : 'Error')} my="sm">
      {message}
      {api && api.details.length > 0 && (
        <List size="sm" mt="xs">
          {api.details.map((d, i) => (
            <List.Item key={i}>{d.path ? <><code>{d.path}</code>: </> : null}{d.message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
