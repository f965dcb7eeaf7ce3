import { Button, CopyButton, Group, Text, TextInput } from '@mantine/core';

interface SecretFieldProps {
  value: string;
  /** The field's accessible name; "Secret" unless the page names it otherwise (e.g. "Invite link"). */
  label?: string;
  /** Why the value is shown now: by default, that it is shown once. */
  description?: string;
}

/**
 * A value the service shows once (a token's secret, an invite link): a read-only field to select from and a "Copy"
 * button, so nobody has to retype it.
 */
export function SecretField({ value, label = 'Secret', description = 'Shown once: copy it now, the service will not show it again.' }: SecretFieldProps) {
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput label={label} description={description} value={value} readOnly style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        onFocus={(e) => e.currentTarget.select()} />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <>
            <Button variant={copied ? 'filled' : 'default'} color={copied ? 'teal' : undefined} onClick={copy}>Copy</Button>
            <Text size="xs" c="teal" aria-live="polite" w={48}>{copied ? 'Copied' : ''}</Text>
          </>
        )}
      </CopyButton>
    </Group>
  );
}
