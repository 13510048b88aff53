import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import Car from 'lucide-react/icons/car';
import Clock from 'lucide-react/icons/clock';
import MapPin from 'lucide-react/icons/map-pin';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LanguageMenu } from '../../../components/ui/language-menu.tsx';
import { paths } from '../../../config/paths.ts';
import { continueAsGuest } from '../../../lib/session-store.ts';
import { BrandMark } from './auth-screen.tsx';

/** The landing page's ways in are a size up from the app's buttons. */
const big = 'min-h-12 text-base';

/** /parkit, the landing page (docs/product.md#sign-in): Login, Register, Continue as guest, Quick Park. */
export function Landing() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const asGuest = () => void navigate(continueAsGuest());
  const perks = [
    { icon: MapPin, text: t('Find a zone by number, address or map') },
    { icon: Clock, text: t('Extend or stop your session from your phone') },
    { icon: Car, text: t('Keep your vehicles ready for the next park') },
  ];
  return (
    <main className="relative flex min-h-dvh flex-1 flex-col bg-gradient-to-b from-brand-700 to-brand-800 text-white">
      <LanguageMenu />
      <section className="flex flex-1 flex-col items-center justify-center gap-4 px-8 pt-12 text-center">
        <BrandMark size="lg" />
        <h1 className="text-4xl font-black tracking-tight">ParkIt</h1>
        <p className="max-w-xs text-lg text-brand-50">{t('Pay for parking in seconds, wherever you are.')}</p>
        <ul className="mt-4 flex w-full max-w-xs flex-col gap-3 text-start text-sm text-brand-50">
          {perks.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-3">
              <Icon className="size-5 shrink-0 text-brand-100" aria-hidden />
              {text}
            </li>
          ))}
        </ul>
      </section>
      <nav aria-label={t('Get started')} className="flex flex-col gap-3 rounded-t-3xl bg-white px-6 pt-8 pb-10">
        <ButtonLink to={paths.login} block className={big}>
          {t('Login')}
        </ButtonLink>
        <ButtonLink to={paths.register} variant="secondary" block className={big}>
          {t('Register')}
        </ButtonLink>
        <Button variant="ghost" block onClick={asGuest} className={big}>
          {t('Continue as guest')}
        </Button>
        {/* Quick Park is the guest's way to park (phone + plate); its route is protected, so the
            link starts a guest visit first instead of bouncing back here. */}
        <Link
          to={paths.quickParkRegister}
          onClick={() => continueAsGuest()}
          className="inline-flex min-h-11 w-full items-center justify-center text-sm font-semibold text-slate-600 underline-offset-2 hover:underline"
        >
          {t('Quick Park')}
        </Link>
      </nav>
    </main>
  );
}
