import { ConsoleShell } from '../../features/operator/components/console-shell.tsx';

/** The operator's console (/operator): the shell; its sections are child routes. */
export function Component() {
  return <ConsoleShell />;
}
