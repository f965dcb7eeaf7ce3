import { Title } from '@mantine/core';

// To be built (issue 28).
export default function PlaygroundPage() {
  return <Title order={1}>PlaygroundPage</Title>;
}
