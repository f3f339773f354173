import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from './usage.ts';

/** The commands `crm --help` lists: its lines that start a command, two spaces in. */
function commandsOf(usage: string): string[] {
  const commands: string[] = [];
  for (const match of usage.matchAll(/^ {2}([a-z][a-z-]*(?: [a-z][a-z-]*)?)(?= |$)/gm)) {
    commands.push(match[1] ?? '');
  }
  return commands;
}

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const docs = read('../../../README.md') + read('../../../CONTRIBUTING.md');

describe('the commands of the CLI', () => {
  it('are read from its help', () => {
    expect(commandsOf(USAGE)).toEqual([
      'bootstrap',
      'users set-password',
      'keys create',
      'keys list',
      'keys revoke',
      'workspaces set-rate-limit',
      'import',
      'export',
      'config pull',
      'config plan',
      'config apply',
      'migrate',
      'secrets reencrypt',
    ]);
  });

  it('are each named in README or CONTRIBUTING', () => {
    const unnamed = commandsOf(USAGE).filter((command) => !docs.includes(`crm ${command}`));
    expect(unnamed).toEqual([]);
  });
});
