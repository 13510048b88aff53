import { useRef } from 'react';
import { Dialog as D } from 'radix-ui';
import SquareParking from 'lucide-react/icons/square-letter-p';
import X from 'lucide-react/icons/x';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Zone } from '@parkit/contract';
import { href, paths } from '../../../config/paths.ts';
import { ZoneFacts } from './zone-facts.tsx';
import { ZoneSign } from './zone-sign.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';

/** Where "Park here" goes: the zone's confirmation (parking itself comes in a later issue). */
export const parkHereHref = (zone: Pick<Zone, 'ZoneId'>) => href(paths.confirmLocation, { zone: zone.ZoneId });

/**
 * The zone's card, as a bottom sheet over the list or the map (Radix dialog: focus moves in,
 * Escape or a tap outside closes, focus returns to the row or marker).
 */
export function ZoneSheet({ zone, onClose }: { zone: Zone | null; onClose: () => void }) {
  const { t } = useTranslation();
  // Opened from a row or a marker, not a Radix trigger: remember what had focus to give it back.
  const returnFocus = useRef<HTMLElement | null>(null);
  return (
    <D.Root open={zone !== null} onOpenChange={(open) => !open && onClose()}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <D.Content
          onOpenAutoFocus={() => {
            returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(e) => {
            if (!returnFocus.current?.isConnected) return;
            e.preventDefault();
            returnFocus.current.focus();
          }}
          className="fixed inset-x-0 bottom-0 z-50 mx-auto flex max-h-[85dvh] w-full max-w-md flex-col rounded-t-3xl bg-white pb-[env(safe-area-inset-bottom)] shadow-2xl"
        >
          {zone && (
            <>
              <div className="mx-auto mt-2 h-1.5 w-10 rounded-full bg-slate-300" aria-hidden />
              <div className="flex items-start gap-3 px-5 pt-3">
                <ZoneSign number={zone.ZoneNumber} />
                <div className="min-w-0 flex-1">
                  <D.Title className="text-lg leading-snug font-bold text-slate-900">{zone.Name}</D.Title>
                  <D.Description className="text-sm text-slate-600">{`${zone.Address}, ${zone.City}, ${zone.State}`}</D.Description>
                </div>
                <D.Close
                  aria-label={t('Close')}
                  className="-me-2 grid size-10 shrink-0 place-items-center rounded-full text-slate-500 hover:bg-slate-100"
                >
                  <X className="size-5" aria-hidden />
                </D.Close>
              </div>
              <div className="overflow-y-auto px-5">
                <ZoneFacts zone={zone} />
              </div>
              <div className="border-t border-slate-100 p-4">
                <ButtonLink to={parkHereHref(zone)} size="lg" block>
                  <SquareParking className="size-5" aria-hidden />
                  {t('Park here')}
                </ButtonLink>
              </div>
            </>
          )}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
