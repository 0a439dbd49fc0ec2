// The container settings a pod and a template share (a pod made from a template takes them from
// it): each row declared once, for both tables. They differ only in what removing a declared value
// does: a template falls back to the service's default; a pod's sizes and command come from its
// template when it has one, so removing one sends the value to reset to (FieldRow.resetTo).

import type { Pod, Template } from "../../client/schemas";
import type { SentPathV2 } from "../../client/wirePathsV2";
import { rowsFor } from "./fieldTable";
import { argv, envMap, list, num, port, str } from "./validation";
import type { Json } from "./values";
import {
  COMMAND_V2,
  mountPathOf,
  persistentSizeOf,
  persistentSizeRefusal,
  persistentSizeToWire,
  persistentStorageReplacement,
} from "./wireV2";

type ContainerField = "env" | "ports" | "containerDiskInGb" | "volumeInGb" | "volumeMountPath" | "dockerEntrypoint" | "dockerStartCmd";
/** What both live objects report of these fields (a row reads either). */
type ContainerLive = Pick<Pod, ContainerField> & Pick<Template, ContainerField>;
/** The v2 paths both kinds' create and update bodies name. */
type ContainerPath = SentPathV2<"createPod" | "updatePod"> & SentPathV2<"createTemplate" | "updateTemplate">;

const { update } = rowsFor<ContainerLive, ContainerPath, never>();

export interface ContainerRowsOptions {
  readonly noun: "pod" | "template";
  /** `default`: an absent value is the service's default; `resetTo`: removing a value sends it (FieldRow). */
  readonly absent: "default" | "resetTo";
  /** The env keys the platform adds to this kind (FieldRow.injectedKeys). */
  readonly injectedKeys: readonly string[];
  /** An example start command, for the argument's documentation and messages. */
  readonly startCmdExample: string;
}

/** The shared rows, for a kind's table to place among its own (each table keeps its order of fields). */
export function containerRows(options: ContainerRowsOptions) {
  const absent = (value: Json): { readonly default?: Json; readonly resetTo?: Json } =>
    options.absent === "default" ? { default: value } : { resetTo: value };
  return {
    // env values may be secrets (pulumi.secret): never printed.
    env: update(envMap.optional(), {
      envMap: true,
      injectedKeys: options.injectedKeys,
      sensitive: true,
      observe: (c) => c.env,
      v2: { path: "env" },
    }),
    // Compared as a set: the service keeps no order. Numbers read back as strings are parsed at the wire.
    // v1 opens 8888/http and 22/tcp when none are given; v2 has no default ports (today 6.1 #8):
    // removing the list there closes them all.
    ports: update(list(port, { example: '["8888/http", "22/tcp"]', unique: true }).optional(), {
      unordered: true,
      resetTo: ["8888/http", "22/tcp"],
      observe: (c) => c.ports,
      v2: { path: "ports", resetTo: [] },
    }),
    containerDiskInGb: update(num({ min: 1, unit: "GB", example: "50" }).optional(), {
      ...absent(50),
      observe: (c) => c.containerDiskInGb,
      v2: { path: "disk" },
    }),
    volumeInGb: update(num({ min: 0, unit: "GB", example: "20" }).optional(), {
      ...absent(20),
      observe: (c) => c.volumeInGb,
      // v2: no persistent storage unless mounts ask for it (today 6.1 #8), and a pod's mount kind is fixed at create.
      v2: {
        path: "mounts.persistent.size",
        toWire: persistentSizeToWire,
        read: persistentSizeOf,
        refuse: persistentSizeRefusal,
        default: 0,
        resetTo: 0,
        replaceIf: persistentStorageReplacement(options.noun),
      },
    }),
    // Compared exactly: a trailing slash names the same directory, but the service stores the string as given.
    volumeMountPath: update(
      str({
        example: '"/workspace"',
        pattern: { re: /^\//, hint: 'is not an absolute path; start it with "/", e.g. "/workspace"' },
      }).optional(),
      {
        ...absent("/workspace"),
        observe: (c) => c.volumeMountPath,
        v2: { path: "mounts.persistent.path", read: mountPathOf },
      },
    ),
    dockerEntrypoint: update(argv('["bash", "-c"]').optional(), {
      ...absent([]),
      observe: (c) => c.dockerEntrypoint,
      v2: COMMAND_V2.dockerEntrypoint,
    }),
    dockerStartCmd: update(argv(options.startCmdExample).optional(), {
      ...absent([]),
      observe: (c) => c.dockerStartCmd,
      v2: COMMAND_V2.dockerStartCmd,
    }),
  };
}
