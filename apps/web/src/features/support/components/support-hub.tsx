import ChevronRight from 'lucide-react/icons/chevron-right';
import MessageCircle from 'lucide-react/icons/message-circle';
import PhoneCall from 'lucide-react/icons/phone-call';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { GuestPrompt } from '../../../components/session/guest-prompt.tsx';
import { useSession } from '../../../lib/session.ts';
import { useCallBacks } from '../api/get-callbacks.ts';
import { supportKeys } from '../api/keys.ts';
import { useSupportEvents } from '../hooks/use-support-events.ts';
import { CallBackList } from './callback-list.tsx';

/** Support hub (/supportpage, docs/product.md#screens): the two ways to reach support and open call backs. */
export function SupportHub() {
  const { t } = useTranslation();
  const { member } = useSession();
  const qc = useQueryClient();
  const callBacks = useCallBacks(member);
  // An agent closing a request shows here without a reload.
  useSupportEvents(member ? '/api/Support/Chat/Events' : null, (e) => {
    if (e.type === 'callback' || e.type === 'ready') void qc.invalidateQueries({ queryKey: supportKeys.callBacks });
  });
  if (!member) return <GuestPrompt message={t('Call-back requests and chat need an account.')} />;
  const links = [
    { to: paths.requestCall, label: t('Request call back'), icon: PhoneCall },
    { to: paths.chatSupport, label: t('Support Chat'), icon: MessageCircle },
  ];
  return (
    <div className="flex flex-col gap-6">
      <nav aria-label={t('Support')} className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {links.map(({ to, label, icon: Icon }) => (
          <Link
            key={to}
            to={to}
            className="flex min-h-14 items-center gap-3 border-b border-slate-100 px-4 last:border-b-0 hover:bg-slate-50"
          >
            <Icon className="size-5 text-brand-700" aria-hidden />
            <span className="flex-1 font-medium">{label}</span>
            <ChevronRight className="size-5 text-slate-400" aria-hidden />
          </Link>
        ))}
      </nav>
      <CallBackList query={callBacks} />
    </div>
  );
}
