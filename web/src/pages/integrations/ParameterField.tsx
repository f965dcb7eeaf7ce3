import { PasswordInput, Textarea, TextInput } from '@mantine/core';
import type { ParameterDefinition } from '../../logic/addon-form';

interface ParameterFieldProps {
  definition: ParameterDefinition;
  value?: string;
  /** A sensitive value is stored: the field is empty and the stored value is kept unless something is typed. */
  stored: boolean;
  error?: string | null;
  onChange(value: string): void;
}

/**
 * One provider parameter, as its definition says: a URL or text field, a text area for longer text; a sensitive one
 * (a secret URL, a key, headers) is write-only: typed masked, and once stored never shown again, only replaced.
 */
export function ParameterField({ definition, value = '', stored, error, onChange }: ParameterFieldProps) {
  const common = {
    label: definition.displayName,
    required: definition.required && !stored,
    value,
    error: error || undefined,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.currentTarget.value),
  };
  if (definition.sensitive) {
    const description = stored
      ? `${definition.description} Write-only: a value is stored and kept; type a new one to replace it.`
      : `${definition.description} Write-only: it will not be shown again once saved.`;
    return (
      <PasswordInput {...common} description={description} autoComplete="off"
        placeholder={stored ? '***** (stored)' : definition.placeholder ?? undefined}
        visibilityToggleButtonProps={{ 'aria-label': `Show or hide ${definition.displayName} while typing` }} />
    );
  }
  const placeholder = definition.placeholder ?? undefined;
  if (definition.type === 'textfield') {
    return <Textarea {...common} description={definition.description} placeholder={placeholder} autosize minRows={2} maxRows={10} />;
  }
  return (
    <TextInput {...common} description={definition.type === 'list' ? `${definition.description} Comma-separated.` : definition.description}
      placeholder={placeholder} type={definition.type === 'url' ? 'url' : 'text'} />
  );
}
