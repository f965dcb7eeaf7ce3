import '@mantine/dates/styles.css';
import { DateTimePicker, type DateTimePickerProps } from '@mantine/dates';
import { isoToPicker, pickerToIso } from '../../logic/constraints';

interface ExpiryPickerProps extends Omit<DateTimePickerProps, 'value' | 'onChange'> {
  /** ISO 8601, or '' (or nothing) for none. */
  value?: string;
  onChange(iso: string): void;
}

/** A token's expiry, in the reader's local time, picked in a calendar whose controls are all named. */
export function ExpiryPicker({ value, onChange, ...props }: ExpiryPickerProps) {
  return (
    <DateTimePicker value={value ? isoToPicker(value) : null} onChange={(v) => onChange(pickerToIso(v))} valueFormat="YYYY-MM-DD HH:mm"
      submitButtonProps={{ 'aria-label': 'Set expiry' }}
      timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes', 'aria-label': 'Time' }}
      nextLabel="Next month" previousLabel="Previous month" {...props} />
  );
}
