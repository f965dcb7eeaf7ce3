import { Checkbox, Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { groupState, toggleGroup, toggleKey, type PickerGroup } from '../../logic/access-permissions';

/**
 * The permissions of a custom role, one fieldset per group of the service's listing (its legend names the group),
 * with an "All" checkbox per group that shows whether none, some or all of it is chosen.
 */
export function PermissionPicker({ groups, value, onChange }: { groups: PickerGroup[]; value: Set<string>; onChange: (next: Set<string>) => void }) {
  return (
    <Stack gap="sm">
      {groups.map((group) => {
        const state = groupState(group, value);
        return (
          <Fieldset key={group.id} legend={group.title} variant="filled">
            <Checkbox mb="xs" fw={600} label={`All of ${group.title.toLowerCase()}`} checked={state === 'all'} indeterminate={state === 'some'}
              onChange={() => onChange(toggleGroup(value, group))} />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={6}>
              {group.items.map((item) => (
                <Checkbox key={item.key} label={item.displayName} description={item.name} checked={value.has(item.key)}
                  onChange={() => onChange(toggleKey(value, item.key))} />
              ))}
            </SimpleGrid>
          </Fieldset>
        );
      })}
    </Stack>
  );
}
