import MapIcon from 'lucide-react/icons/map';
import List from 'lucide-react/icons/list';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { paths } from '../../../config/paths.ts';

/**
 * The spec's list/map toggle (its "globe button"): list ⇄ map, keeping the sort and filters. A map
 * or list icon with its word beside it: a globe alone read as a language switch.
 */
export function ViewToggle({ to, search }: { to: 'map' | 'list'; search: URLSearchParams }) {
  const { t } = useTranslation();
  const qs = search.toString();
  const path = to === 'map' ? paths.mapPage : paths.pastPark;
  const Icon = to === 'map' ? MapIcon : List;
  return (
    <Link
      to={qs ? `${path}?${qs}` : path}
      aria-label={to === 'map' ? t('Show on map') : t('Show as list')}
      className="inline-flex min-h-11 items-center gap-1.5 rounded-full bg-brand-800 px-3 text-sm font-semibold ring-1 ring-white/40 hover:bg-slate-900"
    >
      <Icon className="size-5" aria-hidden />
      <span aria-hidden>{to === 'map' ? t('Map') : t('List')}</span>
    </Link>
  );
}
