import { Button, CopyButton, Group, TextInput } from '@mantine/core';

/** A value to hand to someone else (a URL, an id): read-only, selectable, and a Copy button named after it. */
export function CopyField({ label, value, description }: { label: string; value: string; description?: string }) {
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput label={label} description={description} value={value} readOnly style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} onFocus={(e) => e.currentTarget.select()} />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button variant={copied ? 'filled' : 'default'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={`Copy ${label}`} w={90}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
