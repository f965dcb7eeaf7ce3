import { Table, type MantineSpacing } from '@mantine/core';
import { TableHead } from '../../components/TableHead';
import { weightPercent } from '../../logic/flag-summary';

/** What the table shows of a variant (the flag page's and a past version's environments both have it). */
export interface VariantRow {
  name: string;
  weight: number;
  weightType: string;
  stickiness: string;
  payload?: { type: string } | null;
}

/** A flag's variants in one environment: name, weight, payload type and stickiness. */
export function VariantsTable({ variants, label, mt }: { variants: readonly VariantRow[]; label: string; mt?: MantineSpacing }) {
  return (
    <Table withTableBorder striped fz="sm" mt={mt} aria-label={label}>
      <TableHead columns={['Name', 'Weight', 'Payload', 'Stickiness']} />
      <Table.Tbody>
        {variants.map((v) => (
          <Table.Tr key={v.name}>
            <Table.Td>{v.name}</Table.Td>
            <Table.Td>{weightPercent(v.weight)}{v.weightType === 'fix' ? ' (fixed)' : ''}</Table.Td>
            <Table.Td>{v.payload?.type ?? '—'}</Table.Td>
            <Table.Td>{v.stickiness}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
