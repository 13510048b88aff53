import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import type { z } from 'zod';
import { UpdateAccountRequest, type UserData } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { paths } from '../../../config/paths.ts';
import { refuseNonDigits } from '../../../components/ui/digit-fields.tsx';
import { showFormError } from '../../../lib/form-errors.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useStates } from '../../../lib/states-query.ts';
import { useUpdateAccount } from '../api/update-account.ts';
import { FormSelect, FormText } from '../../../components/ui/form-fields.tsx';

/** The screen's fields; username, email and phone are shown but not editable (docs/product.md#validation). */
const EditProfileSchema = UpdateAccountRequest.pick({
  UserName: true,
  EmailAddress: true,
  PhoneNumber: true,
  AddressLine1: true,
  City: true,
  State: true,
  ZipCode: true,
});
type Input = z.input<typeof EditProfileSchema>;
type Output = z.output<typeof EditProfileSchema>;
const EDITABLE = ['AddressLine1', 'City', 'State', 'ZipCode'] as const;

/** Edit Profile (docs/product.md#screens), prefilled from user_data; UserName from the stored username. */
export function EditProfileForm({ user, username }: { user: UserData; username: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const states = useStates();
  const save = useUpdateAccount(user);
  const { control, handleSubmit, setError, formState, submitting } = useSchemaForm<Input, Output>(EditProfileSchema, {
    UserName: username || user.UserName,
    EmailAddress: user.EmailAddress,
    PhoneNumber: user.PhoneNumber,
    AddressLine1: user.AddressLine1,
    City: user.City,
    // docs/product.md#placeholders-made-real: the saved state; TX (the spec's forced value) only when none is saved.
    State: user.State || 'TX',
    ZipCode: user.ZipCode,
  });
  const [userName, email, phone, state] = useWatch({
    control,
    name: ['UserName', 'EmailAddress', 'PhoneNumber', 'State'],
  });

  const { errors } = formState;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({
        ID: user.MemberId,
        EmailAddress: values.EmailAddress,
        PhoneNumber: values.PhoneNumber,
        FirstName: user.FirstName,
        LastName: user.LastName,
        UserName: values.UserName,
        AddressLine1: values.AddressLine1,
        AddressLine2: user.AddressLine2,
        City: values.City,
        State: values.State,
        ZipCode: values.ZipCode,
        MinBalance: user.MinBalance || '0',
      });
    } catch (err) {
      // docs/product.md#errors: the response's Message is the toast, beside any field the server names.
      showFormError(err, setError, EDITABLE, {
        toast: (e) => (e.body as { Message?: string } | null)?.Message || e.message,
      });
      return;
    }
    toast.success(t('User Updated'));
    await navigate(paths.profile);
  });

  const stateOptions = (states.data ?? []).map((s) => ({ value: s, label: s }));
  if (state && !stateOptions.some((o) => o.value === state)) stateOptions.unshift({ value: state, label: state });

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      <TextField label={t('Username')} value={userName} disabled error={errors.UserName?.message} />
      <TextField label={t('Email')} type="email" value={email} disabled error={errors.EmailAddress?.message} />
      <TextField label={t('Mobile Number')} type="tel" value={phone} disabled error={errors.PhoneNumber?.message} />
      <FormText
        control={control}
        name="AddressLine1"
        label={t('AddressLine 1')}
        autoComplete="address-line1"
        maxLength={100}
      />
      <FormText control={control} name="City" label={t('City')} autoComplete="address-level2" maxLength={60} />
      <FormSelect
        control={control}
        name="State"
        label={t('State')}
        placeholder={t('Select State')}
        options={stateOptions}
      />
      <FormText
        control={control}
        name="ZipCode"
        label={t('ZipCode')}
        inputMode="numeric"
        autoComplete="postal-code"
        onKeyDown={refuseNonDigits}
      />
      <Button type="submit" block loading={submitting} className="mt-2">
        {t('Ok')}
      </Button>
    </form>
  );
}
