// Images: a deployment runs the image it was reviewed with. `latest` (or no tag, which the
// registry serves as latest) moves under a running pod or worker; a digest never does.

import { z } from "zod";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { gpuResourcePolicy } from "./define";
import { stringOf, violationText } from "./resources";
import { splitImageReference } from "../../model/fields/imageReference";

/** Config of {@link imagesPolicy} (`gpucloud-images`). */
export interface ImagesPolicyConfig {
  /** Require every image by digest (`name@sha256:...`), not by tag. Default false. */
  requireDigest?: boolean;
}

const imagesConfig: z.ZodType<Required<ImagesPolicyConfig>> & z.ZodObject = z.object({
  requireDigest: z.boolean().default(false).describe("Require images by digest (name@sha256:...). Default false."),
});

/** An image reference's parts (the one parser of the package's image rule, model/fields/imageReference.ts). */
export const imageReference = splitImageReference;

/** Pods' and templates' imageName pinned: no `latest`, no missing tag; optionally a digest. */
export const imagesPolicy: ResourceValidationPolicy = gpuResourcePolicy({
  name: "gpucloud-images",
  description: "Pods and templates name their image with a version tag (not latest, not untagged), or by digest where required.",
  enforcementLevel: "mandatory",
  config: imagesConfig,
  check: (resource, config) => {
    if (resource.kind !== "pod" && resource.kind !== "template") return [];
    const image = stringOf(resource.props["imageName"]);
    if (image === undefined) return [];
    const ref = imageReference(image);
    const example = `${ref.repository}:1.4.2`;
    const fault = (rule: string, fix: string) => [violationText({ resource, field: "imageName", value: image, rule, fix })];
    if (ref.digest !== undefined) return [];
    if (config.requireDigest)
      return fault(
        "is not pinned by digest (requireDigest)",
        `name the image by digest, e.g. "${ref.repository}@sha256:<digest>" (\`docker buildx imagetools inspect ${image}\` shows it)`,
      );
    if (ref.tag === undefined)
      return fault(
        "has no tag, so the registry serves latest, which can change under a running deployment",
        `add a version tag, e.g. "${example}"`,
      );
    if (ref.tag === "latest")
      return fault("uses the tag latest, which can change under a running deployment", `use a version tag, e.g. "${example}", or a digest`);
    return [];
  },
});
