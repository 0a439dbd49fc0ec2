// A create whose outcome stays unknown (answer lost, and the lookup cannot reach the service either)
// is recorded as a placeholder partial create; the next run replaces the placeholder, and the
// replacement's create adopts what the lost create made, or creates it. Driven here the way the
// engine drives the provider: check(old inputs, news), diff(placeholder id, old outputs, news),
// check({}, news) again for the replacement, create, then delete of the placeholder.
import { describe, expect, it } from "vitest";
import type * as pulumi from "@pulumi/pulumi";
import { makeApiError } from "../../../client/errors";
import type { PodCreateInput, Template, TemplateCreateInput } from "../../../client/schemas";
import { ResourceInitError, isPlaceholderId } from "../../../provider/resources/partialCreate";
import { podProvider, templateProvider } from "../../../provider/resources/registry";
import { FakePods } from "./fakeService";
import { recordingDeps, type FakeApi } from "../../support/recordingDeps";

type Props = Record<string, unknown>;

function unreachable(operation: string) {
  return makeApiError({
    operation,
    method: "GET",
    url: "/x",
    idempotent: true,
    kind: "connect",
    detail: "connect ECONNREFUSED 127.0.0.1:1",
  });
}

/** FakePods whose lists fail while `down` (the service crashed after taking the create). */
function crashingPods() {
  const service = new FakePods();
  service.faults = ["lost-after-create"];
  const base = service.api();
  const state = { down: false, crashOnCreate: true };
  const api: FakeApi = {
    pods: {
      ...base.pods,
      create: (input: PodCreateInput) => {
        // The snapshot list ran before this; every lookup after the lost answer finds the service down.
        if (state.crashOnCreate) state.down = true;
        return base.pods!.create!(input);
      },
      list: async (filter) => {
        if (state.down) throw unreachable("ListPods");
        return base.pods!.list!(filter);
      },
    },
  };
  return { service, api, state };
}

/** A client on which every call fails the test: placeholders must never reach the service. */
function noServiceCalls(): { client: FakeApi; calls: string[] } {
  const calls: string[] = [];
  const part = (name: string) =>
    new Proxy(
      {},
      {
        get:
          (_target, property) =>
          (...args: unknown[]) => {
            calls.push(`${name}.${String(property)} ${JSON.stringify(args)}`);
            throw new Error(`unexpected service call ${name}.${String(property)}`);
          },
      },
    );
  const client = new Proxy({} as FakeApi, { get: (_target, name) => part(String(name)) });
  return { client, calls };
}

async function failedCreate(provider: pulumi.dynamic.ResourceProvider, news: Props): Promise<{ init: ResourceInitError; inputs: Props }> {
  const inputs = (await provider.check!({}, news)).inputs ?? news;
  const error = await provider.create(inputs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceInitError);
  return { init: error as ResourceInitError, inputs };
}

/** The next `pulumi up` for a resource recorded as a placeholder, call by call as the engine makes them. */
async function nextUp(provider: pulumi.dynamic.ResourceProvider, placeholder: { init: ResourceInitError; inputs: Props }, news: Props) {
  const checked = await provider.check!(placeholder.inputs, news);
  expect(checked.failures ?? []).toEqual([]);
  const diff = await provider.diff!(placeholder.init.id, placeholder.init.properties, checked.inputs ?? news);
  // A replacement: the engine checks again without the old state, creates, then deletes the old entry.
  const replacementInputs = (await provider.check!({}, news)).inputs ?? news;
  const created = await provider.create(replacementInputs);
  await provider.delete!(placeholder.init.id, placeholder.init.properties);
  return { diff, replacementInputs, created };
}

