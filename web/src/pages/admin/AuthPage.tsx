import { Text, Title } from '@mantine/core';

/** Placeholder until this page is built (issue 29). */
export default function AuthPage() {
  return (
    <>
      <Title order={1}>Single sign-on</Title>
      <Text c="dimmed">This page is being built.</Text>
    </>
  );
}
