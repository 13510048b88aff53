import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';

/** "Stop parking?": a member's session and a Quick Park one ask the same; `description` says where the refund goes. */
export function StopDialog({
  open,
  onOpenChange,
  description,
  error,
  pending,
  onStop,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Already translated. */
  description: string;
  error: unknown;
  pending: boolean;
  onStop: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('Stop parking?')} description={description}>
      <ErrorLine error={error} fallback={t('The session could not be stopped.')} />
      <Button variant="danger" loading={pending} onClick={onStop}>
        {t('Yes, stop')}
      </Button>
      <Button variant="secondary" onClick={() => onOpenChange(false)}>
        {t('NO')}
      </Button>
    </Dialog>
  );
}
