import { Select, type SelectProps } from '@mantine/core';
import type { ExpiryChoice } from '../../logic/access';

/** "Expires in": one of a few spans (7 days, 30 days…) from now, as the forms of tokens and signup links offer them. */
export function ExpirySelect({ choices, ...input }: { choices: readonly ExpiryChoice[] } & Omit<SelectProps, 'data'>) {
  return <Select label="Expires in" allowDeselect={false} data={choices.map(({ value, label }) => ({ value, label }))} {...input} />;
}
