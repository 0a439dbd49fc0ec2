/**
 * The endpoint type on the wire, through ManagementClient against a scripted port-0 server: the
 * v1 API has no `type` field, so LOAD_BALANCER travels as a " -lb" suffix of the service-side name.
 * Creates add it (and never send `type`), reads take it off, renames keep it, QUEUE is untouched.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ManagementClient } from "../../client/management";
import { json, startScriptedServer, type RecordedRequest, type ScriptedServer, type Step } from "../support/scriptedServer";

const KEY = "endpoint-type-key-SECRET-9";

let server: ScriptedServer | undefined;
let client: ManagementClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(steps: Step[] | Step) {
  server = await startScriptedServer(steps);
  client = new ManagementClient({ baseUrl: `${server.origin}/v1`, apiKey: KEY, maxRetries: 0, sleep: async () => undefined });
  return { server, client };
}

const bodyOf = (r: RecordedRequest | undefined): Record<string, unknown> => JSON.parse(r?.body ?? "null") as Record<string, unknown>;
const line = (r: RecordedRequest): string => `${r.method} ${r.url}`;

/** Answers as the service would: the name as it was sent (marker included), no type field. */
const echoEndpoint =
  (id: string, extra: Record<string, unknown> = {}): Step =>
  (req, res) => {
    const body = req.body === "" ? {} : (JSON.parse(req.body) as Record<string, unknown>);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, workersMin: 0, workersMax: 1, ...extra, ...body }));
  };

