import { describe, expect, it } from "vitest";
import { imagesPolicy } from "../../../sdk/policy";
import { imageReference } from "../../../sdk/policy/images";
import { DECLARATIONS, runResourcePolicy, UNKNOWN } from "../../support/policyHarness";

describe.each(DECLARATIONS)("gpucloud-images, declared as a %s resource", (via) => {
  const pod = (imageName: unknown, config: object = {}) =>
    runResourcePolicy(imagesPolicy, { kind: "pod", via, name: "trainer", props: { imageName } }, config);

  it("passes a version tag and a digest", () => {
    expect(pod("ghcr.io/acme/trainer:1.4.2")).toEqual([]);
    expect(pod("ghcr.io/acme/trainer@sha256:0123abcd")).toEqual([]);
    expect(pod("registry:5000/acme/trainer:2", { requireDigest: false })).toEqual([]);
  });

  it("reports latest and an untagged image, naming the resource, the value, the rule and the fix", () => {
    expect(pod("ghcr.io/acme/trainer:latest")).toEqual([
      'Pod "trainer": imageName "ghcr.io/acme/trainer:latest" uses the tag latest, which can change under a running deployment; use a version tag, e.g. "ghcr.io/acme/trainer:1.4.2", or a digest',
    ]);
    // A registry port is no tag.
    expect(pod("registry:5000/acme/trainer")).toEqual([
      'Pod "trainer": imageName "registry:5000/acme/trainer" has no tag, so the registry serves latest, which can change under a running deployment; add a version tag, e.g. "registry:5000/acme/trainer:1.4.2"',
    ]);
  });

  it("with requireDigest, reports a tag", () => {
    const [message] = runResourcePolicy(
      imagesPolicy,
      { kind: "template", via, name: "worker", props: { imageName: "acme/w:1" } },
      { requireDigest: true },
    );
    expect(message).toMatch(
      /^Template "worker": imageName "acme\/w:1" is not pinned by digest \(requireDigest\); name the image by digest/,
    );
  });

  it("leaves alone a pod on a template (no imageName), a value not known yet, and other kinds", () => {
    expect(pod(undefined)).toEqual([]);
    expect(pod(UNKNOWN)).toEqual([]);
    expect(runResourcePolicy(imagesPolicy, { kind: "endpoint", via, props: { imageName: "a:latest" } })).toEqual([]);
  });
});

describe("imageReference", () => {
  it("splits the repository, tag and digest", () => {
    expect(imageReference("host:5000/a/b:1@sha256:ff")).toEqual({ repository: "host:5000/a/b", tag: "1", digest: "sha256:ff" });
    expect(imageReference("ubuntu")).toEqual({ repository: "ubuntu" });
  });
});
