/**
 * The shared start of our npm-run CLIs (zones:import, operator:key): npm keeping the options for
 * itself when `--` is missing, --help, and a refused option printed with the usage. Answers the
 * parsed arguments, or the exit code to end with.
 */
export function cliArgs<T extends object>(opts: {
  argv: string[];
  read: (argv: string[]) => T | 'help' | string;
  usage: string;
  /** The CLI's options as npm names them in npm_config_* when it takes them for itself. */
  npmOptions: string[];
  example: string;
}): T | number {
  if (opts.npmOptions.some((o) => process.env[`npm_config_${o}`] !== undefined)) {
    console.error(`npm took the options for itself: put -- before them, e.g. ${opts.example}`);
    return 1;
  }
  const args = opts.read(opts.argv);
  if (args === 'help') {
    console.log(opts.usage);
    return 0;
  }
  if (typeof args === 'string') {
    console.error(`${args}\n\n${opts.usage}`);
    return 1;
  }
  return args;
}
