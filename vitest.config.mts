import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Provides the Pulumi CLI (building it once per machine if needed); fails the run if it cannot.
    globalSetup: ["test/globalSetup.ts"],
    // Fails a test during which an emulator started by startTestEmulator gave a v2 answer outside
    // the described v2 wire (test/support/v2Corpus.ts). Gives each test file a directory of its own
    // for what the package remembers between processes (test/support/cacheDirSetup.ts).
    setupFiles: ["test/support/v2CorpusSetup.ts", "test/support/cacheDirSetup.ts"],
    reporters: ["default", "./test/support/summaryReporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores on the reference machine: engine tests each start a CLI and provider processes.
    maxWorkers: 2,
    pool: "forks",
    // Every emulator the suite starts (in process, as a CLI, under Pulumi) pages its v2 lists two
    // items at a time, so that every list read of the client and provider crosses pages.
    env: { GPUCLOUD_EMULATOR_PAGE_SIZE: "2" },
  },
});
