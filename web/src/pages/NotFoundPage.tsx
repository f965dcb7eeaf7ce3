import { Anchor, Title, Text } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <>
      <Title order={1} mb="md">Page not found</Title>
      <Text mb="md">There is no page at this address.</Text>
      <Anchor component={Link} to="/projects">Back to the projects</Anchor>
    </>
  );
}
