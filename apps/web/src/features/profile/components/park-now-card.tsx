import { useTranslation } from '../../../lib/i18n.ts';
import MapPin from 'lucide-react/icons/map-pin';
import Zap from 'lucide-react/icons/zap';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { buttonClass } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';

/**
 * The home page's main entry. Parking needs an operator: a client_id present and not "0"
 * (docs/product.md#screens), as Find Parking in the bottom navigation. A guest's Park Now opens Quick
 * Park; a member without an operator sees why it waits.
 */
export function ParkNowCard({ guest }: { guest: boolean }) {
  const { t } = useTranslation();
  const { hasClientId } = useSession();
  if (hasClientId) {
    return (
      <ButtonLink to={paths.findParking} size="xl" block className="shadow-lg shadow-brand-700/30">
        <MapPin className="size-6" aria-hidden />
        {t('Park Now')}
      </ButtonLink>
    );
  }
  if (guest) {
    // A guest parks with Quick Park: Park Now leads there rather than sitting greyed out.
    return (
      <div className="flex flex-col gap-2">
        <ButtonLink
          to={paths.quickParkRegister}
          size="xl"
          block
          aria-describedby="park-now-why"
          className="shadow-lg shadow-brand-700/30"
        >
          <Zap className="size-6" aria-hidden />
          {t('Park Now')}
        </ButtonLink>
        <p id="park-now-why" className="text-sm text-slate-600">
          {t('Guests park with Quick Park: just a mobile number and a plate.')}
        </p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        aria-disabled="true"
        aria-describedby="park-now-why"
        className={buttonClass('primary', true, '!cursor-not-allowed !bg-slate-200 !text-slate-500', 'xl')}
      >
        <MapPin className="size-6" aria-hidden />
        {t('Park Now')}
      </button>
      <p id="park-now-why" className="text-sm text-slate-600">
        {t('Parking is not set up for your account yet. Please contact support.')}
      </p>
    </div>
  );
}
