import { Text, Title } from '@mantine/core';

/** Placeholder until this page is built (issue 29). */
export default function TagTypesPage() {
  return (
    <>
      <Title order={1}>Tag types</Title>
      <Text c="dimmed">This page is being built.</Text>
    </>
  );
}
