import { HomeScreen } from '../../features/profile/components/home-screen.tsx';
import { useActiveSessions } from '../../features/parking/api/get-active-sessions.ts';
import { ActiveSessions } from '../../features/parking/components/active-sessions.tsx';
import { useSession } from '../../lib/session.ts';

/** /homepage with the member's running sessions; without any, the home screen's empty state. */
export function Component() {
  const { member } = useSession();
  const active = useActiveSessions(member);
  const some = active.isPending || active.isError || (active.data?.Sessions.length ?? 0) > 0;
  return <HomeScreen activeSession={member && some ? <ActiveSessions /> : undefined} />;
}