describe("a create whose answer is lost while the service is unreachable", () => {
  it("is recorded as a partial create under a placeholder id, with the inputs and the record of the attempt", async () => {
    const { service, api } = crashingPods();
    service.faults = [];
    await service.api().pods!.create!({ name: "rec", imageName: "img:1" }); // a look-alike from before
    service.faults = ["lost-after-create"];
    const deps = recordingDeps(api);
    const { init, inputs } = await failedCreate(podProvider(deps), {
      name: "rec",
      imageName: "img:1",
      ports: ["22/tcp"],
      __provider: "shim-text",
    });
    expect(init.id).toMatch(/^pending-create-pod-[0-9a-f]{12}$/);
    expect(isPlaceholderId(init.id)).toBe(true);
    expect(init.properties).toEqual({
      name: "rec",
      imageName: "img:1",
      ports: ["22/tcp"],
      __provider: "shim-text",
      pendingCreate: { startedAt: "1970-01-01T00:00:00.000Z", matchedBefore: ["pod1"] },
    });
    expect(init.reasons[0]).toMatch(
      /^pod "rec": the create sent at 1970-01-01T00:00:00.000Z may or may not have been made: CreatePod failed: connection lost .*socket hang up; looking for the pod failed: ListPods failed: could not connect.* It was not sent again\./,
    );
    expect(init.reasons[0]).toContain(
      `placeholder id ${init.id}): the next \`pulumi up\` looks for the pod again and adopts it if the service made it; it creates one only once the earlier create can no longer land`,
    );
    // The inputs never carry the record: check refuses nothing and adds nothing.
    expect(inputs).not.toHaveProperty("pendingCreate");
    expect(service.pods.size).toBe(2);
  });

  it("a lookup that answers keeps the old behaviour: no placeholder, the created pod is used", async () => {
    const { service, api, state } = crashingPods();
    state.crashOnCreate = false;
    service.faults = ["lost-after-create"];
    const created = await podProvider(recordingDeps(api)).create({ name: "plain", imageName: "img:1" });
    expect(isPlaceholderId(created.id)).toBe(false);
    expect(service.pods.size).toBe(1);
  });

  it("a refused create (not ambiguous) is a plain error, not a placeholder", async () => {
    const deps = recordingDeps({
      pods: {
        list: async () => [],
        create: async () => {
          throw makeApiError({
            operation: "CreatePod",
            method: "POST",
            url: "/pods",
            idempotent: false,
            status: 400,
            serviceMessage: "bad gpu",
          });
        },
      },
    });
    const error = await podProvider(deps)
      .create({ name: "refused", imageName: "img:1" })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ResourceInitError);
    expect(String(error)).toContain("400 Bad Request: bad gpu");
  });
});

