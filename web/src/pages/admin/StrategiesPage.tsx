import { Text, Title } from '@mantine/core';

/** Placeholder until this page is built (issue 29). */
export default function StrategiesPage() {
  return (
    <>
      <Title order={1}>Strategies</Title>
      <Text c="dimmed">This page is being built.</Text>
    </>
  );
}
