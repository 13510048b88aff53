import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { get, useForm, type DefaultValues, type FieldValues, type Path, type Resolver } from 'react-hook-form';
import type { z } from 'zod';

type Schema<T extends FieldValues, Out extends FieldValues> = z.ZodType<Out, T>;
/** A module's schema, loaded when the form is first used: `() => import('./schemas.ts').then((m) => m.X)`. */
export type SchemaLoader<T extends FieldValues, Out extends FieldValues> = () => Promise<Schema<T, Out>>;

/**
 * The one way a form starts: react-hook-form checked by a contract schema. `field(name)`
 * is what a TextField/PhoneField/PasswordField/CodeField takes: the registration (its ref lets
 * react-hook-form focus the first invalid field) and the field's error.
 *
 * The schema may come as a loader: the screens a driver meets before signing in (/login,
 * /register, /otp) paint without zod and the contract's schemas (a quarter of their JavaScript,
 * docs/benchmarks.md), which load at the first change of a field, or at the first submit.
 */
export function useSchemaForm<T extends FieldValues, Out extends FieldValues = T>(
  schema: Schema<T, Out> | SchemaLoader<T, Out>,
  defaultValues: DefaultValues<T>,
) {
  // One load per form, kept across renders (the loader is usually written inline).
  const [lazy] = useState(() => (typeof schema === 'function' ? lazyResolver(schema) : null));
  const resolver = lazy ? lazy.resolver : zodResolver(schema as Schema<T, Out>);
  const form = useForm<T, unknown, Out>({ resolver, defaultValues });
  const { errors, isSubmitting } = form.formState;
  const field = (name: Path<T>) => {
    const registration = form.register(name);
    return {
      ...registration,
      ...(lazy && {
        onChange: (event: Parameters<typeof registration.onChange>[0]) => {
          lazy.load().catch(() => {}); // offline: the submit tries again
          return registration.onChange(event);
        },
      }),
      error: (get(errors, name) as { message?: string } | undefined)?.message,
    };
  };
  return { ...form, field, submitting: isSubmitting };
}

/** A resolver that loads its schema on first use; a failed load (offline) is tried again next time. */
function lazyResolver<T extends FieldValues, Out extends FieldValues>(loader: SchemaLoader<T, Out>) {
  let loading: Promise<Resolver<T, unknown, Out>> | null = null;
  const load = () =>
    (loading ??= loader().then(
      (schema) => zodResolver(schema),
      (err: unknown) => {
        loading = null;
        throw err;
      },
    ));
  const resolver: Resolver<T, unknown, Out> = async (values, context, options) =>
    (await load())(values, context, options);
  return { load, resolver };
}