describe("the next up", () => {
  it("diff of a placeholder asks for a replacement, created before the placeholder is deleted", async () => {
    const deps = recordingDeps(noServiceCalls().client);
    const diff = await podProvider(deps).diff!(
      "pending-create-pod-0123456789ab",
      { name: "d", pendingCreate: { startedAt: "t", matchedBefore: [] } },
      { name: "d", imageName: "i" },
    );
    expect(diff).toEqual({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
    // Templates are uniquely named (a same-name replacement normally deletes first): not for a placeholder.
    const template = await templateProvider(deps).diff!(
      "pending-create-template-0123456789ab",
      { name: "t", pendingCreate: { startedAt: "t", matchedBefore: [] } },
      { name: "t", imageName: "i" },
    );
    expect(template).toEqual({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
  });

  it("a record next to a real id is ignored: the diff is the ordinary one (no replacement of a real resource)", async () => {
    const deps = recordingDeps(noServiceCalls().client);
    const diff = await podProvider(deps).diff!(
      "pod9",
      { name: "r", imageName: "i", pendingCreate: { startedAt: "t", matchedBefore: [] } },
      { name: "r", imageName: "i" },
    );
    expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("adopts the one pod the lost create made (nothing lost, nothing duplicated), and waits for it like a create", async () => {
    const { service, api, state } = crashingPods();
    service.faults = [];
    await service.api().pods!.create!({ name: "adopt", imageName: "img:1" });
    service.faults = ["lost-after-create"];
    const provider = podProvider(recordingDeps(api));
    const news = { name: "adopt", imageName: "img:1", __provider: "shim-text" };
    const placeholder = await failedCreate(provider, news);
    const lost = [...service.pods.keys()][1];
    expect(lost).toBe("pod2");

    state.down = false;
    state.crashOnCreate = false;
    service.calls.length = 0;
    const deps = recordingDeps(api);
    const { diff, replacementInputs, created } = await nextUp(podProvider(deps), placeholder, news);
    expect(diff.replaces).toEqual(["name"]);
    expect(replacementInputs).not.toHaveProperty("pendingCreate");
    expect(created.id).toBe(lost);
    expect(service.calls).not.toContain("createPod");
    expect(service.pods.size).toBe(2);
    expect(created.outs).not.toHaveProperty("pendingCreate");
    expect(created.outs?.["publicIp"]).toBe("100.64.0.9");
    expect(deps.lines.info.join("\n")).toContain(
      `pod "adopt": an earlier, interrupted create of it did reach the service: adopting the pod it made (id ${lost})`,
    );
    // The placeholder's delete ends the replacement: no service call, no warning.
    expect(service.calls.filter((c) => c.startsWith("deletePod"))).toEqual([]);
    expect(deps.lines.warn).toEqual([]);
    expect(deps.lines.info.join("\n")).toContain(`removed the pending-create record ${placeholder.init.id}`);
  });

  it("creates the pod when the lost create never happened", async () => {
    const { service, api, state } = crashingPods();
    service.faults = ["5xx-before-create"];
    const provider = podProvider(recordingDeps(api));
    const news = { name: "never", imageName: "img:1", __provider: "shim-text" };
    const placeholder = await failedCreate(provider, news);
    expect(service.pods.size).toBe(0);

    state.down = false;
    state.crashOnCreate = false;
    const deps = recordingDeps(api);
    const { created } = await nextUp(podProvider(deps), placeholder, news);
    expect([...service.pods.keys()]).toEqual([created.id]);
    // Not created blindly: looked for until the earlier create could no longer land.
    expect(deps.lines.info.join("\n")).toContain('pod "never": an earlier create of it may still land: looking for it until');
    expect(deps.lines.info.join("\n")).toContain('pod "never": the earlier create of it never reached the service: creating it now');
  });

  it("refuses to guess when two new look-alikes exist, and creates nothing", async () => {
    const { service, api, state } = crashingPods();
    const provider = podProvider(recordingDeps(api));
    const news = { name: "two", imageName: "img:1", __provider: "shim-text" };
    const placeholder = await failedCreate(provider, news);
    await service.api().pods!.create!({ name: "two", imageName: "img:1" }); // someone else's, meanwhile

    state.down = false;
    state.crashOnCreate = false;
    service.calls.length = 0;
    const engineProvider = podProvider(recordingDeps(api));
    await engineProvider.diff!(placeholder.init.id, placeholder.init.properties, news);
    const inputs = (await engineProvider.check!({}, news)).inputs ?? news;
    await expect(engineProvider.create(inputs)).rejects.toThrow(
      /pod "two": 2 pods have appeared since an earlier create of it was sent \(pod1, pod2\); cannot tell which one is this resource, so nothing was created/,
    );
    expect(service.calls).not.toContain("createPod");
    expect(service.pods.size).toBe(2);
  });

  it("a create with other inputs does not take another placeholder's record", async () => {
    const { service, api, state } = crashingPods();
    const provider = podProvider(recordingDeps(api));
    const news = { name: "mine", imageName: "img:1", __provider: "shim-text" };
    const placeholder = await failedCreate(provider, news);
    state.down = false;
    state.crashOnCreate = false;
    const engineProvider = podProvider(recordingDeps(api));
    await engineProvider.diff!(placeholder.init.id, placeholder.init.properties, news);
    // Another resource, same name, another image: an ordinary create (it is not the lost one's look-alike).
    const other = await engineProvider.create({ name: "mine", imageName: "img:2" });
    expect(other.id).not.toBe("pod1");
    // The placeholder's own replacement still finds its record and adopts the lost pod.
    const inputs = (await engineProvider.check!({}, news)).inputs ?? news;
    expect((await engineProvider.create(inputs)).id).toBe("pod1");
    expect(service.pods.size).toBe(2);
  });
});

describe("placeholders never reach the service", () => {
  const props = {
    name: "ghost",
    imageName: "img:1",
    __provider: "shim-text",
    pendingCreate: { startedAt: "2024-07-01T00:00:00.000Z", matchedBefore: ["pod7"] },
  };

  it("delete of a placeholder calls nothing and, outside a replacement, says what may be left behind", async () => {
    const { client, calls } = noServiceCalls();
    const deps = recordingDeps(client);
    await expect(podProvider(deps).delete!("pending-create-pod-aaaaaaaaaaaa", props)).resolves.toBeUndefined();
    expect(calls).toEqual([]);
    expect(deps.lines.warn.join("\n")).toMatch(
      /pod "ghost": removing the record pending-create-pod-aaaaaaaaaaaa of a create whose outcome was never resolved \(sent at 2024-07-01T00:00:00.000Z\) without calling the service\. If the service did create it, that pod still exists outside the stack \(it is none of pod7\)/,
    );
  });

  it("read (refresh) of a placeholder keeps it as it is", async () => {
    const { client, calls } = noServiceCalls();
    const result = await podProvider(recordingDeps(client)).read!("pending-create-pod-bbbbbbbbbbbb", props);
    expect(result).toEqual({ id: "pending-create-pod-bbbbbbbbbbbb", props });
    expect(calls).toEqual([]);
  });
});

/** Templates: unique names, and a template the service shows in lists only after a while. */
class FakeTemplates {
  readonly templates = new Map<string, Template>();
  /** Ids the list does not show yet (a create visible late). */
  readonly hidden = new Set<string>();
  readonly calls: string[] = [];
  down = false;
  loseNextAnswer = false;
  private seq = 0;

  api(): FakeApi {
    return {
      templates: {
        list: async () => {
          this.calls.push("listTemplates");
          if (this.down) throw unreachable("ListTemplates");
          return [...this.templates.values()].filter((t) => !this.hidden.has(t.id)).map((t) => ({ ...t }));
        },
        get: async (id: string) => {
          const t = this.templates.get(id);
          if (!t) throw makeApiError({ operation: "GetTemplate", method: "GET", url: "/x", idempotent: true, status: 404 });
          return { ...t };
        },
        update: async (id: string, input) => {
          this.calls.push(`updateTemplate ${JSON.stringify(input)}`);
          const t = this.templates.get(id);
          if (!t) throw makeApiError({ operation: "UpdateTemplate", method: "PATCH", url: "/x", idempotent: false, status: 404 });
          Object.assign(t, input);
          return { ...t };
        },
        create: (input: TemplateCreateInput) => {
          const attempt = async () => {
            this.calls.push("createTemplate");
            // A template created by an earlier, lost create shows up in lists by now.
            this.hidden.clear();
            if ([...this.templates.values()].some((t) => t.name === input.name)) {
              throw makeApiError({
                operation: "CreateTemplate",
                method: "POST",
                url: "/templates",
                idempotent: false,
                status: 409,
                serviceMessage: "template name already taken",
              });
            }
            const t: Template = { id: `tpl${++this.seq}`, name: input.name, imageName: input.imageName };
            this.templates.set(t.id, t);
            if (this.loseNextAnswer) {
              this.loseNextAnswer = false;
              this.down = true;
              throw makeApiError({
                operation: "CreateTemplate",
                method: "POST",
                url: "/templates",
                idempotent: false,
                kind: "connection",
                detail: "socket hang up",
              });
            }
            return { ...t };
          };
          return attempt();
        },
      },
    };
  }
}

describe("uniquely named kinds", () => {
  const news = { name: "worker", imageName: "img:1", __provider: "shim-text" };

  it("a 409 on the replacement's create adopts the same-named template the lost create made", async () => {
    const service = new FakeTemplates();
    service.loseNextAnswer = true;
    const placeholder = await failedCreate(templateProvider(recordingDeps(service.api())), news);
    expect(placeholder.init.id).toMatch(/^pending-create-template-[0-9a-f]{12}$/);
    expect(placeholder.init.properties["pendingCreate"]).toEqual({ startedAt: "1970-01-01T00:00:00.000Z", matchedBefore: [] });

    // Back up, but its list does not show the new template yet: the create runs into "name taken",
    // and by then the list shows it.
    service.down = false;
    service.hidden.add("tpl1");
    service.calls.length = 0;
    const provider = templateProvider(recordingDeps(service.api()));
    await provider.diff!(placeholder.init.id, placeholder.init.properties, news);
    const inputs = (await provider.check!({}, news)).inputs ?? news;
    const created = await provider.create(inputs);
    expect(created.id).toBe("tpl1");
    expect(service.templates.size).toBe(1);
    expect(service.calls.filter((c) => c === "createTemplate")).toHaveLength(1);
  });

  it("a 409 for a template that existed before the lost create is not adopted", async () => {
    const service = new FakeTemplates();
    service.templates.set("tpl0", { id: "tpl0", name: "taken", imageName: "theirs" });
    // The lost create was refused by the service before the crash (name taken), so nothing new exists.
    const deps = recordingDeps(service.api());
    const provider = templateProvider(deps);
    const placeholderProps = {
      name: "taken",
      imageName: "img:1",
      __provider: "shim-text",
      pendingCreate: { startedAt: "t", matchedBefore: ["tpl0"] },
    };
    const takenNews = { name: "taken", imageName: "img:1", __provider: "shim-text" };
    await provider.diff!("pending-create-template-cccccccccccc", placeholderProps, takenNews);
    await expect(provider.create(takenNews)).rejects.toThrow(/409 Conflict: template name already taken/);
  });
});
