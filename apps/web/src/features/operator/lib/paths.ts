import { paths } from '../../../config/paths.ts';

/** The console's sections: one path each under /operator/{operatorId}/. */
export type ConsoleSection = 'people' | 'audit' | 'sessions' | 'settlement';

export const operatorPath = (operatorId: number, section: ConsoleSection) =>
  `${paths.operator}/${operatorId}/${section}`;
