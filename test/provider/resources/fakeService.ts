// A small in-memory stand-in for the management client, for provider tests that need failures the
// emulator cannot produce on demand (lost create answers, look-alikes appearing concurrently).
import { makeApiError } from "../../../client/errors";
import type { Pod, PodCreateInput, PodUpdateInput } from "../../../client/schemas";
import type { FakeApi } from "../../support/recordingDeps";

export type CreateFault = "none" | "lost-after-create" | "5xx-before-create";

export function lostAnswer() {
  return makeApiError({
    operation: "CreatePod",
    method: "POST",
    url: "/pods",
    idempotent: false,
    kind: "connection",
    detail: "socket hang up",
  });
}

export function serverError() {
  return makeApiError({
    operation: "CreatePod",
    method: "POST",
    url: "/pods",
    idempotent: false,
    status: 502,
    serviceMessage: "bad gateway",
  });
}

export function notFound(operation: string) {
  return makeApiError({ operation, method: "GET", url: "/x", idempotent: true, status: 404, serviceMessage: "pod not found" });
}

export class FakePods {
  readonly pods = new Map<string, Pod>();
  readonly calls: string[] = [];
  faults: CreateFault[] = [];
  /** Pods the service makes "ready" (IP + mappings) only after this many reads. */
  readsUntilReady = 0;
  private seq = 0;
  private reads = 0;

  private make(input: PodCreateInput): Pod {
    const id = `pod${++this.seq}`;
    const pod: Pod = {
      id,
      name: input.name,
      imageName: input.imageName,
      desiredStatus: "RUNNING",
      env: { ...(input.env ?? {}), PUBLIC_KEY: "ssh-ed25519 AAA" },
      ports: [...(input.ports ?? ["8888/http", "22/tcp"])],
      locked: input.locked ?? false,
    } as Pod;
    this.pods.set(id, pod);
    return pod;
  }

  api(): FakeApi {
    return {
      pods: {
        create: (input: PodCreateInput) => {
          const attempt = async () => {
            this.calls.push("createPod");
            const fault = this.faults.shift() ?? "none";
            if (fault === "5xx-before-create") throw serverError();
            const pod = this.make(input);
            if (fault === "lost-after-create") throw lostAnswer();
            return { ...pod };
          };
          return attempt();
        },
        list: async (filter) => {
          this.calls.push("listPods");
          return [...this.pods.values()].filter((p) => !filter?.name || p.name === filter.name).map((p) => ({ ...p }));
        },
        get: async (id: string) => {
          this.calls.push("getPod");
          const pod = this.pods.get(id);
          if (!pod) throw notFound("GetPod");
          this.reads++;
          const ready = pod.desiredStatus === "RUNNING" && this.reads > this.readsUntilReady;
          return ready ? { ...pod, publicIp: "100.64.0.9", portMappings: { "22": 10022, "8888": 18888 } } : { ...pod };
        },
        update: async (id: string, input: PodUpdateInput) => {
          this.calls.push(`updatePod ${JSON.stringify(input)}`);
          const pod = this.pods.get(id);
          if (!pod) throw notFound("UpdatePod");
          Object.assign(pod, input);
          return { ...pod };
        },
        stop: async (id: string) => {
          this.calls.push("stopPod");
          const pod = this.pods.get(id);
          if (!pod) throw notFound("StopPod");
          if (pod.locked)
            throw makeApiError({
              operation: "StopPod",
              method: "POST",
              url: "/x",
              idempotent: true,
              status: 400,
              serviceMessage: "pod is locked",
            });
          pod.desiredStatus = "EXITED";
        },
        start: async (id: string) => {
          this.calls.push("startPod");
          const pod = this.pods.get(id);
          if (pod) pod.desiredStatus = "RUNNING";
        },
        reset: async () => void this.calls.push("resetPod"),
        restart: async () => void this.calls.push("restartPod"),
        delete: async (id: string) => {
          this.calls.push("deletePod");
          if (!this.pods.delete(id)) throw notFound("DeletePod");
        },
      },
    };
  }
}
