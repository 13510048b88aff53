import { zodResolver } from '@hookform/resolvers/zod';
import { get, useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from 'zod';

/**
 * The one way a form starts: react-hook-form checked by a contract schema. `field(name)`
 * is what a TextField/PhoneField/PasswordField/CodeField takes: the registration (its ref lets
 * react-hook-form focus the first invalid field) and the field's error.
 */
export function useSchemaForm<T extends FieldValues, Out extends FieldValues = T>(
  schema: z.ZodType<Out, T>,
  defaultValues: DefaultValues<T>,
) {
  const form = useForm<T, unknown, Out>({ resolver: zodResolver(schema), defaultValues });
  const { errors, isSubmitting } = form.formState;
  const field = (name: Path<T>) => ({
    ...form.register(name),
    error: (get(errors, name) as { message?: string } | undefined)?.message,
  });
  return { ...form, field, submitting: isSubmitting };
}
