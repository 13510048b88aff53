import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useSchemaForm } from './use-schema-form.ts';

// A helper a mutation run found with no test of its own.
describe('useSchemaForm (the one way a form starts)', () => {
  const Schema = z.object({
    City: z.string().min(1, 'City is Required'),
    Address: z.object({ Zip: z.string().min(5, 'Zip is short') }),
  });
  type Values = z.input<typeof Schema>;

  it('checks by the schema; field(name) is the registration with the error of that field', async () => {
    const onValid = vi.fn();
    const { result } = renderHook(() => useSchemaForm<Values>(Schema, { City: '', Address: { Zip: '1' } }));
    expect(result.current.field('City')).toMatchObject({ name: 'City', error: undefined });
    expect(typeof result.current.field('City').ref).toBe('function');
    await act(() => result.current.handleSubmit(onValid)());
    expect(onValid).not.toHaveBeenCalled();
    expect(result.current.field('City').error).toBe('City is Required');
    expect(result.current.field('Address.Zip').error).toBe('Zip is short');
    expect(result.current.submitting).toBe(false);
  });

  it('a valid form submits the parsed values, and is submitting meanwhile', async () => {
    let release = () => {};
    const onValid = vi.fn((_values: unknown) => new Promise<void>((r) => (release = r)));
    const { result } = renderHook(() => useSchemaForm<Values>(Schema, { City: 'Pune', Address: { Zip: '41100' } }));
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = result.current.handleSubmit(onValid)();
    });
    await waitFor(() => expect(result.current.submitting).toBe(true));
    expect(onValid.mock.calls[0]![0]).toEqual({ City: 'Pune', Address: { Zip: '41100' } });
    await act(async () => {
      release();
      await done;
    });
    expect(result.current.submitting).toBe(false);
  });
});
