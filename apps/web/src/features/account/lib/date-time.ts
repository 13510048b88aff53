import { formatDateLong, formatTime } from '@parkit/contract';

/** Spec section 9: 'DD MMM YYYY, hh:mm A'. */
export const dateTime = (iso: string) => `${formatDateLong(iso)}, ${formatTime(iso)}`;
