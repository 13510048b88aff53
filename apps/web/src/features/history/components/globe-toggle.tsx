import Globe from 'lucide-react/icons/globe';
import List from 'lucide-react/icons/list';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { paths } from '../../../config/paths.ts';

/** The spec's globe button: list ⇄ map, keeping the sort and filters. */
export function GlobeToggle({ to, search }: { to: 'map' | 'list'; search: URLSearchParams }) {
  const { t } = useTranslation();
  const qs = search.toString();
  const path = to === 'map' ? paths.mapPage : paths.pastPark;
  const Icon = to === 'map' ? Globe : List;
  return (
    <Link
      to={qs ? `${path}?${qs}` : path}
      aria-label={to === 'map' ? t('Show on map') : t('Show as list')}
      className="grid size-11 place-items-center rounded-full bg-brand-800 ring-1 ring-white/40 hover:bg-slate-900"
    >
      <Icon className="size-5" aria-hidden />
    </Link>
  );
}
