import { formatDateLong, formatTime } from '../../../lib/dates.ts';

/** docs/product.md#formats-and-limits: 'DD MMM YYYY, hh:mm A'. */
export const dateTime = (iso: string) => `${formatDateLong(iso)}, ${formatTime(iso)}`;
