import { paths } from '../../../config/paths.ts';

/** The console's sections: one path each under /operator/{operatorId}/. */
export type ConsoleSection =
  | 'dashboard'
  | 'zones'
  | 'prices'
  | 'sessions'
  | 'citations'
  | 'permits'
  | 'reports'
  | 'settlement'
  | 'people'
  | 'audit'
  | 'keys';

export const operatorPath = (operatorId: number, section: ConsoleSection) =>
  `${paths.operator}/${operatorId}/${section}`;

/** A zone's editor: /operator/{operatorId}/zones/{zoneId}, /zones/new for a new one; /zones/import. */
export const zonePath = (operatorId: number, zoneId: number | 'new' | 'import') =>
  `${operatorPath(operatorId, 'zones')}/${zoneId}`;
