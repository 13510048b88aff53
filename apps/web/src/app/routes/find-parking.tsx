import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { FindParkingScreen } from '../../features/parking/components/find-parking-screen.tsx';

/** Zones are a member's (their operator's): a guest is offered the ways in, or Quick Park. */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly message={t('Sign in to find parking, or use Quick Park from the home page.')}>
      <FindParkingScreen />
    </MemberOnly>
  );
}
