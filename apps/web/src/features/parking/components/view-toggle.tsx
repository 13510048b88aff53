import List from 'lucide-react/icons/list';
import MapIcon from 'lucide-react/icons/map';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { paths } from '../../../config/paths.ts';

/** The header's switch between the list and the map (the position is shared through the query cache). */
export function ViewToggle({ to }: { to: 'map' | 'list' }) {
  const { t } = useTranslation();
  const map = to === 'map';
  const Icon = map ? MapIcon : List;
  return (
    <Link
      to={map ? paths.findParkingMap : paths.findParking}
      className="inline-flex min-h-10 items-center gap-1.5 rounded-full bg-brand-800 px-3 text-sm font-semibold text-white ring-1 ring-white/40 hover:bg-slate-900"
    >
      <Icon className="size-4" aria-hidden />
      {map ? t('Map') : t('List')}
    </Link>
  );
}
