import { Text, Title } from '@mantine/core';

/** Placeholder until this page is built (issue 29). */
export default function ContextFieldsPage() {
  return (
    <>
      <Title order={1}>Context fields</Title>
      <Text c="dimmed">This page is being built.</Text>
    </>
  );
}
