import { Text, Title } from '@mantine/core';

/** Placeholder until this page is built (issue 29). */
export default function EnvironmentsPage() {
  return (
    <>
      <Title order={1}>Environments</Title>
      <Text c="dimmed">This page is being built.</Text>
    </>
  );
}
