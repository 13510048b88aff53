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

  it('a schema loader is not called at render; the first change loads it once, and the submit checks by it', async () => {
    const loader = vi.fn(() => Promise.resolve(Schema));
    const onValid = vi.fn();
    const { result } = renderHook(() => useSchemaForm<Values>(loader, { City: '', Address: { Zip: '1' } }));
    expect(loader).not.toHaveBeenCalled();
    await act(() => result.current.field('City').onChange({ target: { name: 'City', value: 'P' }, type: 'change' }));
    expect(loader).toHaveBeenCalledTimes(1);
    await act(() => result.current.handleSubmit(onValid)());
    expect(loader).toHaveBeenCalledTimes(1);
    expect(onValid).not.toHaveBeenCalled();
    expect(result.current.field('Address.Zip').error).toBe('Zip is short');
    expect(result.current.field('City').error).toBeUndefined();
  });

  it('a failed load (offline) fails that submit and is tried again at the next', async () => {
    const loader = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Schema);
    const onValid = vi.fn();
    const { result } = renderHook(() => useSchemaForm<Values>(loader, { City: 'Pune', Address: { Zip: '41100' } }));
    let failed: unknown = null;
    await act(() =>
      result.current
        .handleSubmit(onValid)()
        .catch((err: unknown) => void (failed = err)),
    );
    expect(failed).toEqual(new Error('offline'));
    expect(result.current.submitting).toBe(false);
    await act(() => result.current.handleSubmit(onValid)());
    expect(loader).toHaveBeenCalledTimes(2);
    expect(onValid.mock.calls[0]![0]).toEqual({ City: 'Pune', Address: { Zip: '41100' } });
  });
});
