import { describe, expect, test } from "vitest";
import { USAGE, UsageError, parseCliArgs } from "../../emulator/cliArgs";

describe("gpucloud-emulator flags", () => {
  test("defaults: 127.0.0.1:8787, generated key, memory only", () => {
    const parsed = parseCliArgs([], "/work");
    expect(parsed).toEqual({
      help: false,
      options: {
        host: "127.0.0.1",
        port: 8787,
        timeScale: undefined,
        bootDelayMs: undefined,
        statePath: undefined,
        handlers: {},
        publicEndpoints: {},
      },
    });
  });

  test("every flag", () => {
    const parsed = parseCliArgs(
      [
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--api-key",
        "k1",
        "--api-key",
        "k2",
        "--state",
        "data/state.json",
        "--time-scale",
        "0.5",
        "--boot-delay-ms",
        "100",
        "--handler",
        "example/echo:1=./handlers/echo.js",
        "--public-endpoint",
        "hello=example/hello:1",
      ],
      "/work",
    );
    expect(parsed).toEqual({
      help: false,
      options: {
        host: "0.0.0.0",
        port: 0,
        apiKeys: ["k1", "k2"],
        statePath: "/work/data/state.json",
        timeScale: 0.5,
        bootDelayMs: 100,
        handlers: { "example/echo:1": "/work/handlers/echo.js" },
        publicEndpoints: { hello: "example/hello:1" },
      },
    });
    expect(parseCliArgs(["-h"])).toEqual({ help: true });
  });

  test.each([
    [["--port", "99999"], "--port"],
    [["--port", "eighty"], "--port"],
    [["--time-scale", "0"], "--time-scale"],
    [["--time-scale", "-1"], "--time-scale"],
    [["--handler", "no-equals-sign"], "--handler"],
    [["--public-endpoint", "=image"], "--public-endpoint"],
    [["--bogus"], "bogus"],
    [["positional"], "positional"],
    [["--port"], "port"],
  ])("bad flags are a UsageError naming the flag: %j", (argv, flag) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(flag);
  });

  test("usage lists every flag", () => {
    for (const flag of ["--host", "--port", "--api-key", "--state", "--time-scale", "--handler", "--public-endpoint"])
      expect(USAGE).toContain(flag);
  });
});
