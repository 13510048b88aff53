import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { EditProfile } from '../../features/profile/components/edit-profile.tsx';

/** Edit Profile (/editprofile), spec section 2. */
export function Component() {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('Edit Profile')} back={paths.profile} />
      <div className="p-4">
        <MemberOnly message={t('Sign in to edit your profile.')}>
          <EditProfile />
        </MemberOnly>
      </div>
    </main>
  );
}
