/**
 * Options keyed by image name (`--handler IMAGE=...`, `--worker IMAGE=...`, `--external-image
 * IMAGE`): an endpoint's template image finds its entry by its exact name first, then by its name
 * without the tag, so `repo/img` covers every tag of the image.
 */

/** The value `map` holds for `imageName`: the exact name first, then the name without its tag. */
export function lookupByImage(map: Readonly<Record<string, string>>, imageName: string): string | undefined {
  return map[imageName] ?? map[untagged(imageName)];
}

/** Whether `imageName` is in `images` (exact, or without its tag). */
export function imageListed(images: readonly string[], imageName: string): boolean {
  return images.includes(imageName) || images.includes(untagged(imageName));
}

/** The image name without its tag (`repo/img:1.0` -> `repo/img`). */
function untagged(imageName: string): string {
  return imageName.replace(/:[^/:@]+$/, "");
}
