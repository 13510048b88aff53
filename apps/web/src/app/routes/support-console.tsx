import LogOut from 'lucide-react/icons/log-out';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { logout } from '../../lib/session.ts';
import { ConsoleScreen } from '../../features/support/components/console-screen.tsx';

/** The support console (/support-console): an agent's landing page. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = async () => {
    await logout();
    await navigate(paths.parkit);
  };
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader
        title={t('Support console')}
        action={
          <button
            type="button"
            onClick={() => void signOut()}
            aria-label={t('Logout')}
            className="grid size-11 place-items-center rounded-full hover:bg-white/10"
          >
            <LogOut className="size-5" aria-hidden />
          </button>
        }
      />
      <div className="p-4">
        <ConsoleScreen />
      </div>
    </main>
  );
}
