import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommands } from '../testing/run.ts';
import { historyCommand } from './history.ts';
import { controllerCommand, providerCommand } from './install.ts';
import { pauseCommand, resumeCommand } from './pause.ts';
import { retryCommand } from './retry.ts';
import { runCommand } from './run.ts';
import { statusCommand } from './status.ts';

function cli(argv: string[]) {
  return runCommands(argv, [runCommand, statusCommand, historyCommand, retryCommand, pauseCommand, resumeCommand, controllerCommand, providerCommand]);
}

describe('operator commands: arguments', () => {
  it('are listed in the help', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const name of ['run', 'status', 'history', 'retry', 'pause', 'resume', 'controller', 'provider']) expect(stdout).toMatch(new RegExp(`\\n  ${name} `));
  });

  it('document the connection flags with their defaults and environment variables', async () => {
    const { stdout } = await cli(['history', '--help']);
    expect(stdout).toContain('--temporal-address <host:port>');
    expect(stdout).toContain('"127.0.0.1:7233", env: TEMPORAL_ADDRESS');
    expect(stdout).toContain('--temporal-ui <url>');
    expect(stdout).toContain('--kubeconfig <path>');
    expect(stdout).toContain('-o, --output <format>');
  });

  it('need a target where one is required', async () => {
    for (const command of ['history', 'retry', 'pause', 'resume']) {
      const { code, stderr } = await cli([command]);
      expect(code).toBe(1);
      expect(stderr).toBe("error: missing required argument 'target'\n");
    }
  });

  it('reject an unknown output format and extra arguments', async () => {
    expect((await cli(['status', '-o', 'xml'])).stderr).toBe("error: option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are table, json, yaml.\n");
    const extra = await cli(['history', 'a/b', 'c/d']);
    expect(extra.code).toBe(1);
    expect(extra.stderr).toContain('too many arguments');
  });

  it('check their own values before touching the cluster, in one sentence', async () => {
    expect(await cli(['history', 'a/b', '--runs', '0'])).toMatchObject({ code: 1, stderr: "error: --runs must be a whole number of at least 1, got '0'.\n" });
    expect(await cli(['retry', 'a/b', '--timeout', 'soon'])).toMatchObject({ code: 1, stderr: "error: --timeout takes a duration such as 30s or 2m, got 'soon'.\n" });
    expect(await cli(['pause', 'a/b/c/d'])).toMatchObject({ code: 1, stderr: "error: Expected KIND/NAMESPACE/NAME, NAMESPACE/NAME or NAME, got 'a/b/c/d'.\n" });
    expect(await cli(['run', '--providers', 'kaito,acme'])).toMatchObject({ code: 1, stderr: "error: Unknown provider 'acme': the built-in providers are deployment, dynamo, kaito, kuberay.\n" });
    expect(await cli(['run', '--enable-provider-selector=maybe'])).toMatchObject({ code: 1, stderr: "error: Expected true or false, got 'maybe'.\n" });
    expect(await cli(['run', '--metrics-port', 'x'])).toMatchObject({ code: 1, stderr: "error: --metrics-port takes a port number from 0 to 65535, got 'x'.\n" });
    expect(await cli(['provider', 'install', 'acme'])).toMatchObject({ code: 1, stderr: expect.stringContaining("error: Unknown provider 'acme'") });
    expect((await cli(['controller', 'install', '--dry-run=maybe'])).stderr).toContain("argument 'maybe' is invalid. Allowed choices are none, server, client.");
  });

  it('say which kubeconfig they cannot load', async () => {
    const { code, stderr } = await cli(['status', '--kubeconfig', '/nonexistent/kubeconfig']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: Cannot load the kubeconfig \/nonexistent\/kubeconfig: ENOENT[^\n]*\.\n$/);
  });
});

describe('operator commands: loading', () => {
  // The offline commands share the program with these; registering them must not load the Kubernetes
  // or Temporal clients (each action imports its implementation when it runs).
  // The kinds' flags of `run` come from their registrations, which are as light (status-imports.test.ts).
  const LIGHT = new Set(['commander', '../program.ts', '../operator/command.ts', '../operator/connection-options.ts', '../operator/output.ts', '../../kinds/run-flags.ts']);
  const valueImports = (file: string) =>
    [...readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*? from '([^']+)';/gm)].map((m) => m[1]!);

  for (const name of ['run', 'status', 'history', 'retry', 'pause', 'install']) {
    it(`${name}.ts imports only light modules at load time`, () => {
      expect(valueImports(join(import.meta.dirname, `${name}.ts`)).filter((m) => !LIGHT.has(m))).toEqual([]);
    });
  }

  it("the shared option modules import only commander, yaml and Node's own modules", () => {
    for (const file of ['command.ts', 'connection-options.ts', 'output.ts']) {
      const imports = valueImports(join(import.meta.dirname, '..', 'operator', file)).filter((m) => !['commander', 'yaml', '../program.ts'].includes(m) && !m.startsWith('node:'));
      expect(imports, file).toEqual([]);
    }
  });
});
