/**
 * How a create whose answer was lost recognises the endpoint it made: by name and template on v1,
 * by name alone where the answer carries no templateId (v2, where templateId is a create-time
 * snapshot). Without the v2 case the lookup never matched and the retry made a second endpoint.
 */
import { describe, expect, it } from "vitest";
import type { Endpoint } from "../../../client/schemas";
import type { EndpointArgs } from "../../../model/kinds/endpoint/endpointFields";
import { endpointSpec } from "../../../provider/resources/endpoint";

const args = { name: "inference", templateId: "tpl-1" } as EndpointArgs;
const listed = (fields: Partial<Endpoint>): Endpoint => ({ id: "ep-1", name: "inference", ...fields }) as Endpoint;

describe("endpointSpec.matches", () => {
  it("v1 answers: name and templateId must both match", () => {
    expect(endpointSpec.matches(listed({ templateId: "tpl-1" }), args)).toBe(true);
    expect(endpointSpec.matches(listed({ templateId: "tpl-2" }), args)).toBe(false);
    expect(endpointSpec.matches(listed({ name: "other", templateId: "tpl-1" }), args)).toBe(false);
  });

  it("v2 answers (no templateId): the name decides", () => {
    expect(endpointSpec.matches(listed({}), args)).toBe(true);
    expect(endpointSpec.matches(listed({ name: "other" }), args)).toBe(false);
  });
});
