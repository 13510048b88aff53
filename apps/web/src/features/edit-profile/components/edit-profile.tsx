import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { EditProfileForm } from './edit-profile-form.tsx';

/** The form needs the saved user data; a guest or a damaged store has none to edit. */
export function EditProfile() {
  const { t } = useTranslation();
  const { user, username } = useSession();
  if (!user) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 py-10 text-center text-sm text-slate-600">
        <p>{t('Sign in to edit your profile.')}</p>
        <Link to={paths.login} className="font-semibold text-brand-700 underline">
          {t('Login')}
        </Link>
      </div>
    );
  }
  return <EditProfileForm user={user} username={username} />;
}
