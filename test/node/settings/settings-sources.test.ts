// One rule for where a setting comes from: the environment wins, a config file holds it under its key or its
// environment name, blank environment values are unset, and a bad value names its place and its bounds.
import { describe, expect, it } from "vitest";
import { SETTINGS, type Setting } from "../../../src/settings/catalog.js";
import { configFileKeys, readSetting } from "../../../src/settings/read.js";
import { StartupError } from "../../../src/settings/startup-error.js";

const file = (fields: Record<string, unknown>) => ({ fields, label: "config file /c.json: " });

describe("settings sources", () => {
  it("the environment wins over the file; a blank environment value is unset", () => {
    expect(readSetting("rateLimit", { env: { MOTEBIT_RATE_LIMIT: "7" }, file: file({ rateLimit: 9 }) })).toBe(7);
    expect(readSetting("rateLimit", { env: { MOTEBIT_RATE_LIMIT: " " }, file: file({ rateLimit: 9 }) })).toBe(9);
    expect(readSetting("rateLimit", { env: {} })).toBe(600);
  });

  it("a file holds a setting under its key or its environment name (the latter first)", () => {
    expect(readSetting("taskTimeoutMs", { env: {}, file: file({ taskTimeoutMs: 5000 }) })).toBe(5000);
    expect(readSetting("taskTimeoutMs", { env: {}, file: file({ MOTEBIT_TASK_TIMEOUT_MS: "700", taskTimeoutMs: 5000 }) })).toBe(700);
    expect(readSetting("relayId", { env: {}, file: file({ MOTEBIT_RELAY_ID: "r" }) })).toBe("r");
  });

  it("edge-only settings are never read from a file", () => {
    expect(readSetting("fleetToken", { env: {}, file: file({ MOTEBIT_FLEET_TOKEN: "f" }) })).toBeNull();
    expect(readSetting("fleetToken", { env: { MOTEBIT_FLEET_TOKEN: "f" } })).toBe("f");
    expect(configFileKeys()).not.toContain("MOTEBIT_FLEET_TOKEN");
    expect(configFileKeys()).toEqual(expect.arrayContaining(["relayForwardToken", "MOTEBIT_RELAY_FORWARD_TOKEN", "authToken", "mcpServers"]));
  });

  it("every whole-number setting refuses one past either bound, naming its place and the bounds", () => {
    for (const [name, s] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
      const env = s.env;
      if (s.bounds === undefined || env === null) continue;
      const [min, max] = s.bounds;
      expect(() => readSetting(name as keyof typeof SETTINGS, { env: { [env]: String(max + 1) } })).toThrow(new StartupError(`${env} must be a whole number of ${name === "rateLimit" ? "requests per minute (0 disables)" : "milliseconds"} from ${min} to ${max}, got "${max + 1}"`));
      if (min > 0) expect(() => readSetting(name as keyof typeof SETTINGS, { env: {}, file: file({ [s.key ?? env]: min - 1 }) })).toThrow(/^config file \/c\.json: \S+ must be a whole number/);
      expect(readSetting(name as keyof typeof SETTINGS, { env: { [env]: String(max) } })).toBe(max);
    }
  });

  it("the relay's forward token and the fleet token are text settings like the others", () => {
    expect(readSetting("relayForwardToken", { env: { MOTEBIT_RELAY_FORWARD_TOKEN: " fwd " } })).toBe("fwd");
    expect(() => readSetting("relayForwardToken", { env: {}, file: file({ relayForwardToken: 5 }) })).toThrow("config file /c.json: relayForwardToken must be a non-empty string");
  });
});
