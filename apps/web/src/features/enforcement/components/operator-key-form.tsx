import { z } from 'zod';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';

const KEY = /^pk_[A-Za-z0-9_-]{51}$/;
const KeyForm = z.object({
  key: z.string().trim().regex(KEY, 'Paste the whole key your operator gave you (it starts with pk_).'),
});

/** The operator's key, pasted once and kept in this browser. */
export function OperatorKeyForm({ onSave }: { onSave: (key: string) => void }) {
  const { t } = useTranslation();
  const { field, handleSubmit } = useSchemaForm<z.input<typeof KeyForm>, z.output<typeof KeyForm>>(KeyForm, {
    key: '',
  });
  return (
    <form
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      onSubmit={(e) => void handleSubmit(({ key }) => onSave(key))(e)}
    >
      <TextField
        label={t('Operator key')}
        {...field('key')}
        autoComplete="off"
        spellCheck={false}
        hint={t('Kept on this phone only. Ask your operator for a key.')}
      />
      <Button type="submit">{t('Save key')}</Button>
    </form>
  );
}
