import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';

const KEY = /^pk_[A-Za-z0-9_-]{51}$/;

/** The operator's key, pasted once and kept in this browser. */
export function OperatorKeyForm({ onSave }: { onSave: (key: string) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      onSubmit={(e) => {
        e.preventDefault();
        const key = value.trim();
        if (!KEY.test(key)) {
          setError(t('Paste the whole key your operator gave you (it starts with pk_).'));
          return;
        }
        onSave(key);
      }}
    >
      <TextField
        label={t('Operator key')}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setError(undefined);
        }}
        autoComplete="off"
        spellCheck={false}
        error={error}
        hint={t('Kept on this phone only. Ask your operator for a key.')}
      />
      <Button type="submit">{t('Save key')}</Button>
    </form>
  );
}
