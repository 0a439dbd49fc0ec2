// Exposure: what a pod or template opens to the internet needs an explicit allowance. A public TCP
// port other than SSH's, a Jupyter server, and SSH without a key each are reported.

import { z } from "zod";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { gpuResourcePolicy } from "./define";
import { stringMapOf, stringsOf, violationText } from "./resources";

/** Config of {@link exposurePolicy} (`gpucloud-exposure`). */
export interface ExposurePolicyConfig {
  /** Public TCP ports allowed besides SSH's 22, e.g. `[8000]`. Default none. */
  allowedTcpPorts?: number[];
  /** Allow `startJupyter: true`. Default false. */
  allowJupyter?: boolean;
  /** Allow SSH (`startSsh: true` or port `22/tcp`) without `env.PUBLIC_KEY` (e.g. when the account's keys, AccountSshKeys, serve). Default false. */
  allowSshWithoutKeys?: boolean;
}

const exposureConfig: z.ZodType<Required<ExposurePolicyConfig>> & z.ZodObject = z.object({
  allowedTcpPorts: z.array(z.number().int().min(1).max(65535)).default([]).describe("Public TCP ports allowed besides 22. Default none."),
  allowJupyter: z.boolean().default(false).describe("Allow startJupyter: true. Default false."),
  allowSshWithoutKeys: z.boolean().default(false).describe("Allow SSH without env.PUBLIC_KEY. Default false."),
});

const SSH_PORT = 22;

/** Public TCP ports beyond SSH, Jupyter, and SSH without a key, each with an allowance to grant it. */
export const exposurePolicy: ResourceValidationPolicy = gpuResourcePolicy({
  name: "gpucloud-exposure",
  description:
    "Pods and templates open no public TCP port other than SSH, no Jupyter server, and no SSH without a key, unless the config allows it.",
  enforcementLevel: "mandatory",
  config: exposureConfig,
  check: (resource, config) => {
    if (resource.kind !== "pod" && resource.kind !== "template") return [];
    const props = resource.props;
    const out: string[] = [];
    const ports = stringsOf(props["ports"]);
    for (const port of ports) {
      const [number, protocol] = port.split("/");
      const n = Number(number);
      if (protocol !== "tcp" || n === SSH_PORT || config.allowedTcpPorts.includes(n)) continue;
      out.push(
        violationText({
          resource,
          field: "ports",
          value: port,
          rule: "opens a public TCP port other than SSH's",
          fix: `serve it as "${n}/http" behind the service's proxy, remove it, or add ${n} to allowedTcpPorts in the policy config`,
        }),
      );
    }
    if (props["startJupyter"] === true && !config.allowJupyter) {
      out.push(
        violationText({
          resource,
          field: "startJupyter",
          value: true,
          rule: "starts a Jupyter server reachable from the internet",
          fix: "remove startJupyter, or set allowJupyter in the policy config",
        }),
      );
    }
    const ssh = props["startSsh"] === true || ports.includes(`${SSH_PORT}/tcp`);
    const key = stringMapOf(props["env"]).some(([k, v]) => k === "PUBLIC_KEY" && v.trim() !== "");
    if (ssh && !key && !config.allowSshWithoutKeys) {
      out.push(
        violationText({
          resource,
          field: props["startSsh"] === true ? "startSsh" : "ports",
          value: props["startSsh"] === true ? true : `${SSH_PORT}/tcp`,
          rule: "opens SSH with no key declared (env.PUBLIC_KEY)",
          fix: "set env.PUBLIC_KEY to your public key, or set allowSshWithoutKeys in the policy config when the account's keys (AccountSshKeys) serve",
        }),
      );
    }
    return out;
  },
});
