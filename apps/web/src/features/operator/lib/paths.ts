import { paths } from '../../../config/paths.ts';

/** The console's sections: one path each under /operator/{operatorId}/. */
export type ConsoleSection = 'dashboard' | 'reports' | 'people' | 'prices' | 'audit';

export const operatorPath = (operatorId: number, section: ConsoleSection) =>
  `${paths.operator}/${operatorId}/${section}`;
