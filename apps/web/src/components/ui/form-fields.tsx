import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { SelectField, TextField, type TextFieldProps } from './field.tsx';
type Option = { value: string; label: string };

interface Base<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  /** Already translated. */
  label: string;
}

/**
 * A native select bound to the form as a controlled value: React re-applies the value when the
 * options arrive later (lists load after the form has its edit-mode values).
 */
export function FormSelect<T extends FieldValues>({
  control,
  name,
  label,
  placeholder,
  options,
  onValueChange,
  busy,
}: Base<T> & { placeholder: string; options: Option[]; onValueChange?: (value: string) => void; busy?: boolean }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <SelectField
          label={label}
          placeholder={placeholder}
          options={options}
          ref={field.ref}
          name={field.name}
          value={String(field.value ?? '')}
          onBlur={field.onBlur}
          disabled={field.disabled}
          aria-busy={busy || undefined}
          error={fieldState.error?.message}
          onChange={(e) => {
            field.onChange(e.target.value);
            onValueChange?.(e.target.value);
          }}
        />
      )}
    />
  );
}

export function FormText<T extends FieldValues>({
  control,
  name,
  label,
  ...rest
}: Base<T> & Omit<TextFieldProps, 'label' | 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'ref'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...rest}
          label={label}
          ref={field.ref}
          name={field.name}
          value={String(field.value ?? '')}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
