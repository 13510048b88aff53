import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import LogOut from 'lucide-react/icons/log-out';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { logout } from '../../../lib/session.ts';
import { unsentChalks, unsentCitations } from '../../../lib/officer-device.ts';

/**
 * Logout and its dialog (docs/product.md#states): NO or close keeps the member signed in; 'Yes, Logout'
 * revokes the refresh token on the server, clears browser storage and opens /parkit. Citations and
 * chalks an officer recorded offline and not yet sent would go with it: the dialog says how many and
 * links to the officer's page to send them first (docs/enforcement.md#logout).
 */
export function LogoutButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [unsent, setUnsent] = useState({ citations: 0, chalks: 0 });

  const openDialog = async () => {
    setUnsent({
      citations: await unsentCitations().catch(() => 0),
      chalks: await unsentChalks().catch(() => 0),
    });
    setOpen(true);
  };

  const confirm = async () => {
    setLeaving(true);
    try {
      // The server revokes the refresh token; storage and the cache are cleared (lib/session.ts).
      await logout();
    } finally {
      void navigate(paths.parkit, { replace: true });
    }
  };

  return (
    <>
      <Button
        variant="secondary"
        block
        onClick={() => void openDialog()}
        className="text-red-700 ring-red-200 hover:bg-red-50"
      >
        <LogOut className="size-4" aria-hidden />
        {t('Logout')}
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => !leaving && setOpen(o)}
        title={t('Logout?')}
        description={t('Are you sure you want to logout?')}
      >
        {(unsent.citations > 0 || unsent.chalks > 0) && (
          <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            {unsent.citations > 0 &&
              `${t('{{count}} citations written on this device are not sent yet: logging out deletes them.', {
                count: unsent.citations,
              })} `}
            {unsent.chalks > 0 &&
              `${t('{{count}} chalks recorded on this device are not sent yet: logging out deletes them.', {
                count: unsent.chalks,
              })} `}
            <Link to={paths.enforcement} className="font-semibold underline">
              {t('Send them first')}
            </Link>
          </p>
        )}
        <Button variant="danger" block loading={leaving} onClick={() => void confirm()}>
          {t('Yes, Logout')}
        </Button>
        <Button variant="secondary" block disabled={leaving} onClick={() => setOpen(false)}>
          {t('NO')}
        </Button>
      </Dialog>
    </>
  );
}
