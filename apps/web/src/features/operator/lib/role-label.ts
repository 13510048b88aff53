import type { OperatorRole } from '@parkit/contract';
import type { TFunction } from '../../../lib/i18n.ts';

/** A role as the console names it (translated). */
export function roleLabel(t: TFunction, role: OperatorRole): string {
  const labels: Record<OperatorRole, string> = {
    owner: t('Owner'),
    manager: t('Manager'),
    officer: t('Officer'),
    analyst: t('Analyst'),
  };
  return labels[role];
}
