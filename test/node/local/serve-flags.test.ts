// serve's flags: defaults, both spellings, and the refusal of an --auth-token flag.
import { describe, expect, it } from "vitest";
import { DEFAULT_HOST, DEFAULT_PORT, parseServeArgs } from "../../../local-stdio/src/commands/serve.js";
import { UsageError } from "../../../local-stdio/src/flags.js";

describe("parseServeArgs", () => {
  it("defaults to stdio, port 3100 and 127.0.0.1", () => {
    expect(parseServeArgs([])).toEqual({
      transport: "stdio",
      port: 3100,
      host: "127.0.0.1",
      identityPath: null,
      toolsPath: null,
      direct: false,
      selfTest: false,
      configPath: null,
      dataDirFlag: undefined,
      embedder: undefined,
      metricsPort: null,
    });
    expect([DEFAULT_PORT, DEFAULT_HOST]).toEqual([3100, "127.0.0.1"]);
  });

  it("reads every flag, as --name value or --name=value", () => {
    expect(
      parseServeArgs([
        "--serve-transport=http", "--serve-port", "8080", "--serve-host=0.0.0.0", "--identity", "m.md", "--tools=t.js",
        "--direct", "--self-test", "--config", "c.json", "--data-dir", "d", "--embedder=local",
        "--metrics-port", "9464",
      ]),
    ).toEqual({
      transport: "http",
      port: 8080,
      host: "0.0.0.0",
      identityPath: "m.md",
      toolsPath: "t.js",
      direct: true,
      selfTest: true,
      configPath: "c.json",
      dataDirFlag: "d",
      embedder: "local",
      metricsPort: 9464,
    });
  });

  it.each([
    [["--auth-token", "x"], /config file only/],
    [["--serve-port", "3.5"], /--serve-port must be a whole number/],
    [["--metrics-port", "70000"], /--metrics-port must be a whole number from 0 to 65535/],
    [["--serve-port", "-1"], /--serve-port must be a whole number|--serve-port needs a value/],
    [["--direct=yes"], /--direct takes no value/],
    [["--identity", "a", "--identity", "b"], /--identity is given more than once/],
    [["stray"], /unexpected argument "stray"/],
    [["--embedder", "workers-ai"], /--embedder must be "local" or "ollama", got "workers-ai"/],
  ])("refuses %j with a UsageError (exit 2)", (argv, message) => {
    expect(() => parseServeArgs(argv)).toThrow(UsageError);
    expect(() => parseServeArgs(argv)).toThrow(message);
  });
});
