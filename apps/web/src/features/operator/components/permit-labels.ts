import type { PERMIT_KIND_VALUES, PERMIT_STATUS_VALUES } from '@parkit/contract';
import type { TFunction } from '../../../lib/i18n.ts';

export type PermitKind = (typeof PERMIT_KIND_VALUES)[number];
export type PermitStatus = (typeof PERMIT_STATUS_VALUES)[number];

export const kindLabel = (t: TFunction, k: PermitKind) =>
  ({
    resident: t('Resident'),
    visitor: t('Visitor'),
    business: t('Business'),
    disabled: t('Disabled'),
    ev: t('Electric vehicle'),
  })[k];

export const statusLabel = (t: TFunction, s: PermitStatus) =>
  ({
    pending: t('Pending'),
    approved: t('Approved'),
    refused: t('Refused'),
    active: t('Active'),
    expired: t('Expired'),
  })[s];
