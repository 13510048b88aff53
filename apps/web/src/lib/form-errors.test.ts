import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ApiError } from './api-client.ts';
import { showFormError, toastFailure } from './form-errors.ts';
import i18n, { setLanguage } from './i18n.ts';
import { retryAfterText } from './retry-after.ts';

type Form = { PlateNumber: string; PlateState: string; Color: string };

const refused = (errors: { field: string; message: string }[], message = 'Please correct the highlighted fields') =>
  new ApiError(400, { message, errors }, message);

let shown: MockInstance;
beforeEach(() => {
  shown = vi.spyOn(toast, 'error').mockImplementation(() => 0);
});
afterEach(() => setLanguage('en'));

describe('showFormError: the one way a form shows a refused request', () => {
  it('puts each named field message on its control and focuses only the first', () => {
    const setError = vi.fn();
    const placed = showFormError<Form>(
      refused([
        { field: 'PlateNumber', message: 'Vehicle already exists' },
        { field: 'Unknown', message: 'not a field of this form' },
        { field: 'PlateState', message: 'Choose a state from the list' },
      ]),
      setError,
      ['PlateNumber', 'PlateState'],
    );
    expect(placed).toBe(true);
    expect(setError.mock.calls).toEqual([
      ['PlateNumber', { type: 'server', message: 'Vehicle already exists' }, { shouldFocus: true }],
      ['PlateState', { type: 'server', message: 'Choose a state from the list' }, { shouldFocus: false }],
    ]);
    expect(shown).not.toHaveBeenCalled();
  });

  it('maps a server field name onto a differently named form field', () => {
    const setError = vi.fn();
    showFormError<Form>(refused([{ field: 'VehicleColor', message: 'Pick a color' }]), setError, {
      VehicleColor: 'Color',
    });
    expect(setError).toHaveBeenCalledWith('Color', { type: 'server', message: 'Pick a color' }, { shouldFocus: true });
  });

  it('with no field to take it, the catalogue toast shows (translated) and nothing is marked', async () => {
    const setError = vi.fn();
    await setLanguage('hi');
    const err = new ApiError(500, null, 'Server Not Responding');
    expect(showFormError<Form>(err, setError, ['PlateNumber'])).toBe(false);
    expect(setError).not.toHaveBeenCalled();
    expect(shown).toHaveBeenCalledWith(i18n.t('Server Not Responding'));
    expect(i18n.t('Server Not Responding')).not.toBe('Server Not Responding');
  });

  it('a field the form does not have is not marked either: the toast says it', () => {
    const setError = vi.fn();
    expect(
      showFormError<Form>(refused([{ field: 'Other', message: 'x' }], 'Refused'), setError, {
        PlateNumber: 'PlateNumber',
      }),
    ).toBe(false);
    expect(setError).not.toHaveBeenCalled();
    expect(shown).toHaveBeenCalledWith('Refused');
  });

  it('with its own toast, shows that toast even when fields were marked', () => {
    const setError = vi.fn();
    const err = new ApiError(
      400,
      {
        message: 'm',
        Message: 'Enter a 5-digit ZIP code',
        errors: [{ field: 'ZipCode', message: 'Enter a 5-digit ZIP code' }],
      } as never,
      'm',
    );
    expect(showFormError(err, setError, ['ZipCode'], { toast: (e) => (e.body as { Message: string }).Message })).toBe(
      true,
    );
    expect(shown).toHaveBeenCalledTimes(1);
    expect(shown).toHaveBeenCalledWith('Enter a 5-digit ZIP code');
  });

  it('throws on what is not a refused request (a programming error)', () => {
    const bug = new TypeError('boom');
    expect(() => showFormError<Form>(bug, vi.fn(), [])).toThrow(bug);
    expect(shown).not.toHaveBeenCalled();
  });
});

describe('retryAfterText: when a refused request may be tried again', () => {
  it('says nothing without a time, seconds below a minute, whole minutes (rounded up) after', () => {
    expect(retryAfterText(null)).toBe('');
    expect(retryAfterText(0)).toBe('');
    expect(retryAfterText(-5)).toBe('');
    expect(retryAfterText(1)).toBe('Try again in 1 s.');
    expect(retryAfterText(59)).toBe('Try again in 59 s.');
    expect(retryAfterText(60)).toBe('Try again in 1 min.');
    expect(retryAfterText(61)).toBe('Try again in 2 min.');
    expect(retryAfterText(240)).toBe('Try again in 4 min.');
  });
});

describe('toastFailure: a refused request outside a form', () => {
  it("shows the server's message in the reader's language", async () => {
    await setLanguage('hi');
    toastFailure(new ApiError(503, null, 'Server Not Responding'));
    expect(shown).toHaveBeenCalledWith(i18n.t('Server Not Responding'));
    expect(i18n.t('Server Not Responding')).not.toBe('Server Not Responding');
  });

  it('shows a general message for an answer with no message and for a programming error', () => {
    toastFailure(new ApiError(500, null, ''));
    toastFailure(new TypeError('x is undefined'));
    expect(shown.mock.calls).toEqual([['Something went wrong. Try again.'], ['Something went wrong. Try again.']]);
  });
});
