import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { Can } from '../../components/Can';
import { environmentLabel, isExpired, projectsLabel, type TokenType } from '../../logic/token-form';
import { AccessTable } from '../access/AccessTable';
import { When } from './shared';
import type { PermissionName } from '../../gql/graphql';

export interface TokenRow {
  id: number;
  tokenName: string;
  type: string;
  projects: string[];
  environment: string;
  createdAt: string;
  seenAt?: string | null;
  expiresAt?: string | null;
}

/** The permission each action on a token of a type needs (api-token.service.ts: admin tokens need ADMIN). */
export const tokenPermission = (action: 'UPDATE' | 'DELETE', type: string): PermissionName =>
  type === 'client' ? `${action}_CLIENT_API_TOKEN` : type === 'frontend' ? `${action}_FRONTEND_API_TOKEN` : 'ADMIN';

const TYPE_COLOR: Record<TokenType, string> = { client: 'blue', frontend: 'grape', admin: 'red' };

interface TokenTableProps {
  tokens: TokenRow[];
  onEditExpiry(token: TokenRow): void;
  onRevoke(token: TokenRow): void;
}

/** The API tokens the user may read, with the actions the service allows on each. */
export function TokenTable({ tokens, onEditExpiry, onRevoke }: TokenTableProps) {
  if (tokens.length === 0) return <Text c="dimmed">No API tokens yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <AccessTable highlightOnHover verticalSpacing="sm" columns={['Name', 'Type', 'Projects', 'Environment', 'Created', 'Last seen', 'Expires']} actions>
        {tokens.map((t) => (
          <Table.Tr key={t.id}>
            <Table.Td fw={500}>{t.tokenName}</Table.Td>
            <Table.Td><Badge variant="light" color={TYPE_COLOR[t.type as TokenType] ?? 'gray'}>{t.type}</Badge></Table.Td>
            <Table.Td>{projectsLabel(t.projects)}</Table.Td>
            <Table.Td>{environmentLabel(t.environment)}</Table.Td>
            <Table.Td><When iso={t.createdAt} /></Table.Td>
            <Table.Td><When iso={t.seenAt} /></Table.Td>
            <Table.Td>
              {isExpired(t.expiresAt) ? <Badge color="red" variant="outline">expired</Badge> : <When iso={t.expiresAt} never="never expires" />}
            </Table.Td>
            <Table.Td>
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <Can permission={tokenPermission('UPDATE', t.type)}>
                  <Button size="xs" variant="default" aria-label={`Edit expiry of ${t.tokenName}`} onClick={() => onEditExpiry(t)}>Edit expiry</Button>
                </Can>
                <Can permission={tokenPermission('DELETE', t.type)}>
                  <Button size="xs" color="red" variant="light" aria-label={`Revoke ${t.tokenName}`} onClick={() => onRevoke(t)}>Revoke</Button>
                </Can>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </AccessTable>
    </Table.ScrollContainer>
  );
}
