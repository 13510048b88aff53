import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { SupportHub } from '../../features/support/components/support-hub.tsx';

/** Support hub (/supportpage), spec section 2: header 'Account'. */
export function Component() {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('Account')} back={paths.profile} />
      <div className="p-4">
        <SupportHub />
      </div>
    </main>
  );
}