describe("createEndpoint with a type", () => {
  it("LOAD_BALANCER sends the name with ' -lb' and no `type` key; the answer reads back stripped", async () => {
    const { server, client } = await setup(echoEndpoint("ep-lb"));
    const created = await client.createEndpoint({
      templateId: "tpl1",
      name: "chat",
      type: "LOAD_BALANCER",
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      workersMin: 1,
      workersMax: 3,
    });
    expect(server.requests.map(line)).toEqual(["POST /v1/endpoints"]);
    const sent = bodyOf(server.requests[0]);
    expect(sent).toEqual({
      templateId: "tpl1",
      name: "chat -lb",
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      workersMin: 1,
      workersMax: 3,
    });
    expect(Object.keys(sent)).not.toContain("type");
    expect(created).toMatchObject({ id: "ep-lb", name: "chat", type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT" });
  });

  it("LOAD_BALANCER without a name still carries the marker (on a default name)", async () => {
    const { server, client } = await setup(echoEndpoint("ep-anon"));
    const created = await client.createEndpoint({ templateId: "tpl1", type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT" });
    const sent = bodyOf(server.requests[0]);
    expect(typeof sent["name"]).toBe("string");
    expect(String(sent["name"]).endsWith(" -lb")).toBe(true);
    expect(sent).not.toHaveProperty("type");
    expect(created.type).toBe("LOAD_BALANCER");
    expect(created.name?.endsWith(" -lb")).toBe(false);
  });

  it("QUEUE (given or by default) sends the name untouched and no `type`; the answer is QUEUE", async () => {
    const { server, client } = await setup(echoEndpoint("ep-q"));
    const explicit = await client.createEndpoint({ templateId: "tpl1", name: "batch", type: "QUEUE" });
    const implicit = await client.createEndpoint({ templateId: "tpl1", name: "batch-lb" });
    const unnamed = await client.createEndpoint({ templateId: "tpl1" });
    expect(server.requests.map(bodyOf)).toEqual([
      { templateId: "tpl1", name: "batch" },
      { templateId: "tpl1", name: "batch-lb" },
      { templateId: "tpl1" },
    ]);
    expect([explicit, implicit, unnamed].map((e) => [e.name, e.type])).toEqual([
      ["batch", "QUEUE"],
      ["batch-lb", "QUEUE"],
      [undefined, "QUEUE"],
    ]);
  });
});

describe("reads strip the marker", () => {
  it("getEndpoint and listEndpoints give the user's name and the type", async () => {
    const { server, client } = await setup([
      json(200, { id: "a", name: "chat -lb", workersMin: 1 }),
      json(200, [
        { id: "a", name: "chat -lb" },
        { id: "b", name: "batch" },
      ]),
    ]);
    expect(await client.getEndpoint("a", { includeWorkers: true })).toMatchObject({
      id: "a",
      name: "chat",
      type: "LOAD_BALANCER",
      workersMin: 1,
    });
    const list = await client.listEndpoints();
    expect(list.map((e) => [e.id, e.name, e.type])).toEqual([
      ["a", "chat", "LOAD_BALANCER"],
      ["b", "batch", "QUEUE"],
    ]);
    expect(server.requests.map(line)).toEqual(["GET /v1/endpoints/a?includeWorkers=true", "GET /v1/endpoints"]);
  });
});

describe("updateEndpoint keeps the marker on a rename", () => {
  it("a new name with type LOAD_BALANCER is sent with ' -lb', without reading first, and no `type` key", async () => {
    const { server, client } = await setup(echoEndpoint("ep-lb"));
    const updated = await client.updateEndpoint("ep-lb", { name: "chat-v2", workersMax: 4, type: "LOAD_BALANCER" });
    expect(server.requests.map(line)).toEqual(["PATCH /v1/endpoints/ep-lb"]);
    expect(bodyOf(server.requests[0])).toEqual({ name: "chat-v2 -lb", workersMax: 4 });
    expect(updated).toMatchObject({ name: "chat-v2", type: "LOAD_BALANCER", workersMax: 4 });
  });

  it("a new name without a type GETs the endpoint first and keeps its marker", async () => {
    const { server, client } = await setup([json(200, { id: "ep-lb", name: "chat -lb" }), echoEndpoint("ep-lb")]);
    const updated = await client.updateEndpoint("ep-lb", { name: "chat-v2" });
    expect(server.requests.map(line)).toEqual(["GET /v1/endpoints/ep-lb", "PATCH /v1/endpoints/ep-lb"]);
    expect(bodyOf(server.requests[1])).toEqual({ name: "chat-v2 -lb" });
    expect(updated).toMatchObject({ name: "chat-v2", type: "LOAD_BALANCER" });
  });

  it("a new name without a type on a QUEUE endpoint GETs first and sends the name untouched", async () => {
    const { server, client } = await setup([json(200, { id: "ep-q", name: "batch" }), echoEndpoint("ep-q")]);
    const updated = await client.updateEndpoint("ep-q", { name: "batch-v2" });
    expect(server.requests.map(line)).toEqual(["GET /v1/endpoints/ep-q", "PATCH /v1/endpoints/ep-q"]);
    expect(bodyOf(server.requests[1])).toEqual({ name: "batch-v2" });
    expect(updated).toMatchObject({ name: "batch-v2", type: "QUEUE" });
  });

  it("type QUEUE given: a rename sends the name untouched, no GET", async () => {
    const { server, client } = await setup(echoEndpoint("ep-q"));
    await client.updateEndpoint("ep-q", { name: "batch-v2", type: "QUEUE" });
    expect(server.requests.map(line)).toEqual(["PATCH /v1/endpoints/ep-q"]);
    expect(bodyOf(server.requests[0])).toEqual({ name: "batch-v2" });
  });

  it("no rename: neither a GET nor a name is sent, whatever the type", async () => {
    const { server, client } = await setup(echoEndpoint("ep-lb", { name: "chat -lb" }));
    const lb = await client.updateEndpoint("ep-lb", { workersMin: 0, workersMax: 0 });
    const typed = await client.updateEndpoint("ep-lb", { scalerValue: 3, type: "LOAD_BALANCER" });
    expect(server.requests.map(line)).toEqual(["PATCH /v1/endpoints/ep-lb", "PATCH /v1/endpoints/ep-lb"]);
    expect(server.requests.map(bodyOf)).toEqual([{ workersMin: 0, workersMax: 0 }, { scalerValue: 3 }]);
    // The service's answer still carries the marker; the client reads it as the type.
    expect([lb, typed].map((e) => [e.name, e.type])).toEqual([
      ["chat", "LOAD_BALANCER"],
      ["chat", "LOAD_BALANCER"],
    ]);
  });
});
