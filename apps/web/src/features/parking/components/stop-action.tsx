import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button, type Size } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';

/**
 * The Stop button and its "Stop parking?" question: a member's session and a Quick Park one ask
 * the same; `description` says where the refund goes, `stop` is the mutation `onStop` runs.
 */
export function StopAction({
  size,
  description,
  stop,
  onStop,
}: {
  size?: Size;
  description: string;
  stop: { error: unknown; isPending: boolean };
  onStop: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button block variant="secondary" size={size} onClick={() => setOpen(true)}>
        {t('Stop')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={t('Stop parking?')} description={description}>
        <ErrorLine error={stop.error} fallback={t('The session could not be stopped.')} />
        <Button variant="danger" loading={stop.isPending} onClick={onStop}>
          {t('Yes, stop')}
        </Button>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          {t('NO')}
        </Button>
      </Dialog>
    </>
  );
}
