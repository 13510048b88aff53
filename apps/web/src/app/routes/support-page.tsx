import { useTranslation } from '../../lib/i18n.ts';
import { Screen } from '../../components/layouts/screen.tsx';
import { paths } from '../../config/paths.ts';
import { SupportHub } from '../../features/support/components/support-hub.tsx';

/** Support hub (/supportpage), docs/product.md#screens: header 'Account'. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Screen title={t('Account')} back={paths.profile}>
      <SupportHub />
    </Screen>
  );
}
