import { useTranslation } from '../../lib/i18n.ts';
import { PageHeader } from '../ui/page-header.tsx';

/** A titled screen whose capability comes in a later issue; the title comes translated. */
export function PlaceholderScreen({ title, back }: { title: string; back?: string }) {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={title} back={back} />
      <p className="p-6 text-sm text-slate-600">{t('This part of ParkIt is coming soon.')}</p>
    </main>
  );
}
