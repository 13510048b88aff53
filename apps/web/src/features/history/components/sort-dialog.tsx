import { useState } from 'react';
import { RadioGroup } from 'radix-ui';
import { useTranslation } from '../../../lib/i18n.ts';
import type { SessionSort } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';

/** The spec's Sort By modal: its four options and its two buttons, letter for letter. */
const OPTIONS: { value: SessionSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'near', label: 'Less Distance' },
  { value: 'far', label: 'More Distance' },
];

export function SortDialog({
  open,
  value,
  onClose,
  onApply,
}: {
  open: boolean;
  value: SessionSort;
  onClose: () => void;
  onApply: (sort: SessionSort) => void;
}) {
  const { t } = useTranslation();
  // The choice takes effect on Apply; reopening starts from what is applied.
  const [draft, setDraft] = useState<SessionSort>(value);
  const change = (o: boolean) => {
    if (o) setDraft(value);
    else onClose();
  };
  return (
    <Dialog open={open} onOpenChange={change} title={t('Sort By')}>
      <RadioGroup.Root
        value={draft}
        onValueChange={(v) => setDraft(v as SessionSort)}
        aria-label={t('Sort By')}
        className="flex flex-col gap-1"
      >
        {OPTIONS.map((o) => (
          <label
            key={o.value}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-2 text-base text-slate-900 hover:bg-slate-50"
          >
            <RadioGroup.Item
              value={o.value}
              className="grid size-5 shrink-0 place-items-center rounded-full border-2 border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=checked]:border-brand-700"
            >
              <RadioGroup.Indicator className="block size-2.5 rounded-full bg-brand-700" />
            </RadioGroup.Item>
            {t(o.label)}
          </label>
        ))}
      </RadioGroup.Root>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <Button variant="secondary" onClick={() => onApply('newest')}>
          {t('Reset Filter')}
        </Button>
        <Button onClick={() => onApply(draft)}>{t('Apply')}</Button>
      </div>
    </Dialog>
  );
}
