import '@mantine/dates/styles.css';
import { useContextFields } from '../../data/definitions';
import { emptyConstraint, type ConstraintDraft, type ConstraintErrors } from '../../logic/constraints';
import { ErrorNotice } from '../ErrorNotice';
import { ConstraintRow } from './ConstraintRow';
import { EditableList } from './EditableList';

export interface ConstraintEditorProps {
  /** The constraints being edited (see logic/constraints.ts: fromConstraint, toConstraintInput, validateConstraints). */
  value: ConstraintDraft[];
  onChange(next: ConstraintDraft[]): void;
  /** Messages per constraint, by position: the owner's validation before sending and the service's refusal details. */
  errors?: ReadonlyArray<ConstraintErrors | undefined>;
  /** The section's heading (a strategy's or a segment's constraints). */
  title?: string;
  /** What an empty list means to its owner (default: the strategy's reading). */
  emptyText?: string;
}

/**
 * A list of constraints, all of which must hold: each with its context field (legal values offered), operator, the
 * value its operator takes and the "Not" / "Case insensitive" switches. It only edits; its owner validates and sends,
 * so it serves strategies and segments alike.
 */
export function ConstraintEditor({
  value, onChange, errors = [], title = 'Constraints', emptyText = 'No constraints: the strategy applies to every context.',
}: ConstraintEditorProps) {
  const fields = useContextFields();
  const list = fields.data ?? [];
  const update = (i: number, patch: Partial<ConstraintDraft>) => onChange(value.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  // A new constraint starts on userId, the field most constraints use, when there is one.
  const firstField = list.find((f) => f.name === 'userId')?.name ?? list[0]?.name ?? '';

  return (
    <EditableList
      title={title}
      order={3}
      summary={value.length === 0 ? emptyText : 'All constraints must hold.'}
      addLabel="Add constraint"
      onAdd={() => onChange([...value, emptyConstraint(firstField)])}
      notice={<ErrorNotice error={fields.error} title="The context fields could not be read" />}
    >
      {value.map((c, i) => (
        <ConstraintRow
          key={c.key}
          index={i}
          constraint={c}
          fields={list}
          errors={errors[i]}
          onChange={(patch) => update(i, patch)}
          onRemove={() => onChange(value.filter((_, j) => j !== i))}
        />
      ))}
    </EditableList>
  );
}
