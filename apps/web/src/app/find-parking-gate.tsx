import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n.ts';
import { MemberOnly } from '../components/session/guest-prompt.tsx';

/** Zones are a member's (their operator's): a guest is offered the ways in, or Quick Park. */
export function FindParkingGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <MemberOnly
      screen={t('Find Parking')}
      message={t('Sign in to find parking, or use Quick Park from the home page.')}
    >
      {children}
    </MemberOnly>
  );
}
