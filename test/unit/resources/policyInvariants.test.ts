import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import {
  CONTAINER_REGISTRY_AUTH_CREATE_KEYS,
  ENDPOINT_CREATE_KEYS,
  ENDPOINT_UPDATE_KEYS,
  NETWORK_VOLUME_CREATE_KEYS,
  NETWORK_VOLUME_UPDATE_KEYS,
  POD_CREATE_KEYS,
  POD_UPDATE_KEYS,
  TEMPLATE_CREATE_KEYS,
  TEMPLATE_UPDATE_KEYS,
} from "../../../client/schemas";
import { inputFields, type ResourcePolicy } from "../../../provider/resources/fieldPolicy";
import { endpointArgsSchema, endpointPolicy } from "../../../provider/resources/endpointArgs";
import { networkVolumeArgsSchema, networkVolumePolicy } from "../../../provider/resources/networkVolumeArgs";
import { podArgsSchema, podPolicy } from "../../../provider/resources/podArgs";
import { registryAuthArgsSchema, registryAuthPolicy } from "../../../provider/resources/registryAuthArgs";
import { templateArgsSchema, templatePolicy } from "../../../provider/resources/templateArgs";
import type { EndpointArgs, NetworkVolumeArgs, PodArgs, RegistryAuthArgs, TemplateArgs } from "../../../sdk/index";

interface Spec {
  policy: ResourcePolicy<never>;
  schema: z.ZodObject;
  createKeys: readonly string[];
  updateKeys: readonly string[];
}

const specs: Record<string, Spec> = {
  pod: { policy: podPolicy as ResourcePolicy<never>, schema: podArgsSchema, createKeys: POD_CREATE_KEYS, updateKeys: POD_UPDATE_KEYS },
  // `type` is a create field the v1 body has no key for (the client carries it in the name).
  endpoint: { policy: endpointPolicy as ResourcePolicy<never>, schema: endpointArgsSchema, createKeys: [...ENDPOINT_CREATE_KEYS, "type"], updateKeys: ENDPOINT_UPDATE_KEYS },
  template: { policy: templatePolicy as ResourcePolicy<never>, schema: templateArgsSchema, createKeys: TEMPLATE_CREATE_KEYS, updateKeys: TEMPLATE_UPDATE_KEYS },
  networkVolume: { policy: networkVolumePolicy as ResourcePolicy<never>, schema: networkVolumeArgsSchema, createKeys: NETWORK_VOLUME_CREATE_KEYS, updateKeys: NETWORK_VOLUME_UPDATE_KEYS },
  registryAuth: { policy: registryAuthPolicy as ResourcePolicy<never>, schema: registryAuthArgsSchema, createKeys: CONTAINER_REGISTRY_AUTH_CREATE_KEYS, updateKeys: [] },
};

const local = (spec: Spec) => Object.entries(spec.policy.fields).filter(([, p]) => p.local).map(([n]) => n);

describe.each(Object.entries(specs))("%s policy table", (_kind, spec) => {
  it("has one policy per argument, and every argument is a service create field or a provider argument", () => {
    expect(inputFields(spec.policy).sort()).toEqual(Object.keys(spec.schema.shape).sort());
    expect([...spec.createKeys, ...local(spec)].sort()).toEqual(Object.keys(spec.schema.shape).sort());
  });

  it("updates in place exactly the fields the service's update accepts; every other create field replaces", () => {
    for (const field of spec.createKeys) {
      const expected = spec.updateKeys.includes(field) ? "update" : "replace";
      expect(`${field}: ${spec.policy.fields[field]?.kind}`).toBe(`${field}: ${expected}`);
    }
  });
});

describe("SDK Args interfaces match the checked arguments", () => {
  it("have the same keys as the zod schemas", () => {
    expectTypeOf<keyof PodArgs>().toEqualTypeOf<keyof z.input<typeof podArgsSchema>>();
    expectTypeOf<keyof EndpointArgs>().toEqualTypeOf<keyof z.input<typeof endpointArgsSchema>>();
    expectTypeOf<keyof TemplateArgs>().toEqualTypeOf<keyof z.input<typeof templateArgsSchema>>();
    expectTypeOf<keyof NetworkVolumeArgs>().toEqualTypeOf<keyof z.input<typeof networkVolumeArgsSchema>>();
    expectTypeOf<keyof RegistryAuthArgs>().toEqualTypeOf<keyof z.input<typeof registryAuthArgsSchema>>();
  });
});
