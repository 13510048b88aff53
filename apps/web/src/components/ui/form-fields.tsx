import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { SelectField, TextField, type TextFieldProps } from './field.tsx';
type Option = { value: string; label: string };

interface Base<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  /** Already translated. */
  label: string;
}

/** A form value as a controlled field takes it: the ref (focus on error), name, value as text, blur and error. */
function useBound<T extends FieldValues>(control: Control<T>, name: FieldPath<T>) {
  const { field, fieldState } = useController({ control, name });
  const bound = {
    ref: field.ref,
    name: field.name,
    value: String(field.value ?? ''),
    onBlur: field.onBlur,
    error: fieldState.error?.message,
  };
  return { field, bound };
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
  const { field, bound } = useBound(control, name);
  return (
    <SelectField
      label={label}
      placeholder={placeholder}
      options={options}
      {...bound}
      disabled={field.disabled}
      aria-busy={busy || undefined}
      onChange={(e) => {
        field.onChange(e.target.value);
        onValueChange?.(e.target.value);
      }}
    />
  );
}

export function FormText<T extends FieldValues>({
  control,
  name,
  label,
  ...rest
}: Base<T> & Omit<TextFieldProps, 'label' | 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'ref'>) {
  const { field, bound } = useBound(control, name);
  return <TextField {...rest} label={label} {...bound} onChange={(e) => field.onChange(e.target.value)} />;
}
