// getBilling on the v2 API: the endpoints' history is /billing/serverless (never /billing/endpoints),
// records carry v1's time and amount beside v2's components, and v1-only filters are refused.
import { afterEach, describe, expect, it } from "vitest";
import { BillingQueryError, getBilling } from "../../sdk/billing";
import { json, startScriptedServer, type ScriptedServer } from "../support/scriptedServer";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const window = { startTime: "2026-11-01T00:00:00Z", endTime: "2026-11-02T00:00:00Z" };

describe("getBilling on v2", () => {
  it("reads the endpoints' history from /billing/serverless, filtered by serverlessId", async () => {
    server = await startScriptedServer(
      json(200, {
        records: [{ ...window, serverlessId: "e1", totalAmount: 1.5, gpuAmount: 1.2, cpuAmount: 0, diskAmount: 0.1, feeAmount: 0.2 }],
        metadata: { recordCount: 1 },
      }),
    );
    const result = await getBilling(
      { kind: "endpoints", endpointId: "e1", bucketSize: "day", startTime: window.startTime },
      { apiUrl: `${server.origin}/api/v2`, apiKey: "k" },
    );
    const url = new URL(server.requests[0]?.url ?? "", server.origin);
    expect(url.pathname).toBe("/api/v2/billing/serverless");
    expect(Object.fromEntries(url.searchParams)).toEqual({ serverlessId: "e1", bucketSize: "day", startTime: "2026-11-01T00:00:00.000Z" });
    expect(result.totalAmount).toBe(1.5);
    expect(result.records[0]).toMatchObject({
      time: window.startTime,
      amount: 1.5,
      endpointId: "e1",
      feeAmount: 0.2,
      endTime: window.endTime,
    });
  });

  it("network volumes' records name the high-performance share as v1 does", async () => {
    server = await startScriptedServer(
      json(200, { records: [{ ...window, networkVolumeId: "v1", totalAmount: 3, standardAmount: 1, highPerformanceAmount: 2 }] }),
    );
    const result = await getBilling({ kind: "networkvolumes" }, { apiUrl: `${server.origin}/v2`, apiKey: "k" });
    expect(new URL(server.requests[0]?.url ?? "", server.origin).pathname).toBe("/v2/billing/network-volumes");
    expect(result.records[0]).toMatchObject({ amount: 3, highPerformanceStorageAmount: 2, standardAmount: 1 });
  });

  it("refuses filters and groupings v2 does not have, before any request", async () => {
    server = await startScriptedServer(json(200, { records: [] }));
    const error = await getBilling(
      { kind: "pods", grouping: "podId", gpuTypeId: "NVIDIA L4" },
      { apiUrl: `${server.origin}/v2`, apiKey: "k" },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingQueryError);
    expect((error as Error).message).toMatch(/grouping "podId", gpuTypeId "NVIDIA L4": the service's v2 API has no such filter.*remove it/);
    expect(server.requests).toEqual([]);
  });
});
