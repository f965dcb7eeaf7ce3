import { Button, CopyButton, Group, Text, TextInput } from '@mantine/core';

interface CopyFieldProps {
  value: string;
  label: string;
  description?: string;
  /** The Copy button's accessible name: "Copy" unless several copy buttons share a page. */
  copyName?: string;
}

/** A value to hand on (a URL, an id, a secret): a read-only field to select from and a Copy button. */
export function CopyField({ value, label, description, copyName }: CopyFieldProps) {
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput label={label} description={description} value={value} readOnly style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        onFocus={(e) => e.currentTarget.select()} />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <>
            <Button variant={copied ? 'filled' : 'default'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={copyName}>Copy</Button>
            <Text size="xs" c="teal" aria-live="polite" w={48}>{copied ? 'Copied' : ''}</Text>
          </>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * A value the service shows once (a token's secret, an invite link), labelled "Secret" unless named otherwise, with a
 * "Copy" button so nobody has to retype it.
 */
export function SecretField({ value, label = 'Secret', description = 'Shown once: copy it now, the service will not show it again.' }: { value: string; label?: string; description?: string }) {
  return <CopyField value={value} label={label} description={description} />;
}
