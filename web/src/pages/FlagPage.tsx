import { Title } from '@mantine/core';

// To be built (issue 28).
export default function FlagPage() {
  return <Title order={1}>FlagPage</Title>;
}
