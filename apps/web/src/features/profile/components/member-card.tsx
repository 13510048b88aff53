import { useTranslation } from '../../../lib/i18n.ts';
import Mail from 'lucide-react/icons/mail';
import MapPin from 'lucide-react/icons/map-pin';
import Phone from 'lucide-react/icons/phone';
import UserRound from 'lucide-react/icons/user-round';
import type { UserData } from '@parkit/contract';
import { paths } from '../../../config/paths.ts';
import { initials } from '../../../lib/initials.ts';
import { ButtonLink } from '../../../components/ui/button-link.tsx';

const avatar = 'grid size-16 shrink-0 place-items-center rounded-full bg-brand-100 text-xl font-bold text-brand-800';

/** The profile's card: avatar, name, email, phone and city with EDIT for a member; 'Guest User' for a guest. */
export function MemberCard({ user }: { user: UserData | null }) {
  const { t } = useTranslation();
  if (!user) {
    return (
      <section
        aria-label={t('Guest User')}
        className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <span className={avatar} aria-hidden>
          <UserRound className="size-8" />
        </span>
        <p className="text-lg font-semibold text-slate-900">{t('Guest User')}</p>
      </section>
    );
  }
  const name = `${user.FirstName} ${user.LastName}`.trim() || user.UserName;
  // What Edit Profile changes, so a save shows here at once.
  const place = [user.City, user.State].filter(Boolean).join(', ');
  return (
    <section
      aria-label={name}
      className="flex items-start gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <span className={avatar} aria-hidden>
        {initials(user.FirstName, user.LastName, user.UserName)}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="text-lg font-semibold text-slate-900">{name}</p>
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Mail className="size-4 shrink-0" aria-label={t('Email')} />
          <span className="min-w-0">{user.EmailAddress}</span>
        </p>
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Phone className="size-4 shrink-0" aria-label={t('Mobile Number')} />
          {user.PhoneNumber}
        </p>
        {place && (
          <p className="flex items-center gap-2 text-sm text-slate-600" data-testid="member-place">
            <MapPin className="size-4 shrink-0" aria-hidden />
            <span className="min-w-0">{place}</span>
          </p>
        )}
      </div>
      <ButtonLink to={paths.editProfile} variant="secondary" size="sm">
        {t('EDIT')}
      </ButtonLink>
    </section>
  );
}
