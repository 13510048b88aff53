import { useTranslation } from 'react-i18next';
import { PlaceholderScreen } from '../../components/layouts/placeholder-screen.tsx';

export function Component() {
  const { t } = useTranslation();
  return <PlaceholderScreen title={t('Support Chat')} back="/supportpage" />;
}
