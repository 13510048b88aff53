import { useTranslation } from '../../lib/i18n.ts';
import { MemberScreen } from '../../components/session/guest-prompt.tsx';
import { paths } from '../../config/paths.ts';
import { EditProfile } from '../../features/profile/components/edit-profile.tsx';

/** Edit Profile (/editprofile), spec section 2. */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberScreen title={t('Edit Profile')} back={paths.profile} message={t('Sign in to edit your profile.')}>
      <EditProfile />
    </MemberScreen>
  );
}
