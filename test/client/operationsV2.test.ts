// The v2 operation table: each call goes to the reference's method and path and is named in errors
// by the reference's operationId; array query parameters are one comma-separated value.
import { afterEach, describe, expect, it } from "vitest";
import { ManagementClientV2 } from "../../client/managementV2";
import { OPERATIONS_V2 } from "../../client/operationsV2";
import { json, startScriptedServer, type ScriptedServer } from "../support/scriptedServer";

let server: ScriptedServer | undefined;
let client: ManagementClientV2 | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

async function scripted(...steps: Parameters<typeof startScriptedServer>[0][]) {
  server = await startScriptedServer(steps.flat());
  client = new ManagementClientV2({ baseUrl: `${server.origin}/v2`, apiKey: "k", maxRetries: 0 });
  return { server, client };
}

describe("the v2 operation table", () => {
  it("names every operation as the reference does (operationIds, e.g. listRegistries, not listRegistrys)", () => {
    const ids = Object.keys(OPERATIONS_V2);
    expect(ids).toContain("listRegistries");
    expect(ids).toContain("listNetworkVolumes");
    for (const id of ids) expect(id).toMatch(/^(list|create|get|update|delete|pod)[A-Z]/);
  });

  it("a failed registry list names listRegistries", async () => {
    const { client } = await scripted(json(403, { title: "Forbidden", status: 403, detail: "no" }));
    await expect(client.registries.list()).rejects.toThrow(/^listRegistries failed: 403/);
  });

  it("fills the id into the path and sends the method of the row", async () => {
    const { server, client } = await scripted(json(200, { id: "e 1", name: "x" }), json(204));
    await client.endpoints.update("e 1", { workers: { max: 2 } });
    await client.networkVolumes.delete("v1");
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["PATCH /v2/serverless/e%201", "DELETE /v2/network-volumes/v1"]);
  });

  it("sends array query parameters comma-separated, as the reference describes them", async () => {
    const { server, client } = await scripted(json(200, { gpus: [] }));
    await client.gpuTypes({ include: ["AVAILABILITY"], product: ["POD", "SERVERLESS"] });
    expect(decodeURIComponent(server.requests[0]?.url ?? "")).toBe("/v2/catalog/gpus?include=AVAILABILITY&product=POD,SERVERLESS");
  });
});
